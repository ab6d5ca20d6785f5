import { describe, expect, it } from 'vitest';
import { MAX_DEPTH } from '../../src/domain/query.js';
import type { ProviderItem } from '../../src/domain/result.js';
import { RESULT_BOUNDS } from '../../src/domain/result-bounds.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';

/**
 * Titles alike by their bigrams are read by the word rules (opposite-titles.ts, replaced-words.ts, added-words.ts),
 * whose cost grows with the titles' words. A hostile upstream's titles at their length bound, each alike to every
 * other, from every paper provider at the deepest page: the same words in other orders held a search for 3 s, the same
 * letters with their spaces elsewhere for 10 s, and every request behind it.
 */

/** The most results one search may group: every paper provider at the deepest page. */
const PAPER_PROVIDERS = 5;
const TITLES = PAPER_PROVIDERS * MAX_DEPTH;
/** Far above what the capped reading takes (about 1.5 s for both shapes on a loaded machine), far below the 13 s it took. */
const CAPPED_MS = 5000;

/** Consonants only: no English word, no Roman numeral (i, v, x), no word an index drops (a, an, the, by, …). */
const CONSONANTS = 'bcdfghjklmpqrstwz';

/** A three-letter word of its own for each number: three letters may differ by no edit, so no two are one word. */
function wordOf(number: number): string {
  const letter = (digit: number) => CONSONANTS[digit % CONSONANTS.length]!;
  return letter(number) + letter(Math.floor(number / CONSONANTS.length)) + letter(Math.floor(number / CONSONANTS.length ** 2));
}

function bounded(title: string): string {
  return title.slice(0, RESULT_BOUNDS.title);
}

/** The same seventy words turned round by `index` places between the same first and last words, and a word of its own. */
function rotatedTitle(index: number): string {
  const middle = Array.from({ length: 70 }, (_, word) => wordOf(4000 + word));
  const shift = index % middle.length;
  return bounded(['gnn', 'for', 'prt', ...middle.slice(shift), ...middle.slice(0, shift), wordOf(index * 2), 'end', 'fin', 'fol'].join(' '));
}

/** One run of consonants cut into words of one to three letters, in a place that depends on `index`, and a word of its own. */
function respacedTitle(index: number): string {
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

function entries(titles: string[]): RankedItem[] {
  return titles.map((title, index) => {
    const item: ProviderItem = { title, url: `https://papers.example/${index}`, year: 2020 };
    return { provider: `provider${index % PAPER_PROVIDERS}`, rank: Math.floor(index / PAPER_PROVIDERS) + 1, weight: 1, item };
  });
}

function groupCount(...titles: string[]): number {
  return groupResults('papers', entries(titles)).length;
}

describe('a hostile provider’s titles, each alike to every other by its bigrams', () => {
  it('are grouped in a bounded time, at the most results a search may bring, each with a word of its own kept apart', () => {
    const rotated = entries(Array.from({ length: TITLES }, (_, index) => rotatedTitle(index)));
    const respaced = entries(Array.from({ length: TITLES }, (_, index) => respacedTitle(index)));
    expect(rotated[0]!.item.title.length).toBeGreaterThan(RESULT_BOUNDS.title - 10);
    const started = performance.now();
    const rotatedGroups = groupResults('papers', rotated);
    groupResults('papers', respaced);
    expect(performance.now() - started).toBeLessThan(CAPPED_MS);
    // Each adds a word of its subject no other holds, in place of another's or beside it: two works, every pair.
    expect(rotatedGroups).toHaveLength(TITLES);
  }, 60_000);
});

describe('the word rules, each title read once per search', () => {
  it('takes words moved between the same words before and after them for one work', () => {
    // "inflow" opens and closes both titles and is moved in the middle: a word found among the differing ones of the other.
    expect(groupCount('Inflow models of inflow and outflow in porous media inflow', 'Inflow models of outflow and inflow in porous media inflow')).toBe(1);
  });

  it('joins words written apart in one title and together in the other, and still sees a word added', () => {
    const apart = 'Self supervised pre training of speech recognition models for noisy rooms';
    expect(groupCount(apart, 'Selfsupervised pretraining of speech recognition model for noisy rooms')).toBe(1);
    expect(groupCount(apart, 'Selfsupervised pretraining of speech recognition models for noisy rooms and halls')).toBe(2);
  });

  it('reads a negation written joined and a contraction as the other title writes them', () => {
    expect(groupCount('Non linear control of legged robots does not need a model', "Nonlinear control of legged robot doesn't need a model")).toBe(1);
  });

  it('takes plurals for the same word, and a word more for another work', () => {
    const therapy = 'Adeno-associated viral gene therapy for inherited retinal degeneration in mice';
    expect(groupCount(therapy, 'Adeno-associated viral gene therapies for inherited retinal degeneration in mouse and rats')).toBe(2);
    expect(groupCount(therapy, 'Adeno associated viral gene therapies for inherited retinal degeneration in mouse')).toBe(1);
  });

  it('still joins a title with its respelling after a few alike works of their own', () => {
    const animals = ['rats', 'dogs', 'pigs'];
    const titles = animals.map((animal) => `Effects of chronic stress on hippocampal neurogenesis in adult ${animal}`);
    // The respelling of the last of them, read after the word rules have read the two before it.
    const groups = groupResults('papers', entries([...titles, 'Effects of chronic stress on hippocampal neurogenesis in adult pig']));
    expect(groups.map((group) => group.length)).toEqual([1, 1, 2]);
  });
});
