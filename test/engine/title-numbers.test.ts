import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';

function entry(provider: string, item: ProviderItem): RankedItem {
  return { provider, rank: 1, weight: 1, item };
}

function groupedTitles(entries: RankedItem[]): string[][] {
  return groupResults('papers', entries).map((group) => group.map((member) => `${member.provider}: ${member.item.title}`));
}

describe('a title match never joins works whose titles hold other numbers', () => {
  it('keeps the parts of a series, the editions of a study and the years of a proceedings apart', () => {
    const entries = [
      // PubMed knows part I by PMID and DOI, arXiv part II by its arXiv id: no identifier kind in common.
      entry('pubmed', { title: 'Quantum field theory in curved spacetime: Part I', url: 'https://pubmed.ncbi.nlm.nih.gov/111/', pmid: '111', doi: '10.1000/qft.1', year: 2020 }),
      entry('arxiv', { title: 'Quantum field theory in curved spacetime: Part II', url: 'https://arxiv.org/abs/2001.00002', arxiv_id: '2001.00002', year: 2020 }),
      entry('crossref', { title: 'Proceedings of the 2019 Conference on Empirical Methods in Natural Language Processing', url: 'https://aclanthology.org/D19-1', year: 2019 }),
      entry('openalex', { title: 'Proceedings of the 2018 Conference on Empirical Methods in Natural Language Processing', url: 'https://aclanthology.org/D18-1', year: 2018 }),
      entry('semanticscholar', { title: 'COVID-19 vaccine effectiveness against the Omicron BA.4 and BA.5 variants', url: 'https://s2.example/a', year: 2022 }),
      entry('openalex', { title: 'COVID-19 vaccine effectiveness against the Omicron BA.2 and BA.3 variants', url: 'https://openalex.example/b', year: 2022 }),
    ];
    expect(groupedTitles(entries)).toHaveLength(entries.length);
  });

  it('still merges a preprint and its journal version whose titles hold the same numbers', () => {
    const entries = [
      entry('arxiv', { title: 'COVID-19 vaccine effectiveness against the Omicron BA.4 and BA.5 variants', url: 'https://arxiv.org/abs/2201.00001', arxiv_id: '2201.00001', year: 2022 }),
      entry('crossref', { title: 'COVID-19 Vaccine Effectiveness against the Omicron (BA.4 and BA.5) Variants.', url: 'https://doi.org/10.1000/x', doi: '10.1000/x', year: 2023 }),
      entry('pubmed', { title: 'Quantum field theory in curved spacetime, part I', url: 'https://pubmed.ncbi.nlm.nih.gov/111/', pmid: '111', year: 2020 }),
      entry('arxiv', { title: 'Quantum Field Theory in Curved Spacetime: Part I', url: 'https://arxiv.org/abs/2001.00001', arxiv_id: '2001.00001', year: 2020 }),
    ];
    expect(groupedTitles(entries)).toHaveLength(2);
  });
});

describe('a number in a title counts however it is written', () => {
  /** Two sources of one kind of record and no identifier, a year apart at most: only their titles can tell. */
  const pairGroups = (titleA: string, titleB: string): number =>
    groupResults('papers', [
      entry('semanticscholar', { title: titleA, url: 'https://s2.example/a', year: 2021 }),
      entry('openalex', { title: titleB, url: 'https://openalex.example/b', year: 2021 }),
    ]).length;

  it.each([
    ['Proceedings of the 2nd Workshop on Gender Bias in Natural Language Processing', 'Proceedings of the 3rd Workshop on Gender Bias in Natural Language Processing', 'ordinals in digits'],
    ['Proceedings of the Second Workshop on Gender Bias in Natural Language Processing', 'Proceedings of the Third Workshop on Gender Bias in Natural Language Processing', 'ordinals in words'],
    ['Deep learning for protein structure prediction: a review, part one', 'Deep learning for protein structure prediction: a review, part two', 'cardinals in words'],
    ['YOLOv2: better, faster and stronger real-time object detection', 'YOLOv3: better, faster and stronger real-time object detection', 'a version joined to a name'],
    ['MobileNet v2: inverted residuals and linear bottlenecks for mobile vision', 'MobileNet v3: inverted residuals and linear bottlenecks for mobile vision', 'a version written v2'],
    ['Vitamin D3 supplementation in older adults with osteoporosis', 'Vitamin D2 supplementation in older adults with osteoporosis', 'a number joined to a letter'],
    ['Findings of the WMT19 Shared Task on Machine Translation Robustness', 'Findings of the WMT20 Shared Task on Machine Translation Robustness', 'a year joined to a name'],
  ])('keeps %s and %s apart: %s', (titleA, titleB) => {
    expect(pairGroups(titleA, titleB)).toBe(2);
  });

  it.each([
    ['SARS-CoV-2 infection in children: a systematic review', 'SARS-CoV2 infection in children: a systematic review', 'a number with and without its hyphen'],
    ['Reduction of CO<sub>2</sub> emissions in integrated steel plants', 'Reduction of CO2 emissions in integrated steel plants', 'a subscript tag'],
    ['Proceedings of the Second Workshop on Gender Bias in Natural Language Processing', 'Proceedings of the 2nd Workshop on Gender Bias in Natural Language Processing', 'an ordinal in words and in digits'],
    ['Quantum field theory in curved spacetime: Part I', 'Quantum field theory in curved spacetime: Part 1', 'a roman numeral and its digits'],
    ['Type II diabetes and cardiovascular outcomes in older women', 'Type 2 diabetes and cardiovascular outcomes in older women', 'a roman numeral and its digits, mid-title'],
  ])('merges %s and %s: %s', (titleA, titleB) => {
    expect(pairGroups(titleA, titleB)).toBe(1);
  });

  it('reads only well-formed roman numerals as numbers: a run of i, v and x Romans never wrote matches only itself', () => {
    expect(pairGroups('Quantum field theory in curved spacetime: Part IIII', 'Quantum field theory in curved spacetime: Part 4')).toBe(2);
    expect(pairGroups('Quantum field theory in curved spacetime: Part IV', 'Quantum field theory in curved spacetime: Part 4')).toBe(1);
  });
});
