import { describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/engine/answer-cache.js';

interface Kept {
  list: string;
  depth: number;
}

/** The in-process cache's rules for replacing a kept list by another of the same search (keepExisting, depth, keepAsDeep). */
describe('the in-process answer cache', () => {
  const cache = () => createMemoryCache<Kept>({ ttlMs: 60_000, maxEntries: 10, maxBytes: 100_000 });

  it('keeps a list as deep when the new one is set with keepAsDeep, and takes a deeper one', async () => {
    const kept = cache();
    await kept.set('search', { list: 'complete', depth: 9 }, undefined, { depth: 9 });
    await kept.set('search', { list: 'partial', depth: 9 }, 15_000, { depth: 9, keepAsDeep: true });
    expect(await kept.get('search')).toEqual({ list: 'complete', depth: 9 });
    await kept.set('search', { list: 'partial, deeper', depth: 12 }, 15_000, { depth: 12, keepAsDeep: true });
    expect(await kept.get('search')).toEqual({ list: 'partial, deeper', depth: 12 });
    // Without keepAsDeep, a list as deep replaces the one kept; a shallower one never does.
    await kept.set('search', { list: 'again', depth: 12 }, undefined, { depth: 12 });
    await kept.set('search', { list: 'shallower', depth: 4 }, undefined, { depth: 4 });
    expect(await kept.get('search')).toEqual({ list: 'again', depth: 12 });
  });

  it('serves an entry its reader finds shallow (nothing deeper lies behind it), and none it refuses', async () => {
    const kept = cache();
    await kept.set('search', { list: 'page one', depth: 4 });
    expect(await kept.get('search', () => 'shallow')).toEqual({ list: 'page one', depth: 4 });
    expect(await kept.get('search', () => false)).toBeUndefined();
  });
});
