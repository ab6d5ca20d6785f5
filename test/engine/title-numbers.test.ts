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
