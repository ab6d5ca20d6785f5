import { invalidQuery } from '../domain/errors.js';
import type { PaperIdentifier } from '../providers/provider.js';
import { normalizeArxivId, normalizeDoi, normalizePmid } from '../providers/parse-helpers.js';

const ARXIV_DOI = /^10\.48550\/arxiv\.(.+)$/;
const S2_PAPER_ID = /^[0-9a-f]{40}$/i;

/**
 * Reads what a caller calls a paper: a DOI (bare, `doi:` or a doi.org link), an arXiv id in any version
 * (bare, `arXiv:` or an arxiv.org abs/pdf link), a PMID (digits, `PMID:` or a PubMed link), or a Semantic
 * Scholar id (40 hex digits, `CorpusId:n` or a semanticscholar.org paper link).
 */
export function parsePaperIdentifier(input: string): PaperIdentifier {
  const value = input.trim();
  const doi = normalizeDoi(value);
  if (doi) {
    const arxivFromDoi = normalizeArxivId(ARXIV_DOI.exec(doi)?.[1]);
    return arxivFromDoi ? { type: 'arxiv', value: arxivFromDoi } : { type: 'doi', value: doi };
  }
  const arxiv = normalizeArxivId(value);
  if (arxiv) return { type: 'arxiv', value: arxiv };
  const pubmedLink = /^https?:\/\/(www\.)?(pubmed\.ncbi\.nlm\.nih\.gov|ncbi\.nlm\.nih\.gov\/pubmed)\/(\d+)/i.exec(value)?.[3];
  const pmid = normalizePmid(pubmedLink ?? value.replace(/^pmid:\s*/i, ''));
  if (pmid) return { type: 'pmid', value: pmid };
  const s2Link = /^https?:\/\/(www\.)?semanticscholar\.org\/paper\/(?:[^/]+\/)?([0-9a-f]{40})/i.exec(value)?.[2];
  if (s2Link) return { type: 's2', value: s2Link.toLowerCase() };
  if (S2_PAPER_ID.test(value)) return { type: 's2', value: value.toLowerCase() };
  const corpus = /^corpusid:\s*(\d+)$/i.exec(value)?.[1];
  if (corpus) return { type: 's2', value: `CorpusId:${corpus}` };
  throw invalidQuery(
    `id: "${value.slice(0, 100)}" is not a paper identifier; use a DOI (10.1234/abc), an arXiv id (2101.00001 or hep-th/9901001), a PMID (12345678) or a Semantic Scholar id (40 hex digits or CorpusId:123)`,
  );
}
