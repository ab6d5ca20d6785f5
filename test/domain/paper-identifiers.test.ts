import { describe, expect, it } from 'vitest';
import {
  arxivIdFromDoi,
  findArxivIds,
  findDois,
  normalizeArxivId,
  normalizeDoi,
  normalizePmcid,
  normalizePmid,
  normalizeSemanticScholarId,
  readPaperIdentifier,
} from '../../src/domain/paper-identifiers.js';

describe('paper identifiers', () => {
  it('normalises a DOI from a resolver link or a doi: prefix to lower case', () => {
    expect(normalizeDoi('https://doi.org/10.1371/JOURNAL.PONE.0033693')).toBe('10.1371/journal.pone.0033693');
    expect(normalizeDoi('http://dx.doi.org/10.1000/xyz')).toBe('10.1000/xyz');
    expect(normalizeDoi('doi:10.1000/xyz')).toBe('10.1000/xyz');
    expect(normalizeDoi('not a doi')).toBeUndefined();
    expect(normalizeDoi('10.12/too-short-registrant')).toBeUndefined();
    expect(normalizeDoi(42)).toBeUndefined();
  });

  it('normalises an arXiv id without its version, link or prefix, new and old style', () => {
    expect(normalizeArxivId('http://arxiv.org/abs/1605.08386v1')).toBe('1605.08386');
    expect(normalizeArxivId('https://arxiv.org/pdf/1706.03762.pdf')).toBe('1706.03762');
    expect(normalizeArxivId('arXiv:hep-th/9901001v2')).toBe('hep-th/9901001');
    expect(normalizeArxivId('math.AG/0601001')).toBe('math/0601001');
    expect(normalizeArxivId('1605.083')).toBeUndefined();
  });

  it('reads the arXiv id behind an arXiv DOI, and nothing behind another DOI', () => {
    expect(arxivIdFromDoi('10.48550/arXiv.1706.03762')).toBe('1706.03762');
    expect(arxivIdFromDoi('10.48550/arxiv.2401.00007')).toBe('2401.00007');
    expect(arxivIdFromDoi('10.1038/nature14539')).toBeUndefined();
    expect(arxivIdFromDoi(undefined)).toBeUndefined();
  });

  it('reads a PMID from digits, a PMID: prefix or a PubMed link', () => {
    expect(normalizePmid(29915538)).toBe('29915538');
    expect(normalizePmid('PMID: 29915538')).toBe('29915538');
    expect(normalizePmid('https://pubmed.ncbi.nlm.nih.gov/29915538')).toBe('29915538');
    expect(normalizePmid('https://www.ncbi.nlm.nih.gov/pubmed/29915538/')).toBe('29915538');
    expect(normalizePmid('PMC123')).toBeUndefined();
    expect(normalizePmid('1234567890')).toBeUndefined();
  });

  it('reads a Semantic Scholar id: 40 hex digits (bare or linked) or CorpusId', () => {
    const paperId = '204e3073870fae3d05bcbc2f6a8e263d9b72e776';
    expect(normalizeSemanticScholarId(paperId.toUpperCase())).toBe(paperId);
    expect(normalizeSemanticScholarId(`https://www.semanticscholar.org/paper/Attention/${paperId}`)).toBe(paperId);
    expect(normalizeSemanticScholarId('corpusid: 13756489')).toBe('CorpusId:13756489');
    expect(normalizeSemanticScholarId('13756489')).toBeUndefined();
  });

  it('finds DOIs and new-style arXiv ids in running text, without the punctuation that ends a sentence', () => {
    const text = 'See 10.1038/NATURE14539, then arXiv:1706.03762v5 (and 10.1000/xyz).';
    expect(findDois(text)).toEqual(['10.1038/nature14539', '10.1000/xyz']);
    expect(findArxivIds(text)).toEqual(['1706.03762v5']);
    expect(findDois('no identifiers here')).toEqual([]);
  });

  it('normalises a PMCID to PMC and its digits from the ways it is written, bare, labelled and linked', () => {
    expect(normalizePmcid('PMC1234567')).toBe('PMC1234567');
    expect(normalizePmcid(' pmc1234567 ')).toBe('PMC1234567');
    expect(normalizePmcid('PMCID: PMC1234567')).toBe('PMC1234567');
    expect(normalizePmcid('PMCID:PMC1234567')).toBe('PMC1234567');
    expect(normalizePmcid('PMCID: 1234567')).toBe('PMC1234567');
    expect(normalizePmcid('https://www.ncbi.nlm.nih.gov/pmc/articles/PMC1234567/')).toBe('PMC1234567');
    expect(normalizePmcid('http://ncbi.nlm.nih.gov/pmc/articles/PMC1234567')).toBe('PMC1234567');
    expect(normalizePmcid('https://pmc.ncbi.nlm.nih.gov/articles/PMC1234567/')).toBe('PMC1234567');
    expect(normalizePmcid('https://pmc.ncbi.nlm.nih.gov/articles/PMC1234567/pdf/main.pdf')).toBe('PMC1234567');
    // Bare digits are a PMID; a PMC link elsewhere or a longer word is no PMCID.
    expect(normalizePmcid('1234567')).toBeUndefined();
    expect(normalizePmcid('PMC')).toBeUndefined();
    expect(normalizePmcid('PMC1234567x')).toBeUndefined();
    expect(normalizePmcid('https://pmc.ncbi.nlm.nih.gov/articles/PMC1234567x/')).toBeUndefined();
    expect(normalizePmcid('https://example.org/pmc/articles/PMC1234567/')).toBeUndefined();
    expect(normalizePmcid(1234567)).toBeUndefined();
  });

  it('reads what a caller calls a paper, an arXiv DOI as its arXiv id', () => {
    expect(readPaperIdentifier(' 10.48550/arXiv.1706.03762 ')).toEqual({ type: 'arxiv', value: '1706.03762' });
    expect(readPaperIdentifier('doi:10.1038/nature14539')).toEqual({ type: 'doi', value: '10.1038/nature14539' });
    expect(readPaperIdentifier('PMID:29915538')).toEqual({ type: 'pmid', value: '29915538' });
    expect(readPaperIdentifier('CorpusId:13756489')).toEqual({ type: 's2', value: 'CorpusId:13756489' });
    expect(readPaperIdentifier('PMCID: PMC1234567')).toEqual({ type: 'pmcid', value: 'PMC1234567' });
    expect(readPaperIdentifier('https://pmc.ncbi.nlm.nih.gov/articles/PMC1234567/')).toEqual({ type: 'pmcid', value: 'PMC1234567' });
    expect(readPaperIdentifier('attention is all you need')).toBeUndefined();
  });
});
