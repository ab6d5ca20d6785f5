/**
 * What a paper is called, in one place: DOIs, arXiv ids, PubMed ids, PubMed Central ids and Semantic Scholar ids
 * as callers write them, as upstreams send them and as they appear in running text, each reduced to one canonical
 * spelling.
 */

import { invalidQuery } from './errors.js';

/**
 * A paper identifier a caller can look up: DOI (lower case), arXiv id (no version), PMID, PMCID (`PMC` and its
 * digits), Semantic Scholar id.
 */
export interface PaperIdentifier {
  type: 'doi' | 'arxiv' | 'pmid' | 'pmcid' | 's2';
  value: string;
}

/** The fixed start of every DOI: the `10.` directory, a registrant code, a slash; the suffix follows. */
const DOI_PREFIX = String.raw`10\.\d{4,9}\/`;
/** arXiv ids since 2007 (`2101.00001`) and before (`hep-th/9901001`, `math.AG/0601001`). */
const ARXIV_NEW_ID = String.raw`\d{4}\.\d{4,5}`;
/**
 * The old style's archive, its optional subject class and its number, captured apart: the subject class is not part
 * of the identifier (arXiv writes `math.CA/0611800` as arXiv:math/0611800, and its feed and abs pages know only that).
 */
const ARXIV_OLD_ID = String.raw`([a-z-]+)(?:\.[A-Z]{2})?\/(\d{7})`;

const DOI = new RegExp(`^${DOI_PREFIX}\\S+$`);
/** A doi.org (or dx.doi.org) link's start, before the DOI. */
const DOI_RESOLVER = /^https?:\/\/(dx\.)?doi\.org\//i;
/**
 * A `/`-separated part that is `.` or `..`, with any dot written `%2e` in either case: the URL parser reads all
 * of these as dot segments and resolves them, so a DOI with one, put in a lookup's URL path, would climb out of
 * it (10.1234/../../graph/v1/author/1 reaches another API, with the operator's key). No real DOI has one.
 */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?=\/|$)/i;
/** In running text a DOI ends at white space, a quote or an angle bracket. */
const DOI_IN_TEXT = new RegExp(String.raw`\b${DOI_PREFIX}[^\s"'<>]+`, 'g');
const ARXIV_ID = new RegExp(String.raw`^(?:(${ARXIV_NEW_ID})|${ARXIV_OLD_ID})(v\d+)?$`, 'i');
/** Old-style ids are too close to ordinary words with a slash to be looked for in running text. */
const ARXIV_ID_IN_TEXT = new RegExp(String.raw`\b(?:arxiv:\s*)?(${ARXIV_NEW_ID}(?:v\d+)?)\b`, 'gi');
/** The DOIs arXiv registers (with DataCite) for its own papers: 10.48550/arXiv.<id>. */
const ARXIV_DOI = /^10\.48550\/arxiv\.(.+)$/i;
const PUBMED_LINK = /^https?:\/\/(?:www\.)?(?:pubmed\.ncbi\.nlm\.nih\.gov|ncbi\.nlm\.nih\.gov\/pubmed)\/(\d+)/i;
/**
 * A PubMed Central article link, old (www.ncbi.nlm.nih.gov/pmc/articles/…) or new (pmc.ncbi.nlm.nih.gov/articles/…),
 * whatever follows the id (`/`, `/pdf/…`).
 */
