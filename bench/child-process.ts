import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FakeProvider } from './fake-providers.js';

/**
 * The benchmark runs the service, the fake providers and the load generator in separate processes, so that
 * none of them steals event-loop time from another and skews the latencies. These two helpers are the
 * parent's and the child's halves of that: the child does its setup, then reports `{ ready: payload }`.
 */

type ChildMessage<T> = { ready: T } | { failed: string };

export interface RunningChild<T> {
  payload: T;
  /** The child's process id, to read its CPU time. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Forks a TypeScript module (the tsx loader is inherited through execArgv) and waits for it to be ready. */
export function startChild<T>(module: URL, input: unknown, readyWithinMs = 30_000): Promise<RunningChild<T>> {
  const child = fork(fileURLToPath(module), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${module.pathname} was not ready within ${readyWithinMs} ms`));
    }, readyWithinMs);
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`${module.pathname} exited (code ${code}) before it was ready`));
    };
    child.once('exit', onExit);
    child.once('message', (message: ChildMessage<T>) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      if ('failed' in message) {
        child.kill();
        reject(new Error(`${module.pathname}: ${message.failed}`));
        return;
      }
      resolve({ payload: message.ready, pid: child.pid, stop: () => stopChild(child) });
    });
    child.send({ input });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The child's half: runs `setup` with the parent's input, reports ready, and runs `teardown` on SIGTERM or when the parent goes away. */
export function serveAsChild<I, T>(setup: (input: I) => Promise<{ payload: T; teardown(): Promise<void> }>): void {
  if (!process.send) throw new Error('this module runs as a child of bench/run.ts (npm run bench)');
  process.once('message', async ({ input }: { input: I }) => {
    try {
      const { payload, teardown } = await setup(input);
      const finish = (): void => {
        teardown().finally(() => process.exit(0));
      };
      process.once('SIGTERM', finish);
      process.once('disconnect', finish);
      process.send!({ ready: payload } satisfies ChildMessage<T>);
    } catch (error) {
      process.send!({ failed: error instanceof Error ? error.message : String(error) } satisfies ChildMessage<T>);
    }
  });
}

/** The fake providers and a fedsearch pointed at them, each in a child process; stop both with `children`. */
export async function startFakesAndService(
  env: Record<string, string>,
): Promise<{ fakes: FakeProvider[]; origin: string; children: Array<RunningChild<unknown>> }> {
  const children: Array<RunningChild<unknown>> = [];
  try {
    const fakesChild = await startChild<FakeProvider[]>(new URL('./fake-providers.ts', import.meta.url), undefined);
    children.push(fakesChild);
    const fakes = fakesChild.payload;
    const service = await startChild<{ origin: string }>(new URL('./service.ts', import.meta.url), {
      // The per-client rate limit (120 a minute by default) would answer most of the load with 429.
      RATE_LIMIT_MAX: '1000000000',
      HOST: '127.0.0.1',
      PORT: '0',
      ...env,
      ...Object.assign({}, ...fakes.map((fake) => fake.env)),
    });
    children.push(service);
    return { fakes, origin: service.payload.origin, children };
  } catch (error) {
    await Promise.all(children.map((child) => child.stop()));
    throw error;
  }
}
