import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../src/engine/cancellation.js';
import { SingleFlight } from '../../src/engine/single-flight.js';

describe('Cancellation', () => {
  it('aborts once, with its reason, telling each listener once in the order they were added', () => {
    const cancellation = new Cancellation();
    const heard: string[] = [];
    const first = () => heard.push(`first:${String(cancellation.reason)}`);
    cancellation.addEventListener('abort', first);
    cancellation.addEventListener('abort', first);
    cancellation.addEventListener('abort', () => heard.push('second'));
    expect(cancellation.aborted).toBe(false);
    cancellation.abort('gone');
    cancellation.abort('again');
    expect(cancellation).toMatchObject({ aborted: true, reason: 'gone' });
    expect(heard).toEqual(['first:gone', 'second']);
  });

  it('never calls a listener removed before the abort or added after it', () => {
    const cancellation = new Cancellation();
    const heard: string[] = [];
    const removed = () => heard.push('removed');
    cancellation.addEventListener('abort', removed);
    cancellation.removeEventListener('abort', removed);
    cancellation.abort();
    cancellation.addEventListener('abort', () => heard.push('late'));
    expect(heard).toEqual([]);
    // Without a reason, the reason an AbortController gives.
    expect(cancellation.reason).toMatchObject({ name: 'AbortError' });
  });

  it('tells the other listeners when one throws, and reports the error', async () => {
    const cancellation = new Cancellation();
    const heard: string[] = [];
    cancellation.addEventListener('abort', () => {
      throw new Error('listener bug');
    });
    cancellation.addEventListener('abort', () => heard.push('after'));
    const reported = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
    cancellation.abort();
    expect(heard).toEqual(['after']);
    expect(await reported).toMatchObject({ message: 'listener bug' });
  });
});

describe('SingleFlight', () => {
  it('runs identical work once and aborts it only when every caller waiting on it has gone away', async () => {
    const flights = new SingleFlight<string>();
    let runs = 0;
    let shared: { aborted: boolean; reason: unknown } | undefined;
    let finish!: (value: string) => void;
    const work = (signal: { aborted: boolean; reason: unknown }) => {
      runs += 1;
      shared = signal;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const first = new Cancellation();
    const second = new AbortController();
    const third = new Cancellation();
    const one = flights.run('key', first, work);
    const two = flights.run('key', second.signal, work);
    const three = flights.run('key', third, work);
    expect(runs).toBe(1);
    first.abort('first left');
    await expect(one).rejects.toBe('first left');
    second.abort('second left');
    await expect(two).rejects.toBe('second left');
    expect(shared!.aborted).toBe(false);
    finish('answer');
    await expect(three).resolves.toBe('answer');

    const alone = new Cancellation();
    const left = flights.run('other', alone, work);
    alone.abort('everyone left');
    await expect(left).rejects.toBe('everyone left');
    expect(shared).toMatchObject({ aborted: true, reason: 'everyone left' });
  });

  it('starts afresh for a caller that comes after every caller left, before the aborted run has ended', async () => {
    const flights = new SingleFlight<string>();
    const runs: Array<{ signal: { aborted: boolean }; finish: (value: string) => void }> = [];
    const work = (signal: { aborted: boolean }) => new Promise<string>((resolve) => runs.push({ signal, finish: resolve }));
    const gone = new Cancellation();
    const abandoned = flights.run('key', gone, work);
    gone.abort('the first caller left');
    await expect(abandoned).rejects.toBe('the first caller left');
    // The aborted run has not ended yet (its upstream calls are still being torn down).
    const next = flights.run('key', new Cancellation(), work);
    expect(runs).toHaveLength(2);
    expect(runs.map((run) => run.signal.aborted)).toEqual([true, false]);
    // The old run ending late leaves the new one in place for further callers.
    runs[0]!.finish('the aborted answer');
    await Promise.resolve();
    const joined = flights.run('key', undefined, work);
    expect(runs).toHaveLength(2);
    runs[1]!.finish('a whole answer');
    await expect(next).resolves.toBe('a whole answer');
    await expect(joined).resolves.toBe('a whole answer');
    expect(flights.size).toBe(0);
  });

  it('lets a caller join only a run whose first caller arrived within joinWithinMs of it', async () => {
    const flights = new SingleFlight<string>();
    const finishes: Array<(value: string) => void> = [];
    const work = () => new Promise<string>((resolve) => finishes.push(resolve));
    const first = flights.run('key', new Cancellation(), work, 1_000, 50);
    const together = flights.run('key', new Cancellation(), work, 1_040, 50);
    expect(finishes).toHaveLength(1);
    // Half a second later: its deadline would come half a second after the shared run's.
    const later = flights.run('key', new Cancellation(), work, 1_500, 50);
    expect(finishes).toHaveLength(2);
    // Callers after it join the newer run, and the older one ending leaves that run in place.
    const withLater = flights.run('key', new Cancellation(), work, 1_520, 50);
    expect(finishes).toHaveLength(2);
    finishes[0]!('first answer');
    await expect(first).resolves.toBe('first answer');
    await expect(together).resolves.toBe('first answer');
    expect(flights.size).toBe(1);
    finishes[1]!('later answer');
    await expect(later).resolves.toBe('later answer');
    await expect(withLater).resolves.toBe('later answer');
    expect(flights.size).toBe(0);
  });
});

