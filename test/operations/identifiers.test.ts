import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { doiUrl } from '../../src/domain/paper-identifiers.js';
import { CrossrefProvider } from '../../src/providers/crossref.js';
import { makeProvider } from '../support/run-provider.js';
import { parsePaperIdentifier } from '../../src/operations/paper-identifier.js';
import { parseVideoId } from '../../src/operations/video-operations.js';

describe('parsePaperIdentifier', () => {
  it.each([
    ['10.1038/NATURE14539', { type: 'doi', value: '10.1038/nature14539' }],
    ['doi:10.1038/nature14539', { type: 'doi', value: '10.1038/nature14539' }],
    ['https://doi.org/10.1038/nature14539', { type: 'doi', value: '10.1038/nature14539' }],
    ['10.48550/arXiv.1706.03762', { type: 'arxiv', value: '1706.03762' }],
    ['1706.03762v5', { type: 'arxiv', value: '1706.03762' }],
    ['arXiv:1706.03762', { type: 'arxiv', value: '1706.03762' }],
    ['https://arxiv.org/abs/1706.03762v2', { type: 'arxiv', value: '1706.03762' }],
    ['https://arxiv.org/pdf/1706.03762.pdf', { type: 'arxiv', value: '1706.03762' }],
    ['hep-th/9901001', { type: 'arxiv', value: 'hep-th/9901001' }],
    ['29915538', { type: 'pmid', value: '29915538' }],
    ['PMID: 29915538', { type: 'pmid', value: '29915538' }],
    ['https://pubmed.ncbi.nlm.nih.gov/29915538/', { type: 'pmid', value: '29915538' }],
    ['PMC6400001', { type: 'pmcid', value: 'PMC6400001' }],
    ['PMCID: PMC6400001', { type: 'pmcid', value: 'PMC6400001' }],
    ['https://www.ncbi.nlm.nih.gov/pmc/articles/PMC6400001/', { type: 'pmcid', value: 'PMC6400001' }],
    ['https://pmc.ncbi.nlm.nih.gov/articles/PMC6400001/', { type: 'pmcid', value: 'PMC6400001' }],
    ['204e3073870fae3d05bcbc2f6a8e263d9b72e776', { type: 's2', value: '204e3073870fae3d05bcbc2f6a8e263d9b72e776' }],
    ['https://www.semanticscholar.org/paper/Attention-is-All-you-Need/204e3073870fae3d05bcbc2f6a8e263d9b72e776', { type: 's2', value: '204e3073870fae3d05bcbc2f6a8e263d9b72e776' }],
    ['CorpusId:13756489', { type: 's2', value: 'CorpusId:13756489' }],
  ])('%s is %j', (input, expected) => {
    expect(parsePaperIdentifier(input)).toEqual(expected);
  });

  it('reads a doi.org link percent-decoded: the DOI it names, not its escapes', () => {
    const sici = '10.1002/(sici)1097-4636(199905)45:2<111::aid-jbm5>3.0.co;2-#';
    const link = 'https://doi.org/10.1002/(SICI)1097-4636(199905)45:2%3C111::AID-JBM5%3E3.0.CO;2-%23';
    expect(parsePaperIdentifier(link)).toEqual({ type: 'doi', value: sici });
    // The links results carry (doiUrl) lead back to their DOI.
    expect(parsePaperIdentifier(doiUrl(sici))).toEqual({ type: 'doi', value: sici });
    expect(parsePaperIdentifier('https://doi.org/10.1046%2Fj.1365-2699.2003.00795')).toEqual({ type: 'doi', value: '10.1046/j.1365-2699.2003.00795' });
    // What the provider is asked for is the DOI once encoded, never its escapes encoded again.
    const crossref = makeProvider(CrossrefProvider);
    const lookup = crossref.buildLookupRequest(parsePaperIdentifier(link))!;
    expect(new URL(lookup.url).pathname).toBe('/works/10.1002/(sici)1097-4636(199905)45%3A2%3C111%3A%3Aaid-jbm5%3E3.0.co%3B2-%23');
  });

  it('keeps a bare DOI as written: a percent sign in one is its own', () => {
    expect(parsePaperIdentifier('10.5555/100%25')).toEqual({ type: 'doi', value: '10.5555/100%25' });
  });

  it('names what it accepts when the input is not an identifier', () => {
    expect(() => parsePaperIdentifier('attention is all you need')).toThrow(FedsearchError);
    expect(() => parsePaperIdentifier('attention')).toThrow(/use a DOI .*arXiv id .*PMID .*PMCID \(PMC1234567\) .*Semantic Scholar id/);
  });
});

describe('parseVideoId', () => {
  it.each([
    ['dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
  ])('%s is %s', (input, expected) => {
    expect(parseVideoId(input)).toBe(expected);
  });

  it.each(['https://vimeo.com/123', 'too-short', 'https://www.youtube.com/watch?v=bad'])('refuses %s', (input) => {
    expect(() => parseVideoId(input)).toThrow(/not a YouTube video id/);
  });
});
