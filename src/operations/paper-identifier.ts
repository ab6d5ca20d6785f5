import { boundedText } from '../domain/cut-text.js';
import { invalidQuery } from '../domain/errors.js';
import { readPaperIdentifier, type PaperIdentifier } from '../domain/paper-identifiers.js';

/** How much of a caller's id the message quotes: cut whole characters, never half an emoji (cut-text.ts). */
const SHOWN_INPUT_CHARS = 100;

/**
 * Reads what a caller calls a paper: a DOI (bare, `doi:` or a doi.org link), an arXiv id in any version
 * (bare, `arXiv:` or an arxiv.org abs/pdf link), a PMID (digits, `PMID:` or a PubMed link), a PMCID (`PMC` and
 * digits, `PMCID:` or a PMC article link), or a Semantic Scholar id (40 hex digits, `CorpusId:n` or a
 * semanticscholar.org paper link).
 */
export function parsePaperIdentifier(input: string): PaperIdentifier {
  const identifier = readPaperIdentifier(input);
  if (identifier) return identifier;
  throw invalidQuery(
    `id: "${boundedText(input.trim(), SHOWN_INPUT_CHARS)}" is not a paper identifier; use a DOI (10.1234/abc), an arXiv id (2101.00001 or hep-th/9901001), a PMID (12345678), a PMCID (PMC1234567) or a Semantic Scholar id (40 hex digits or CorpusId:123)`,
  );
}
