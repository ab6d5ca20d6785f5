import { describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/engine/answer-cache.js';

interface Kept {
  list: string;
  depth: number;
  /** As a search's kept list marks a partial answer. */
  partial?: true;
  /** As a search's kept list names itself (a deeper answer extending it says which it extends: cached_at, depth, length). */
  cached_at?: number;
  results?: string[];
}

/** The in-process cache's rules for replacing a kept list by another of the same search (keepExisting, depth, keepAsDeep, extending). */
describe('the in-process answer cache', () => {
  const cache = () => createMemoryCache<Kept>({ ttlMs: 60_000, maxEntries: 10, maxBytes: 100_000 });

  it('keeps a list as deep when the new one is set with keepAsDeep, and takes a deeper one', async () => {
    const kept = cache();
    await kept.set('search', { list: 'complete', depth: 9 }, undefined, { depth: 9 });
    await kept.set('search', { list: 'partial', depth: 9, partial: true }, 15_000, { depth: 9, keepAsDeep: true });
    expect(await kept.get('search')).toEqual({ list: 'complete', depth: 9 });
    await kept.set('search', { list: 'partial, deeper', depth: 12, partial: true }, 15_000, { depth: 12, keepAsDeep: true });
    expect(await kept.get('search')).toEqual({ list: 'partial, deeper', depth: 12, partial: true });
    // Without keepAsDeep (complete), a list as deep replaces a partial one kept; a shallower one never does.
    await kept.set('search', { list: 'again', depth: 12 }, undefined, { depth: 12 });
    await kept.set('search', { list: 'shallower', depth: 4 }, undefined, { depth: 4 });
    expect(await kept.get('search')).toEqual({ list: 'again', depth: 12 });
  });

  it('keeps a complete list in place of one as deep that does not extend it, and gives way to one that does', async () => {
    const kept = cache();
    const pageTwo: Kept = { list: 'page two', depth: 7, cached_at: 2_000, results: ['a', 'b', 'c'] };
    await kept.set('search', pageTwo, undefined, { depth: 7, extending: { cachedAt: 1_000, depth: 4, length: 2 } });
    // Ranked afresh, or extending the list before it (no longer the one kept): page 2's callers would page on from another list.
    await kept.set('search', { list: 'ranked afresh', depth: 7, cached_at: 3_000 }, undefined, { depth: 7 });
    await kept.set('search', { list: 'extends page one', depth: 7, cached_at: 3_000 }, undefined, { depth: 7, extending: { cachedAt: 1_000, depth: 4, length: 2 } });
    // Another list of the same time and depth but another length is not the one kept either.
    await kept.set('search', { list: 'extends another', depth: 7, cached_at: 3_000 }, undefined, { depth: 7, extending: { cachedAt: 2_000, depth: 7, length: 4 } });
    expect(await kept.get('search')).toEqual(pageTwo);
    // One that extends the kept list holds it as it was, and replaces it.
    await kept.set('search', { list: 'extends page two', depth: 7, cached_at: 3_000 }, undefined, { depth: 7, extending: { cachedAt: 2_000, depth: 7, length: 3 } });
    expect(await kept.get('search')).toEqual({ list: 'extends page two', depth: 7, cached_at: 3_000 });
    // Deeper, any answer replaces it (page 3 fetched with page 1, ranked afresh as a caller paging on would have seen it).
    await kept.set('search', { list: 'page three', depth: 10 }, undefined, { depth: 10 });
    expect(await kept.get('search')).toEqual({ list: 'page three', depth: 10 });
  });

  it('serves an entry its reader finds shallow (nothing deeper lies behind it), and none it refuses', async () => {
    const kept = cache();
    await kept.set('search', { list: 'page one', depth: 4 });
    expect(await kept.get('search', () => 'shallow')).toEqual({ list: 'page one', depth: 4 });
    expect(await kept.get('search', () => false)).toBeUndefined();
  });
});
