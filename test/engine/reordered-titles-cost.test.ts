import { describe, expect, it } from 'vitest';
import { groupResults } from '../../src/engine/merge.js';
import { paperEntries, reorderedTitle } from '../support/hostile-titles.js';

/**
 * Titles that hold the same words in other orders are alike by their bigrams, so every pair in a block is read by the
 * word rules (opposite-titles.ts, replaced-words.ts, added-words.ts), which look at where two titles differ: there,
 * nearly all of their words. Those rules compared each differing word with each, and a hostile upstream's 500 such
 * titles of 60 words held one search, and every request behind it, for 6 to 11 s.
 */

/** Far above what reading each pair in proportion takes (well under 1 s on a loaded machine), far below the 6 to 11 s it took. */
const IN_PROPORTION_MS = 4000;
const TITLES = 500;

describe('papers whose titles hold the same words in other orders', () => {
  it('are merged in proportion to their number, each title with words of its own kept apart', () => {
    const entries = paperEntries(Array.from({ length: TITLES }, (_, index) => reorderedTitle(index)));
    const started = performance.now();
    const groups = groupResults('papers', entries);
    expect(performance.now() - started).toBeLessThan(IN_PROPORTION_MS);
    // Each title adds a word of its subject no other holds, in place of another's or beside it: two works, every pair.
    expect(groups).toHaveLength(TITLES);
  }, 60_000);
});
