import { expect } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { providerEnv, startService, type RunningService } from './service.js';

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

/**
 * A service whose Brave, on a fake upstream that records when each request arrived, is held to one request a second
 * (BRAVE_RATE_LIMIT=1/s), with `apiKeys` its callers' keys: where outbound slots are shared between callers.
 */
export async function startBraveAtOnePerSecond(apiKeys: readonly string[]): Promise<{ upstream: FakeUpstream; service: RunningService; arrivals: number[] }> {
  const upstream = await startFakeUpstream();
  const arrivals = recordBraveArrivals(upstream);
  const service = await startService({
    ...providerEnv(upstream.origin),
    BRAVE_API_KEY: 'k-123456',
    BRAVE_RATE_LIMIT: '1/s',
    API_KEYS: apiKeys.join(','),
    LOG_LEVEL: 'silent',
  });
  return { upstream, service, arrivals };
}

/** The most arrivals inside any window of `windowMs` (from one arrival, up to but not including windowMs later). */
export function mostInAnyWindow(arrivals: number[], windowMs: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  return sorted.reduce((most, start, index) => {
    const inside = sorted.slice(index).filter((time) => time < start + windowMs).length;
    return Math.max(most, inside);
  }, 0);
}

/**
 * That each request had a slot of its own under a limit of one request per `msPerSlot`, whose bucket nobody had used
 * before `since`: slots start `msPerSlot` apart, from `since` at the earliest, and a request leaves at its slot's start
 * or later, so the k-th request to arrive came no earlier than the k-th slot could start. Two requests sent in one slot
 * (one handed over, and still used by the call that held it) arrive before their slots; a request sent late (a busy
 * machine) does not, where a window between arrivals (no two within half a slot) failed when one went half a slot late.
 */
export function expectSlotEach(arrivals: readonly number[], since: number, msPerSlot: number): void {
  const sorted = [...arrivals].sort((a, b) => a - b);
  // A few ms before its slot is still its slot: a timer may fire as early as libuv's loop clock lets it.
  const beforeTheirSlot = sorted
    .map((at, index) => ({ request: index + 1, afterSinceMs: Math.round(at - since), slotStartsMs: index * msPerSlot }))
    .filter(({ afterSinceMs, slotStartsMs }) => afterSinceMs < slotStartsMs - 5);
  expect(beforeTheirSlot).toEqual([]);
}

interface Outcome {
  status: string;
  retry_after_ms?: number;
}

/**
 * What paced searches must show, whatever the machine's speed: never more than `perWindow` upstream requests
 * in any second; each search ok, rate_limited or (a slot given just before its deadline, on a busy machine)
 * timeout; every ok one reached the upstream, and nothing else did. Returns the outcomes by status.
 */
export function expectPaced<T extends Outcome>(answers: T[], arrivals: number[], perWindow: number) {
  const ok = answers.filter((outcome) => outcome.status === 'ok');
  const limited = answers.filter((outcome) => outcome.status === 'rate_limited');
  const timedOut = answers.filter((outcome) => outcome.status === 'timeout');
  expect(mostInAnyWindow(arrivals, 1000)).toBeLessThanOrEqual(perWindow);
  expect(ok.length + limited.length + timedOut.length).toBe(answers.length);
  expect(arrivals.length).toBeGreaterThanOrEqual(ok.length);
  expect(arrivals.length).toBeLessThanOrEqual(ok.length + timedOut.length);
  expect(limited.every((outcome) => (outcome.retry_after_ms ?? 0) > 0)).toBe(true);
  return { ok, limited, timedOut };
}
