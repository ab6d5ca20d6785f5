import { afterEach, describe, expect, it } from 'vitest';
import { BRAVE_PATH, expectPaced, expectSlotEach, startBraveAtOnePerSecond } from '../support/arrivals.js';
import type { FakeUpstream } from '../support/fake-upstream.js';
import { request, type RunningService } from '../support/service.js';

const KEY_A = 'caller-a-key-0123456789';
const KEY_B = 'caller-b-key-0123456789';

interface BraveOutcome {
  status: string;
  code?: string;
  message?: string;
  retry_after_ms?: number;
}

function searchAs(service: RunningService, key: string, query: string, timeoutMs: number): Promise<BraveOutcome> {
  return request(service.origin, `/v1/search/web?q=${encodeURIComponent(query)}&providers=brave&timeout_ms=${timeoutMs}`, {
    headers: { authorization: `Bearer ${key}` },
  }).then(async (response) => {
    expect(response.status).toBe(200);
    return (await response.json()).providers[0] as BraveOutcome;
  });
}

/** Starts `count` searches of one caller at once; `refused` settles when the first of them is answered rate_limited. */
function burst(service: RunningService, key: string, label: string, count: number, timeoutMs: number) {
  let heardRefusal!: () => void;
  const refused = new Promise<void>((resolve) => (heardRefusal = resolve));
  const outcomes = Promise.all(
    Array.from({ length: count }, (_, index) =>
      searchAs(service, key, `${label} ${index}`, timeoutMs).then((outcome) => {
        if (outcome.status === 'rate_limited') heardRefusal();
        return outcome;
      }),
    ),
  );
  return { refused, outcomes };
}

/** Polls `condition` until it holds, failing the test past `withinMs`. */
async function until(condition: () => boolean, withinMs: number): Promise<void> {
  const giveUpAt = performance.now() + withinMs;
  while (!condition()) {
    if (performance.now() > giveUpAt) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('outbound slots under BRAVE_RATE_LIMIT=1/s, shared between callers only when they contend', () => {
  let upstream: FakeUpstream | undefined;
  let service: RunningService | undefined;
  let arrivals: number[];

  const start = async () => {
    ({ upstream, service, arrivals } = await startBraveAtOnePerSecond([KEY_A, KEY_B]));
    return service;
  };
  afterEach(async () => {
    await service?.stop();
    await upstream?.stop();
    service = undefined;
    upstream = undefined;
  });

  it('gives a lone caller every slot that starts before its deadline', async () => {
    const running = await start();
    // At 1/s a 5 s deadline holds the slot free at once and those 1, 2, 3 and 4 s later: five searches, five slots.
    const outcomes = await Promise.all(Array.from({ length: 5 }, (_, index) => searchAs(running, KEY_A, `lone caller ${index}`, 5000)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(upstream!.requestsTo(BRAVE_PATH)).toHaveLength(5);
  });

  it("gives a newcomer's first search a slot the first caller held past its share, and no more requests are sent for it", async () => {
    const running = await start();
    const since = performance.now();
    // A alone: its burst takes every slot before its 4 s deadline, as a lone caller may.
    const first = burst(running, KEY_A, 'first burst of caller a', 10, 4000);
    await first.refused;
    // B's first search, with a 3 s deadline, finds no slot of its own before it. A has three searches waiting, past
    // its share of B's deadline (one): A keeps the first, B takes the next one A held (it starts before B's deadline).
    const newcomer = await searchAs(running, KEY_B, 'caller b asks first', 3000);
    expect(newcomer.status).toBe('ok');
    // The search of A's whose slot went to B asked again, found none before its deadline, and was refused.
    const fromA = await first.outcomes;
    expect(fromA.filter((outcome) => outcome.status === 'rate_limited').some((outcome) => /this caller already has its share/.test(outcome.message ?? ''))).toBe(true);
    // Handing the slot over sent nothing more: only ok (or, on a busy machine, timed out) searches reached the upstream,
    // one a slot: none sent before its slot could start, however late any of them went.
    const { ok } = expectPaced([...fromA, newcomer], arrivals, 2);
    expectSlotEach(arrivals, since, 1000);
    expect(ok.length).toBeGreaterThanOrEqual(2);
  });

  it('leaves a second caller room while the first keeps bursting', async () => {
    const running = await start();
    const since = performance.now();
    const first = burst(running, KEY_A, 'first burst of caller a', 10, 4000);
    await first.refused;
    // B's first search: a 1 s deadline ends before any of A's waiting slots starts, so none is handed over: refused,
    // and contention begins.
    expect((await searchAs(running, KEY_B, 'caller b asks first', 1000)).status).toBe('rate_limited');
    // A's first waiting search is sent (a slot has passed); then A bursts again.
    const sentBefore = arrivals.length;
    await until(() => arrivals.length > sentBefore, 3000);
    const second = burst(running, KEY_A, 'second burst of caller a', 10, 4000);
    await second.refused;
    // A is held to half the slots before its deadline, and already has more waiting: B's next search gets a slot.
    const next = await searchAs(running, KEY_B, 'caller b asks again', 4000);
    expect(next.status).toBe('ok');
    const fromA = [...(await first.outcomes), ...(await second.outcomes)];
    expect(fromA.filter((outcome) => outcome.status === 'rate_limited').some((outcome) => /this caller already has its share/.test(outcome.message ?? ''))).toBe(true);
    // Every search answered ok reached the upstream; besides them, only one given a slot just before its deadline and
    // answered `timeout` (a busy machine: CI saw six requests for five ok), never one refused.
    expectPaced([...fromA, next], arrivals, 2);
    expectSlotEach(arrivals, since, 1000);
  });
});
