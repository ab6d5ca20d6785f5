import { describe, expect, it } from 'vitest';
import { concurrencyLimit } from '../../src/engine/concurrency-limit.js';

/** A piece of work that finishes when told to. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('concurrencyLimit', () => {
  it('starts work at once while there is room, without waiting for a turn', () => {
    const limit = concurrencyLimit(2);
    let started = false;
    void limit(async () => {
      started = true;
    });
    expect(started).toBe(true);
  });

  it('never runs more than the limit at once and starts the waiting work in arrival order', async () => {
    const limit = concurrencyLimit(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const runs = gates.map((current, index) =>
      limit(async () => {
        started.push(index);
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await current.opened;
        running -= 1;
        return index;
      }),
    );
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const current of gates) current.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(mostAtOnce).toBe(2);
  });

  it('frees the slot of work that fails, whether it throws at once or rejects later', async () => {
    const limit = concurrencyLimit(1);
    await expect(
      limit(() => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    await expect(limit(() => Promise.reject(new Error('later')))).rejects.toThrow('later');
    expect(await limit(() => 'still runs')).toBe('still runs');
  });
});
