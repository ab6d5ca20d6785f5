import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { titlesAddAWord } from '../../src/engine/added-words.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { normalizeTitle, titlesSimilar } from '../../src/engine/paper-identity.js';
import { rankResults } from '../../src/engine/rank.js';

/**
 * Titles near-identical by their bigrams (Dice ≥ 0.9) where one adds a word of its subject: a false merge drops a
 * paper the caller asked for. One side has a DOI, the other none, as when an index misses it: only the title decides.
 */
const twoWorks: Array<[string, string, string]> = [
  ['Effects of chronic stress on hippocampal neurogenesis in mice', 'Effects of chronic stress on hippocampal neurogenesis in mice and rats', 'a second animal'],
  [
    'Effects of aerobic exercise on depression in community-dwelling older adults with chronic heart failure',
    'Effects of aerobic exercise on anxiety and depression in community-dwelling older adults with chronic heart failure',
    '"X and Y" where the other has Y',
  ],
  [
    'Prevalence of antibiotic resistance in Escherichia coli isolates from poultry farms in Vietnam',
    'Prevalence of antibiotic resistance in Escherichia coli isolates from poultry and swine farms in Vietnam',
    'a second source of the isolates',
  ],
  ['Graph attention networks for molecular property prediction', 'Graph attention networks for molecular property prediction tasks', 'a word at the end'],
  [
    'Deep learning for automated detection of diabetic retinopathy in fundus photographs',
    'Deep learning for automated detection of proliferative diabetic retinopathy in fundus photographs',
    'a word qualifying another',
  ],
  [
    'Machine learning in intensive care medicine: a review of methods',
    'Machine learning in intensive care medicine: a review',
    'a subtitle with a word more, not a subtitle more',
  ],
];

/** Titles as indexes give one work: a small word, a possessive, spaces, a subtitle or an aside more or less. */
const oneWork: Array<[string, string, string]> = [
  ['Deep learning for medical image segmentation in abdominal computed tomography: a review', 'Deep learning for medical image segmentation in abdominal computed tomography', 'a subtitle dropped'],
  [
    'Convolutional neural networks (CNNs) for automated detection of diabetic retinopathy',
    'Convolutional neural networks for automated detection of diabetic retinopathy',
    'an aside in brackets dropped',
  ],
  ['Alpha-synuclein aggregation and neuronal death in models of Parkinson\'s disease', 'Alpha-synuclein aggregation and neuronal death in models of Parkinson disease', 'a possessive'],
  ['The effect of temperature on growth of juvenile Atlantic salmon in aquaculture', 'Effect of temperature on growth of juvenile Atlantic salmon in aquaculture', 'an article'],
  ['Mice & rats as models of chronic neuropathic pain in preclinical research', 'Mice and rats as models of chronic neuropathic pain in preclinical research', 'an ampersand written out'],
  ['A self-supervised pre-training method for speech recognition in noisy rooms', 'Self-supervised pretraining methods for speech recognition in noisy rooms', 'a word written apart, an article, a plural'],
  ['Technical report no. 5: coastal erosion in the northern territories', 'Technical report 5: coastal erosion in the northern territories', 'a numbering word dropped'],
  ['Sex differences in the behaviour of zebrafish larvae under chronic stress', 'Sex differences in behavior of zebrafish larvae under chronic stress.', 'spelling and punctuation'],
];

function entries(first: string, second: string): RankedItem[] {
  const items: ProviderItem[] = [
    { title: first, url: 'https://doi.org/10.1000/first', doi: '10.1000/first', year: 2021 },
    { title: second, url: 'https://papers.example/second', year: 2021 },
  ];
  return items.map((item, index) => ({ provider: index === 0 ? 'crossref' : 'openalex', rank: 1, weight: 1, item }));
}

describe('titles where one adds a word of its subject', () => {
  it.each(twoWorks)('"%s" and "%s" are two papers (%s)', (first, second) => {
    // The premise: by bigrams alone they are one title.
    expect(titlesSimilar(normalizeTitle(first), normalizeTitle(second))).toBe(true);
    const results = rankResults(groupResults('papers', entries(first, second)));
    expect(results.map((result) => result.title).sort()).toEqual([first, second].sort());
  });

  it.each(oneWork)('"%s" and "%s" are one paper (%s)', (first, second) => {
    expect(titlesSimilar(normalizeTitle(first), normalizeTitle(second))).toBe(true);
    const results = rankResults(groupResults('papers', entries(first, second)));
    expect(results).toHaveLength(1);
    expect(results[0]!.sources.map((source) => source.provider).sort()).toEqual(['crossref', 'openalex']);
  });

  it('reads the words where the titles differ, either way round, and an aside only where the title as given sets it apart', () => {
    const read = (a: string, b: string): boolean => titlesAddAWord(normalizeTitle(a), normalizeTitle(b), a, b);
    const short = 'Graph attention networks for molecular property prediction';
    expect(read(short, `${short} tasks`)).toBe(true);
    expect(read(`${short} tasks`, short)).toBe(true);
    expect(read(short, `${short}: tasks`)).toBe(false);
    expect(read(`${short} (tasks)`, short)).toBe(false);
    expect(read(`Tasks - ${short}`, short)).toBe(false);
    expect(read(short, `${short}.`)).toBe(false);
    expect(read(short, `The ${short} of a`)).toBe(false);
    // A word in place of another is replaced-words.ts's to read, not this rule's.
    expect(read(short, 'Graph attention networks for protein property prediction')).toBe(false);
  });
});
