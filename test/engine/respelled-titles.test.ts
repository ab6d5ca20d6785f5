import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { normalizeTitle, titlesSimilar } from '../../src/engine/paper-identity.js';

/**
 * Titles spelled otherwise at both ends (British and American spelling, "ae" and "e", another ending): their first
 * three and last three words differ, so they share no block unless the head block reads words as their spellings
 * share them. Each pair is one work given by two indexes; between them, works that only look alike.
 */
const respelled: Array<[string, string]> = [
  ['Optimisation of randomised controlled trial design in paediatric oncology', 'Optimization of randomized controlled trial design in pediatric oncology'],
  ['Haematological toxicity of standardised chemotherapy regimens in children with anaemia', 'Hematological toxicity of standardized chemotherapy regimens in children with anemia'],
  ['Oesophageal cancer behaviour in patients with centre-based tumour surveillance', 'Esophageal cancer behavior in patients with center-based tumor surveillance'],
];

function paperEntries(titles: string[]): RankedItem[] {
  return titles.map((title, index): RankedItem => {
    const item: ProviderItem = { title, url: `https://papers.example/${index}`, year: 2022 };
    return { provider: `p${index % 2}`, rank: index + 1, weight: 1, item };
  });
}

describe('titles spelled otherwise at both ends', () => {
  it.each(respelled)('"%s" and "%s" are one paper', (british, american) => {
    // The premise: alike by their bigrams, yet with no first or last three words in common.
    const [a, b] = [normalizeTitle(british), normalizeTitle(american)];
    expect(titlesSimilar(a, b)).toBe(true);
    expect(a.split(' ').slice(0, 3)).not.toEqual(b.split(' ').slice(0, 3));
    expect(a.split(' ').slice(-3)).not.toEqual(b.split(' ').slice(-3));
    const groups = groupResults('papers', paperEntries([british, american]));
    expect(groups.map((group) => group.map((member) => member.item.title))).toEqual([[british, american]]);
  });

  it('still keeps apart works whose heads are spelled alike but whose titles are not similar', () => {
    const titles = [
      'Optimisation of randomised controlled trial design in paediatric oncology',
      'Optimization of randomization procedures for adaptive platform trials in adult cardiology',
      'Optimal random sampling designs for spatial surveys of soil carbon',
    ];
    expect(groupResults('papers', paperEntries(titles)).map((group) => group.length)).toEqual([1, 1, 1]);
  });
});
