import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';

function entry(provider: string, item: ProviderItem): RankedItem {
  return { provider, rank: 1, weight: 1, item };
}

/** The sources of each merged result for two titles: the first with a DOI, the second without, as when an index misses it. */
function mergedSources(title: string, otherTitle: string): string[][] {
  const entries = [
    entry('crossref', { title, url: 'https://doi.org/10.1000/one', doi: '10.1000/one', year: 2019 }),
    entry('openalex', { title: otherTitle, url: 'https://openalex.org/W2', year: 2019 }),
  ];
  return groupResults('papers', entries).map((group) => group.map((member) => member.provider));
}

describe('titles that sign a word oppositely are two works', () => {
  // Normalised, each pair is one title: the signs were punctuation.
  it.each([
    ['Neoadjuvant endocrine therapy in ER+ breast cancer: a population-based cohort study', 'Neoadjuvant endocrine therapy in ER− breast cancer: a population-based cohort study'],
    ['The role of CD4+ T cells in the control of chronic viral infection', 'The role of CD4- T cells in the control of chronic viral infection'],
    ['Suppressive function of CD4+CD25+ T cells in patients with rheumatoid arthritis', 'Suppressive function of CD4+CD25− T cells in patients with rheumatoid arthritis'],
    ['Measurement of the W+ boson production cross section in pp collisions at 13 TeV', 'Measurement of the W− boson production cross section in pp collisions at 13 TeV'],
  ])('keeps "%s" and "%s" apart', (title, otherTitle) => {
    expect(mergedSources(title, otherTitle)).toEqual([['crossref'], ['openalex']]);
  });
});

describe('titles whose signs do not turn a word are one work', () => {
  it.each([
    ['The role of CD4+ T cells in the control of chronic viral infection', 'The role of CD4+ T-cells in the control of chronic viral infection.'],
    // An index that leaves a sign out says nothing of it.
    ['The role of CD4+ T cells in the control of chronic viral infection', 'The role of CD4 T cells in the control of chronic viral infection'],
    // A word signed both ways in both titles, a minus written two ways.
    ['Measurement of W+ and W− boson production cross sections in pp collisions', 'Measurement of W+ and W- boson production cross sections in pp collisions'],
    // Hyphens, not signs: a letter follows them, or a space after a suspended hyphen.
    ['Survival in HER2-positive and HER2-negative breast cancer after trastuzumab', 'Survival in HER2 positive and HER2 negative breast cancer after trastuzumab'],
    ['Gene expression in well- and poorly-differentiated tumours of the C++ era', 'Gene expression in well and poorly differentiated tumours of the C++ era'],
  ])('merges "%s" and "%s"', (title, otherTitle) => {
    expect(mergedSources(title, otherTitle)).toEqual([['crossref', 'openalex']]);
  });
});
