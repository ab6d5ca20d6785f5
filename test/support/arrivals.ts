import type { FakeUpstream } from './fake-upstream.js';

export const BRAVE_PATH = '/brave/res/v1/web/search';

/** Routes Brave's search path to answer one result and record when each request arrived (ms, monotonic). */
export function recordBraveArrivals(upstream: FakeUpstream): number[] {
  const arrivals: number[] = [];
  upstream.on(BRAVE_PATH, {
    kind: 'handler',
    handle: (_request, response) => {
      arrivals.push(performance.now());
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ type: 'search', web: { results: [{ title: 'Limited', url: `https://brave.example/${arrivals.length}` }] } }));
    },
  });
  return arrivals;
}

/** The most arrivals inside any window of `windowMs` (from one arrival, up to but not including windowMs later). */
export function mostInAnyWindow(arrivals: number[], windowMs: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  return sorted.reduce((most, start, index) => {
    const inside = sorted.slice(index).filter((time) => time < start + windowMs).length;
    return Math.max(most, inside);
  }, 0);
}
