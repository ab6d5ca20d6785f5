import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { rankResults } from '../../src/engine/rank.js';

function listOf(provider: string, items: ProviderItem[], weight = 1): RankedItem[] {
  return items.map((item, index) => ({ provider, rank: index + 1, weight, item }));
}

describe('web merge', () => {
  it('merges the same page found through different URL spellings and keeps every source', () => {
    const entries = [
      ...listOf('brave', [{ title: 'A', url: 'https://www.example.com/a/?utm_source=brave' }, { title: 'B', url: 'https://b.example/' }]),
      ...listOf('tavily', [{ title: 'A (tavily)', url: 'http://example.com/a#top', snippet: 'from tavily' }]),
    ];
    const results = rankResults(groupResults('web', entries));
    expect(results).toHaveLength(2);
    expect(results[0]!.sources).toEqual([
      { provider: 'brave', rank: 1 },
      { provider: 'tavily', rank: 1 },
    ]);
    expect(results[0]!.snippet).toBe('from tavily');
    expect(results[0]!.domain).toBe('example.com');
  });

  it('does not merge web pages whose titles alone are the same', () => {
    const entries = [
      ...listOf('brave', [{ title: 'Installation guide', url: 'https://one.example/install' }]),
      ...listOf('exa', [{ title: 'Installation guide', url: 'https://two.example/install' }]),
    ];
    expect(rankResults(groupResults('web', entries))).toHaveLength(2);
  });
});

describe('paper merge', () => {
  it('merges by DOI, arXiv id and PMID, filling each field from the source that has it', () => {
    const entries = [
      ...listOf('arxiv', [{ title: 'Attention Is All You Need', url: 'https://arxiv.org/abs/1706.03762', arxiv_id: '1706.03762', year: 2017, abstract: 'short' }]),
      ...listOf('semanticscholar', [
        {
          title: 'Attention is All you Need',
          url: 'https://www.semanticscholar.org/paper/x',
          arxiv_id: '1706.03762',
          doi: '10.5555/3295222.3295349',
          citation_count: 100,
          abstract: 'a much longer abstract of the paper',
        },
      ]),
      ...listOf('crossref', [{ title: 'Attention is all you need', url: 'https://doi.org/10.5555/3295222.3295349', doi: '10.5555/3295222.3295349', citation_count: 90, venue: 'NeurIPS' }]),
      ...listOf('pubmed', [{ title: 'Something else entirely', url: 'https://pubmed.ncbi.nlm.nih.gov/1/', pmid: '1' }]),
    ];
    const results = rankResults(groupResults('papers', entries));
    expect(results).toHaveLength(2);
    const merged = results[0]!;
    expect(merged.sources.map((source) => source.provider).sort()).toEqual(['arxiv', 'crossref', 'semanticscholar']);
    expect(merged).toMatchObject({
      arxiv_id: '1706.03762',
      doi: '10.5555/3295222.3295349',
      venue: 'NeurIPS',
      citation_count: 100,
      abstract: 'a much longer abstract of the paper',
    });
  });

  it('treats an arXiv DOI as the arXiv id', () => {
    const entries = [
      ...listOf('arxiv', [{ title: 'Paper one', url: 'https://arxiv.org/abs/2101.00001', arxiv_id: '2101.00001' }]),
      ...listOf('crossref', [{ title: 'A different title for it', url: 'https://doi.org/x', doi: '10.48550/arxiv.2101.00001' }]),
    ];
    expect(rankResults(groupResults('papers', entries))).toHaveLength(1);
  });

  it('merges similar titles with compatible years, and not otherwise', () => {
    const base = 'Deep Residual Learning for Image Recognition';
    const entries = [
      ...listOf('a', [{ title: base, url: 'https://a.example/1', year: 2016 }]),
      ...listOf('b', [{ title: 'Deep residual learning for image recognition.', url: 'https://b.example/1', year: 2015 }]),
      ...listOf('c', [{ title: 'Deep Residual Learning for Image Recognitions', url: 'https://c.example/1', year: 2016 }]),
      ...listOf('d', [{ title: base, url: 'https://d.example/1', year: 2010 }]),
      ...listOf('e', [{ title: 'Deep Residual Learning for Speech Recognition', url: 'https://e.example/1', year: 2016 }]),
    ];
    const results = rankResults(groupResults('papers', entries));
    const groups = results.map((result) => result.sources.map((source) => source.provider).sort().join(''));
    expect(groups.sort()).toEqual(['abc', 'd', 'e']);
  });

  it('keeps every distinct PDF link of a merged paper, the best source\'s first, each file once', () => {
    const doi = '10.1000/open.copy';
    const entries = [
      // Crossref lists it second: Semantic Scholar's rank 1 makes it the best source, and its link pdf_url.
      ...listOf('crossref', [
        { title: 'Another paper', url: 'https://doi.org/10.1000/other' },
        { title: 'Open copies', url: `https://doi.org/${doi}`, doi, pdf_url: 'https://publisher.example/open.copy.pdf' },
      ]),
      ...listOf('semanticscholar', [{ title: 'Open copies', url: 'https://www.semanticscholar.org/paper/x', doi, pdf_url: 'https://repository.example/open.copy.pdf' }]),
      // The publisher's file again, in another spelling: not a third link.
      ...listOf('openalex', [{ title: 'Open copies', url: 'https://openalex.org/W1', doi, pdf_url: 'http://www.publisher.example/open.copy.pdf?utm_source=openalex' }], 0.5),
      ...listOf('pubmed', [{ title: 'Open copies', url: 'https://pubmed.ncbi.nlm.nih.gov/7/', doi }]),
      // Two sources with one link between them: pdf_url alone says it all.
      ...listOf('arxiv', [{ title: 'One link', url: 'https://arxiv.org/abs/2101.00009', doi: '10.1000/one.link', pdf_url: 'https://arxiv.org/pdf/2101.00009' }]),
      ...listOf('core', [{ title: 'One link', url: 'https://core.example/9', doi: '10.1000/one.link' }]),
    ];
    const results = rankResults(groupResults('papers', entries));
    const merged = results.find((result) => result.doi === doi)!;
    expect(merged.sources).toHaveLength(4);
    expect(merged.pdf_url).toBe('https://repository.example/open.copy.pdf');
    expect(merged.pdf_urls).toEqual(['https://repository.example/open.copy.pdf', 'https://publisher.example/open.copy.pdf']);
    const oneLink = results.find((result) => result.doi === '10.1000/one.link')!;
    expect(oneLink.sources).toHaveLength(2);
    expect(oneLink.pdf_url).toBe('https://arxiv.org/pdf/2101.00009');
    expect('pdf_urls' in oneLink).toBe(false);
  });

  it('keeps papers with conflicting DOIs apart even with the same title', () => {
    const entries = [
      ...listOf('a', [{ title: 'Editorial', url: 'https://a.example/1', doi: '10.1000/one' }]),
      ...listOf('b', [{ title: 'Editorial', url: 'https://b.example/1', doi: '10.1000/two' }]),
    ];
    expect(rankResults(groupResults('papers', entries))).toHaveLength(2);
  });
});

