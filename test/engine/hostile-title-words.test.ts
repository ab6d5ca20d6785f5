import { describe, expect, it } from 'vitest';
import { RESULT_BOUNDS } from '../../src/domain/result-bounds.js';
import { groupResults } from '../../src/engine/merge.js';
import { MOST_PAPER_RESULTS as TITLES, paperEntries as entries, respacedTitle, rotatedTitle } from '../support/hostile-titles.js';

/**
 * Titles alike by their bigrams are read by the word rules (opposite-titles.ts, replaced-words.ts, added-words.ts),
 * whose cost grows with the titles' words. A hostile upstream's titles at their length bound, each alike to every
 * other, from every paper provider at the deepest page: the same words in other orders held a search for 3 s, the same
 * letters with their spaces elsewhere for 10 s, and every request behind it.
 */

/** Far above what the capped reading takes (about 1.5 s for both shapes on a loaded machine), far below the 13 s it took. */
const CAPPED_MS = 5000;

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
