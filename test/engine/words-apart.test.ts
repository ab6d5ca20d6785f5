import { describe, expect, it } from 'vitest';
import { differingWords } from '../../src/engine/title-differences.js';
import { wordsApart } from '../../src/engine/word-reading-budget.js';

/** Words apart (word-reading-budget.ts) of two titles, already normalised, over the words where they differ. */
function apart(a: string, b: string): number {
  const { differingA, differingB } = differingWords(a.split(' '), b.split(' '));
  return wordsApart(differingA, differingB);
}

describe('words apart, what the title word rules count of a pair', () => {
  const trial = 'efficacy and safety of sitagliptin added to metformin in patients with type 2 diabetes inadequately controlled on metformin alone a randomized double blind placebo controlled multicentre phase 3 trial';

  it('counts the words changed, not every word between the first change and the last', () => {
    const other = trial.replace('sitagliptin', 'saxagliptin').replace('randomized', 'randomised').replace('multicentre', 'multicenter');
    const { differingA, differingB } = differingWords(trial.split(' '), other.split(' '));
    // Twenty-two words of each title run from the drug to "multicentre"; three of them changed, in both titles.
    expect(differingA.length + differingB.length).toBe(44);
    expect(apart(trial, other)).toBe(6);
  });

  it('counts a word added once, and words added after a word changed from whichever end lines them up', () => {
    expect(apart('effects of stress in mice', 'effects of chronic stress in mice')).toBe(1);
    // Laid side by side from the start, "randomized" and "randomised" are the only pair apart (one word in each title),
    // and two words are added; from the end, every word would be apart.
    expect(apart('a randomized double blind trial of drug x', 'a randomised double blind trial of drug x in adults')).toBe(4);
  });

  it('counts every word of the same words in another order', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
    const turned = [...words.slice(1), words[0]!];
    expect(apart(['graph', ...words, 'end'].join(' '), ['graph', ...turned, 'end'].join(' '))).toBe(12);
  });
});
