import { MAX_DEPTH } from '../../src/domain/query.js';
import type { ProviderItem } from '../../src/domain/result.js';
import { RESULT_BOUNDS } from '../../src/domain/result-bounds.js';
import type { RankedItem } from '../../src/engine/merge.js';

/**
 * Titles a hostile upstream may send, each alike by its bigrams to every other at its length bound, so that paper
 * grouping reads every pair with the word rules: the shapes that held a search for seconds (reordered-titles-cost,
 * hostile-title-words tests).
 */

/** Every paper provider at the deepest page: the most results one search may group. */
export const PAPER_PROVIDERS = 5;
export const MOST_PAPER_RESULTS = PAPER_PROVIDERS * MAX_DEPTH;

/** Consonants only: no English word, no Roman numeral (i, v, x), no word an index drops (a, an, the, by, …). */
const CONSONANTS = 'bcdfghjklmpqrstwz';

/** A three-letter word of its own for each number: three letters may differ by no edit, so no two are one word. */
export function wordOf(number: number): string {
  const letter = (digit: number) => CONSONANTS[digit % CONSONANTS.length]!;
  return letter(number) + letter(Math.floor(number / CONSONANTS.length)) + letter(Math.floor(number / CONSONANTS.length ** 2));
}

function bounded(title: string): string {
  return title.slice(0, RESULT_BOUNDS.title);
}

/** The same seventy words turned round by `index` places between the same first and last words, and a word of its own. */
export function rotatedTitle(index: number): string {
  const middle = Array.from({ length: 70 }, (_, word) => wordOf(4000 + word));
  const shift = index % middle.length;
  return bounded(['gnn', 'for', 'prt', ...middle.slice(shift), ...middle.slice(0, shift), wordOf(index * 2), 'end', 'fin', 'fol'].join(' '));
}

/** The same seventy words turned round by `index` places, and no word of its own: one work by the word rules, read pair by pair. */
export function turnedRoundTitle(index: number): string {
  const middle = Array.from({ length: 70 }, (_, word) => wordOf(4000 + word));
  const shift = index % middle.length;
  return bounded(['gnn', 'for', 'prt', ...middle.slice(shift), ...middle.slice(0, shift), 'end', 'fin', 'fol'].join(' '));
}

/** One run of consonants cut into words of one to three letters, in a place that depends on `index`, and a word of its own. */
export function respacedTitle(index: number): string {
  const letters = Array.from({ length: 240 }, (_, at) => CONSONANTS[(at * 5 + (at >> 3)) % CONSONANTS.length]).join('');
  const words: string[] = [];
  for (let at = 0, step = index; at < letters.length; ) {
    const length = 1 + (step % 3);
    step = Math.floor(step / 3) + index + at;
    words.push(letters.slice(at, at + length));
    at += length;
  }
  return bounded(['gnn', 'prt', 'fol', ...words.slice(0, 40), wordOf(index), ...words.slice(40)].join(' '));
}

/** Sixty words turned round by `index` places between the same first and last words, and one or two words of its own. */
export function reorderedTitle(index: number): string {
  const middle = Array.from({ length: 60 }, (_, word) => wordOf(4000 + word));
  const shift = index % middle.length;
  const own = index % 2 === 0 ? [wordOf(index * 2)] : [wordOf(index * 2), wordOf(index * 2 + 1)];
  return ['graph', 'neural', 'networks', ...middle.slice(shift), ...middle.slice(0, shift), ...own, 'for', 'protein', 'folding'].join(' ');
}

/**
 * Sixty words the same between a word of its own near each end (the one near the end its own in its block), and the
 * first and last words of its block of 32: each
 * pair read in full, yet only four words apart, the shape of real trials that name another drug and respell a word near
 * each end, sent by the thousand.
 */
export function endsApartTitle(index: number): string {
  const block = wordOf(3000 + Math.floor(index / 32));
  const middle = Array.from({ length: 60 }, (_, word) => wordOf(4000 + (word % 40)));
  return bounded([block, 'for', 'prt', wordOf(index), ...middle, wordOf(2600 + (index % 32)), 'end', 'fin', block].join(' '));
}

/** Paper results of these titles, from PAPER_PROVIDERS providers in turn, all of one year. */
export function paperEntries(titles: string[]): RankedItem[] {
  return titles.map((title, index) => {
    const item: ProviderItem = { title, url: `https://papers.example/${index}`, year: 2020 };
    return { provider: `provider${index % PAPER_PROVIDERS}`, rank: Math.floor(index / PAPER_PROVIDERS) + 1, weight: 1, item };
  });
}
