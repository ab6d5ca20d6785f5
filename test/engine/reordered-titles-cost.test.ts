import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';

/**
 * Titles that hold the same words in other orders are alike by their bigrams, so every pair in a block is read by the
 * word rules (opposite-titles.ts, replaced-words.ts, added-words.ts), which look at where two titles differ: there,
 * nearly all of their words. Those rules compared each differing word with each, and a hostile upstream's 500 such
 * titles of 60 words held one search, and every request behind it, for 6 to 11 s.
 */

/** Far above what reading each pair in proportion takes (well under 1 s on a loaded machine), far below the 6 to 11 s it took. */
const IN_PROPORTION_MS = 4000;
const TITLES = 500;

/** Consonants only: no English word, no Roman numeral (i, v, x), no word an index drops (a, an, the, by, …). */
const CONSONANTS = 'bcdfghjklmpqrstwz';

/** A three-letter word of its own for each number: three letters may differ by no edit, so no two are one word. */
function wordOf(number: number): string {
  const letter = (digit: number) => CONSONANTS[digit % CONSONANTS.length]!;
  return letter(number) + letter(Math.floor(number / CONSONANTS.length)) + letter(Math.floor(number / CONSONANTS.length ** 2));
}

/** The sixty middle words every title holds, each a word no title adds (numbers past those wordOf gives the additions). */
const MIDDLE = Array.from({ length: 60 }, (_, index) => wordOf(4000 + index));

/**
 * Title `index`: the same first and last three words (so every title shares both its head and its tail block with
 * every other), the middle words turned round by `index` places, and one or two words of its own after them.
 */
function reorderedTitle(index: number): string {
  const shift = index % MIDDLE.length;
  const own = index % 2 === 0 ? [wordOf(index * 2)] : [wordOf(index * 2), wordOf(index * 2 + 1)];
  return ['graph', 'neural', 'networks', ...MIDDLE.slice(shift), ...MIDDLE.slice(0, shift), ...own, 'for', 'protein', 'folding'].join(' ');
}

function entry(index: number): RankedItem {
  const item: ProviderItem = { title: reorderedTitle(index), url: `https://papers.example/${index}`, year: 2020 };
  return { provider: `provider${index % 5}`, rank: Math.floor(index / 5) + 1, weight: 1, item };
}

describe('papers whose titles hold the same words in other orders', () => {
  it('are merged in proportion to their number, each title with words of its own kept apart', () => {
    const entries = Array.from({ length: TITLES }, (_, index) => entry(index));
    const started = performance.now();
    const groups = groupResults('papers', entries);
    expect(performance.now() - started).toBeLessThan(IN_PROPORTION_MS);
    // Each title adds a word of its subject no other holds, in place of another's or beside it: two works, every pair.
    expect(groups).toHaveLength(TITLES);
  }, 60_000);
});
