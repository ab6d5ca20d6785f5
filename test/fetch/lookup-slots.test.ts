import { afterEach, describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { checkFetchTarget } from '../../src/fetch/fetch-target.js';
import { callerLookups, callerLookupSlots, LookupSlots } from '../../src/fetch/lookup-slots.js';
import { safeFetch } from '../../src/fetch/safe-fetch.js';
import { HeldResolver } from '../support/held-resolver.js';

/** Settles once a check that was queued or running has been given up; it must fail, never pass. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the check to fail');
    },
    (reason: unknown) => reason,
  );
}

const names = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix}${index}.test`);

let held: HeldResolver;
const pending: Promise<unknown>[] = [];

afterEach(async () => {
  held.answerAll();
  await Promise.allSettled(pending.splice(0));
});

function check(hostname: string, signal?: AbortSignal): Promise<unknown> {
  const promise = checkFetchTarget(`http://${hostname}/`, { lookup: held.lookup, signal });
  pending.push(promise);
  // Failures are asserted where a test expects them; one settling before that is not an unhandled rejection.
  promise.catch(() => undefined);
  return promise;
}

describe('lookups of the hosts callers name: a few at a time, process-wide', () => {
  it('starts only as many lookups as there are slots; the others wait and start as one ends', async () => {
    held = new HeldResolver();
    const hosts = names(callerLookups.size + 2, 'queued');
    const checks = hosts.map((hostname) => check(hostname));
    await held.untilStarted(callerLookups.size);
    // A literal needs no lookup, so no slot: it is checked while every slot is taken, and proves a turn has passed.
    await checkFetchTarget('http://93.184.216.35/', { lookup: held.lookup });
    expect(held.started).toEqual(hosts.slice(0, callerLookups.size));

    held.answer(hosts[0]!);
    await expect(checks[0]).resolves.toMatchObject({ addresses: [{ address: '93.184.216.34', family: 4 }] });
    await held.untilStarted(callerLookups.size + 1);
    expect(held.started).toEqual(hosts.slice(0, callerLookups.size + 1));
  });

  it('a check aborted while it waits for a slot leaves the queue and starts no lookup', async () => {
    held = new HeldResolver();
    const busy = names(callerLookups.size, 'busy');
    for (const hostname of busy) check(hostname);
    await held.untilStarted(callerLookups.size);
    const abandoned = new AbortController();
    const abandonedCheck = check('abandoned.test', abandoned.signal);
    const after = check('after.test');
    abandoned.abort(new Error('the caller went away'));
    expect(await failure(abandonedCheck)).toMatchObject({ message: 'the caller went away' });

    held.answer(busy[0]!);
    await held.untilStarted(callerLookups.size + 1);
    // The slot went to the check queued behind the abandoned one, which never asked DNS.
    expect(held.started).toEqual([...busy, 'after.test']);
    held.answer('after.test');
    await expect(after).resolves.toMatchObject({ url: new URL('http://after.test/') });
  });

  it('a check aborted after it was given a slot but before its lookup began starts none and gives the slot on', async () => {
    held = new HeldResolver();
    const controllers = names(callerLookups.size, 'given-up').map((hostname) => {
      const controller = new AbortController();
      check(hostname, controller.signal);
      return controller;
    });
    for (const controller of controllers) controller.abort(new Error('gave up at once'));
    const after = check('after.test');
    held.answerAll();
    await expect(after).resolves.toMatchObject({ url: new URL('http://after.test/') });
    expect(held.started).toEqual(['after.test']);
  });

  it('a lookup keeps its slot until it ends, even when its fetch was aborted: its thread is still busy', async () => {
    held = new HeldResolver();
    const busy = names(callerLookups.size, 'abandoned');
    const controllers = busy.map(() => new AbortController());
    const checks = busy.map((hostname, index) => check(hostname, controllers[index]!.signal));
    await held.untilStarted(callerLookups.size);
    for (const controller of controllers) controller.abort(new Error('gave up'));
    for (const abandoned of checks) expect(await failure(abandoned)).toMatchObject({ message: 'gave up' });

    const waiting = check('waiting.test');
    await checkFetchTarget('http://93.184.216.35/', { lookup: held.lookup });
    expect(held.started).toEqual(busy);
    held.answer(busy[0]!);
    await held.untilStarted(callerLookups.size + 1);
    expect(held.started).toEqual([...busy, 'waiting.test']);
    held.answer('waiting.test');
    await expect(waiting).resolves.toMatchObject({ url: new URL('http://waiting.test/') });
  });

  it('a fetch that runs out of time waiting for a slot ends with FETCH_TIMEOUT saying it was the queue, not the site', async () => {
    held = new HeldResolver();
    const busy = names(callerLookups.size, 'slow');
    for (const hostname of busy) check(hostname);
    await held.untilStarted(callerLookups.size);
    const before = callerLookups.counts().timedOutWaiting;
    const fetch = safeFetch('http://late.test/', { lookup: held.lookup, timeoutMs: 200 });
    const error = await failure(fetch);
    expect(error).toBeInstanceOf(FedsearchError);
    expect(error).toMatchObject({ code: 'FETCH_TIMEOUT' });
    const message = (error as FedsearchError).message;
    const said = /^fetching http:\/\/late\.test\/ took longer than 200 ms \(waiting (\d+) ms for a DNS lookup slot: other fetches' lookups were still running\)$/.exec(message);
    expect(said, message).not.toBeNull();
    // It queued at once and waited out its whole time (a timer may fire a millisecond early, never much).
    expect(Number(said![1])).toBeGreaterThanOrEqual(190);
    // The hosts whose lookups held the slots are other callers': none of them is named.
    for (const hostname of busy) expect(message).not.toContain(hostname);
    expect(held.started).not.toContain('late.test');
    expect(callerLookups.counts().timedOutWaiting).toBe(before + 1);
  });

  it('a fetch that waited, was given a slot and ran out of time in its own lookup is not said to have waited for one', async () => {
    held = new HeldResolver();
    const busy = names(callerLookups.size, 'before-turn');
    for (const hostname of busy) check(hostname);
    await held.untilStarted(callerLookups.size);
    const before = callerLookups.counts().timedOutWaiting;
    const fetch = safeFetch('http://own-slow.test/', { lookup: held.lookup, timeoutMs: 300 });
    pending.push(fetch.catch(() => undefined));
    held.answer(busy[0]!);
    await held.untilStarted(callerLookups.size + 1);
    expect(held.started.at(-1)).toBe('own-slow.test');
    const error = await failure(fetch);
    expect(error).toMatchObject({ code: 'FETCH_TIMEOUT', message: 'fetching http://own-slow.test/ took longer than 300 ms' });
    expect(callerLookups.counts().timedOutWaiting).toBe(before);
  });

  it('counts the callers waiting and the lookups running, and neither once every lookup has ended', async () => {
    held = new HeldResolver();
    const busy = names(callerLookups.size, 'counted');
    for (const hostname of busy) check(hostname);
    await held.untilStarted(callerLookups.size);
    const queued = [check('queued-a.test'), check('queued-b.test')];
    expect(callerLookups.counts()).toMatchObject({ waiting: 2, running: callerLookups.size });

    held.answerAll();
    await Promise.all(queued);
    await Promise.allSettled(pending);
    expect(callerLookups.counts()).toMatchObject({ waiting: 0, running: 0 });
  });
});

describe('how many slots: one fewer than the lookups libuv runs at once ((threads + 1) / 2), at least one', () => {
  it.each([
    [undefined, 1],
    ['4', 1],
    ['5', 2],
    ['8', 3],
    ['16', 7],
    ['1', 1],
    ['0', 1],
    ['abc', 1],
    ['5000', 511],
  ])('UV_THREADPOOL_SIZE=%s: %i', (setting, slots) => {
    expect(callerLookupSlots(setting)).toBe(slots);
  });
});

describe('slots resized as the app is built', () => {
  it('gives an added slot to the longest waiting caller, and keeps a taken one taken', async () => {
    const slots = new LookupSlots(1);
    const ends: Array<() => void> = [];
    const started: string[] = [];
    const lookup = (name: string) => () =>
      new Promise<string>((resolve) => {
        started.push(name);
        ends.push(() => resolve(name));
      });
    const first = slots.run(lookup('first'), undefined);
    const second = slots.run(lookup('second'), undefined);
    const third = slots.run(lookup('third'), undefined);
    await expect.poll(() => started).toEqual(['first']);
    slots.resize(2);
    expect(slots.size).toBe(2);
    await expect.poll(() => started).toEqual(['first', 'second']);
    for (const end of ends) end();
    await expect.poll(() => started).toEqual(['first', 'second', 'third']);
    ends.at(-1)!();
    expect(await Promise.all([first, second, third])).toEqual(['first', 'second', 'third']);
  });
});
