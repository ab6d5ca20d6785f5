import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { rankResults } from '../../src/engine/rank.js';

function entry(provider: string, item: ProviderItem): RankedItem {
  return { provider, rank: 1, weight: 1, item };
}

const PREPRINT: ProviderItem = {
  title: 'Attention is all you need in speech separation with dual-path transformers for monaural mixtures',
  url: 'https://arxiv.org/abs/2010.13154',
  arxiv_id: '2010.13154',
  year: 2021,
};

describe('an erratum, a retraction or a reply is not the paper it names', () => {
  it.each([
    'Erratum: Attention is all you need in speech separation with dual-path transformers for monaural mixtures',
    'Correction to: Attention is all you need in speech separation with dual-path transformers for monaural mixtures',
    'Retraction note: attention is all you need in speech separation with dual-path transformers for monaural mixtures',
    'Comment on "Attention is all you need in speech separation with dual-path transformers for monaural mixtures"',
  ])('keeps "%s" (its own DOI) apart from the preprint it names (an arXiv id only)', (title) => {
    const entries = [entry('arxiv', PREPRINT), entry('crossref', { title, url: 'https://doi.org/10.1000/notice', doi: '10.1000/notice', year: 2021 })];
    const results = rankResults(groupResults('papers', entries));
    // Merged, the preprint would carry the notice's DOI.
    expect(results).toHaveLength(2);
    expect(results.find((result) => result.arxiv_id === '2010.13154')?.doi).toBeUndefined();
  });

  it('still merges two sources of one erratum, and the preprint with its journal version', () => {
    const entries = [
      entry('crossref', { title: 'Erratum: Attention is all you need in speech separation with dual-path transformers for monaural mixtures', url: 'https://doi.org/10.1000/e', doi: '10.1000/e', year: 2021 }),
      entry('openalex', { title: 'Erratum - attention is all you need in speech separation with dual-path transformers for monaural mixtures.', url: 'https://openalex.org/W1', year: 2021 }),
      entry('arxiv', PREPRINT),
      entry('crossref', { title: 'Attention Is All You Need In Speech Separation With Dual-Path Transformers For Monaural Mixtures', url: 'https://doi.org/10.1000/j', doi: '10.1000/j', year: 2021 }),
    ];
    expect(groupResults('papers', entries).map((group) => group.length)).toEqual([2, 2]);
  });
});
