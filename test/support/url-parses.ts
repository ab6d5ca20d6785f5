import { vi } from 'vitest';

/** How many URLs the global URL parser made while `run` ran (for tests of the shortcuts that avoid it). */
export function urlsParsedBy<T>(run: () => T): { parsed: number; result: T } {
  const RealUrl = URL;
  let parsed = 0;
  vi.stubGlobal(
    'URL',
    class CountingUrl extends RealUrl {
      constructor(...args: ConstructorParameters<typeof URL>) {
        super(...args);
        parsed += 1;
      }
    },
  );
  try {
    const result = run();
    return { parsed, result };
  } finally {
    vi.unstubAllGlobals();
  }
}