describe('weighted reciprocal rank fusion', () => {
  it('scores Σ weight / (k + rank) and orders by it, explaining each contribution', () => {
    const entries = [
      ...listOf('tavily', [{ title: 'T1', url: 'https://t.example/1' }, { title: 'Shared', url: 'https://shared.example/' }], 1.2),
      ...listOf('brave', [{ title: 'Shared', url: 'https://shared.example/' }, { title: 'B2', url: 'https://b.example/2' }], 1),
    ];
    const results = rankResults(groupResults('web', entries), { k: 60, explain: true });
    const shared = results[0]!;
    expect(shared.url).toBe('https://shared.example/');
    expect(shared.score).toBeCloseTo(1.2 / 62 + 1 / 61, 6);
    expect(shared.explain).toEqual([
      { provider: 'tavily', rank: 2, weight: 1.2, contribution: expect.closeTo(1.2 / 62, 6) },
      { provider: 'brave', rank: 1, weight: 1, contribution: expect.closeTo(1 / 61, 6) },
    ]);
    expect(results.map((result) => result.url)).toEqual(['https://shared.example/', 'https://t.example/1', 'https://b.example/2']);
  });

  it('counts a provider that lists the same page twice once, at its best rank', () => {
    const entries = listOf('brave', [
      { title: 'X', url: 'https://x.example/' },
      { title: 'X again', url: 'https://x.example/?utm_campaign=1' },
    ]);
    const [result] = rankResults(groupResults('web', entries), { k: 60 });
    expect(result!.score).toBeCloseTo(1 / 61, 6);
    expect(result!.sources).toEqual([{ provider: 'brave', rank: 1 }]);
  });
});

describe('paper merge on crowded blocks', () => {
  it('merges many copies of one title into one result and keeps a different work in the same block apart', () => {
    const copies = Array.from({ length: 500 }, (_, index) => ({
      provider: `p${index}`,
      rank: 1,
      weight: 1,
      item: { title: 'Deep Residual Learning for Image Recognition', url: `https://copy.example/${index}`, year: 2016 },
    }));
    const other = { provider: 'other', rank: 1, weight: 1, item: { title: 'Deep Residual Learning for Speech', url: 'https://other.example/', year: 2016 } };
    const groups = groupResults('papers', [...copies, other]);
    expect(groups.map((group) => group.length).sort((a, b) => a - b)).toEqual([1, 500]);
  });
});