const PMC_LINK = /^https?:\/\/(?:(?:www\.)?ncbi\.nlm\.nih\.gov\/pmc|pmc\.ncbi\.nlm\.nih\.gov)\/articles\/(pmc\d+)(?:[/?#]|$)/i;
/** `PMC1234567`, or after a `PMCID:` label also its digits alone (the label says what they are). */
const PMCID = /^(?:pmcid:\s*)?pmc(\d{1,9})$|^pmcid:\s*(\d{1,9})$/i;
const SEMANTIC_SCHOLAR_PAPER_ID = /^[0-9a-f]{40}$/i;
const SEMANTIC_SCHOLAR_LINK = /^https?:\/\/(?:www\.)?semanticscholar\.org\/paper\/(?:[^/]+\/)?([0-9a-f]{40})/i;
const CORPUS_ID = /^corpusid:\s*(\d+)$/i;
/** Punctuation that ends a sentence rather than an identifier found in it. */
const TRAILING_PUNCTUATION = /[).,;]+$/;

/** A DOI in lower case without resolver prefix (`https://doi.org/`, `doi:`), or undefined. */
export function normalizeDoi(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const stripped = withoutDoiResolver(value);
  return DOI.test(stripped) && !DOT_SEGMENT.test(stripped) ? stripped : undefined;
}

/**
 * A DOI's link at doi.org. A DOI may hold characters a URL gives another meaning: SICI-style DOIs end in a check
 * character that can be `#` (`…3.0.co;2-#`), which would start a fragment, so doi.org would be asked for another
 * DOI. Those are percent-encoded (`#`, `?`, `%`, spaces, `<>`); the rest stays as written (`/`, `;`, `:`, `()`), the
 * link a browser or doi.org itself shows.
 */
export function doiUrl(doi: string): string {
  return `https://doi.org/${encodeURI(doi).replace(/[?#]/g, encodeURIComponent)}`;
}

/**
 * The DOI without its resolver, lower case. A doi.org link's path is percent-encoded (doiUrl's own links write
 * `<` as `%3C`, `#` as `%23`; a browser's copy encodes more), so a link's DOI is read decoded: kept as written,
 * `%3C` went to the providers as `%253C`, a DOI no one has. A bare or `doi:` DOI is taken as written.
 */
function withoutDoiResolver(value: string): string {
  const trimmed = value.trim();
  const path = trimmed.replace(DOI_RESOLVER, '');
  const doi = path === trimmed ? trimmed.replace(/^doi:\s*/i, '') : percentDecoded(path);
  return doi.toLowerCase();
}

/** A URL path's percent escapes decoded; as it is when one is malformed (`%zz`), which no link from doi.org has. */
function percentDecoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * An arXiv id without version and without URL or `arXiv:` prefix (new `2101.00001` and old `hep-th/9901001`; an
 * old one without its subject class: `math.GT/0309136` is `math/0309136`).
 */
export function normalizeArxivId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const stripped = value
    .trim()
    .replace(/^https?:\/\/(export\.)?arxiv\.org\/(abs|pdf)\//i, '')
    .replace(/^arxiv:\s*/i, '')
    .replace(/\.pdf$/i, '');
  const match = ARXIV_ID.exec(stripped);
  if (!match) return undefined;
  return (match[1] ?? `${match[2]!}/${match[3]!}`).toLowerCase();
}

/**
 * arXiv's PDF of a paper (its latest version), for a provider that knows the id but gives no PDF link: every arXiv
 * paper is free to read, and OpenAlex and Semantic Scholar often name only the abstract page (or nothing).
 */
export function arxivPdfUrl(arxivId: string | undefined): string | undefined {
  return arxivId === undefined ? undefined : `https://arxiv.org/pdf/${arxivId}`;
}

/** The arXiv id an arXiv DOI (10.48550/arXiv.<id>) stands for; undefined for any other DOI. */
export function arxivIdFromDoi(doi: string | undefined): string | undefined {
  return doi === undefined ? undefined : normalizeArxivId(ARXIV_DOI.exec(doi.trim())?.[1]);
}

/** A PubMed id (digits only) from digits, `PMID: n` or a PubMed link, or undefined. */
export function normalizePmid(value: unknown): string | undefined {
  const raw = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const digits = PUBMED_LINK.exec(raw)?.[1] ?? raw.replace(/^pmid:\s*/i, '');
  return /^\d{1,9}$/.test(digits) ? digits : undefined;
}

/**
 * A PubMed Central id in its canonical form, `PMC` and digits, from `PMC1234567` (any letter case), `PMCID: PMC1234567`,
 * `PMCID: 1234567` or a PMC article link; undefined otherwise. Bare digits are a PMID, never a PMCID.
 */
export function normalizePmcid(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  const match = PMCID.exec(PMC_LINK.exec(trimmed)?.[1] ?? trimmed);
  const digits = match?.[1] ?? match?.[2];
  return digits === undefined ? undefined : `PMC${digits}`;
}

/**
 * A Semantic Scholar paper id: the 40-hex paperId in lower case (bare or from a semanticscholar.org paper
 * link), or `CorpusId:<n>`; undefined otherwise.
 */
export function normalizeSemanticScholarId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  const paperId = SEMANTIC_SCHOLAR_LINK.exec(trimmed)?.[1] ?? (SEMANTIC_SCHOLAR_PAPER_ID.test(trimmed) ? trimmed : undefined);
  if (paperId) return paperId.toLowerCase();
  const corpusId = CORPUS_ID.exec(trimmed)?.[1];
  return corpusId ? `CorpusId:${corpusId}` : undefined;
}

/** The DOIs written in a text, normalised, in order of appearance. */
export function findDois(text: string): string[] {
  return [...text.matchAll(DOI_IN_TEXT)]
    .map((match) => normalizeDoi(match[0].replace(TRAILING_PUNCTUATION, '')))
    .filter((doi): doi is string => doi !== undefined);
}

/** The new-style arXiv ids written in a text, as written (a version stays), in order of appearance. */
export function findArxivIds(text: string): string[] {
  return [...text.matchAll(ARXIV_ID_IN_TEXT)]
    .map((match) => match[1]!)
    .filter((id) => normalizeArxivId(id) !== undefined);
}

/**
 * Reads what a caller calls a paper, or undefined: a DOI (an arXiv DOI counts as its arXiv id), an arXiv id,
 * a PMID, a PMCID, or a Semantic Scholar id, in any of the spellings the normalisers above accept. A DOI with a `.` or
 * `..` part is refused (QUERY_INVALID) with a reason of its own rather than "not a paper identifier".
 */
export function readPaperIdentifier(input: string): PaperIdentifier | undefined {
  const value = input.trim();
  const doi = normalizeDoi(value);
  if (doi) {
    const arxivFromDoi = arxivIdFromDoi(doi);
    return arxivFromDoi ? { type: 'arxiv', value: arxivFromDoi } : { type: 'doi', value: doi };
  }
  refuseDoiWithDotSegment(value);
  const arxiv = normalizeArxivId(value);
  if (arxiv) return { type: 'arxiv', value: arxiv };
  const pmid = normalizePmid(value);
  if (pmid) return { type: 'pmid', value: pmid };
  const pmcid = normalizePmcid(value);
  if (pmcid) return { type: 'pmcid', value: pmcid };
  const semanticScholar = normalizeSemanticScholarId(value);
  return semanticScholar ? { type: 's2', value: semanticScholar } : undefined;
}

/** Throws for a DOI that has a `.` or `..` part (DOT_SEGMENT): saying why helps a caller more than "not an id". */
function refuseDoiWithDotSegment(value: string): void {
  const stripped = withoutDoiResolver(value);
  if (!DOI.test(stripped) || !DOT_SEGMENT.test(stripped)) return;
  throw invalidQuery(
    `id: "${value.slice(0, 100)}" has a part between slashes that is "." or ".." (also as %2e), which no DOI has; use the DOI as registered, such as 10.1000/a.b/c..d or 10.1016/S0140-6736(20)30183-5`,
  );
}
