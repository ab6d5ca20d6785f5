import { decode } from 'html-entities';
import { invalidQuery, parseError, upstreamError } from '../domain/errors.js';
import { arxivPdfUrl, doiUrl, normalizeArxivId, normalizeDoi, normalizePmcid, normalizePmid, normalizeSemanticScholarId } from '../domain/paper-identifiers.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage } from './error-envelope.js';
import { closedTextExcludedTerms, nothingLeftToSearch } from './excluded-terms.js';
import {
  answerItems,
  asArray,
  compact,
  ENTITY_DECODING,
  encodePathSegments,
  httpUrl,
  isoDate,
  isRecord,
  itemsOf,
  numberOrUndefined,
  parseJsonObject,
  snippetOf,
  yearFrom,
} from './parse-helpers.js';
import {
  Provider,
  numberParameter,
  type PageRead,
  type PaperIdentifier,
  type ParseOutcome,
  type ProviderSettings,
  type UpstreamRequest,
  type UpstreamResponse,
} from './provider.js';

/** Semantic Scholar: `{"error"}` (400, 404) or `{"message"}` (403, 429, gateway errors). */
const ERROR_BODIES = [ERROR_ENVELOPES.errorString, ERROR_ENVELOPES.message];

/** The relevance search serves at most 100 papers per request… */
const MAX_LIMIT = 100;
/** …and its first 1,000 at most: `offset + limit` may not pass it. */
const MAX_DEPTH = 1000;
const FIELDS = [
  'title', 'url', 'abstract', 'authors', 'year', 'venue', 'publicationVenue', 'publicationDate',
  'externalIds', 'citationCount', 'openAccessPdf', 'journal',
].join(',');
/** Markup some abstracts carry (JATS from Crossref, <i>, <sup>); a bare "<" as in "p<0.05" is left alone. */
const INLINE_TAG = /<\/?(?:i|b|u|em|strong|sup|sub|sc|span|p|br|div|[\w-]+:[\w-]+)(?:\s+[\w:-]+=(?:"[^"]*"|'[^']*'))*\s*\/?>/gi;

/**
 * Semantic Scholar Academic Graph API: GET /graph/v1/paper/search (relevance search) and GET
 * /graph/v1/paper/{paper_id} (one paper), key in x-api-key (optional; without it requests share the public
 * rate limit). https://api.semanticscholar.org/api-docs/graph#tag/Paper-Data
 */
export class SemanticScholarProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'semanticscholar',
    kind: 'papers',
    description: 'Semantic Scholar papers across all fields, with citation counts, identifiers and open-access PDF links.',
    baseUrl: 'https://api.semanticscholar.org',
    credentials: [{ env: 'SEMANTIC_SCHOLAR_API_KEY', required: false, secret: true }],
    filters: ['year_from', 'year_to', 'open_access'],
    envAliases: ['SEMANTIC_SCHOLAR'],
    // Semantic Scholar: a key's introductory rate is 1 per second; without one, a throttled pool shared by everyone.
    rateLimit: '1/s',
  };
  readonly settings = SemanticScholarProvider.settings;

  /** A query of excluded terms alone (`-vision`) leaves the relevance search nothing to look for: skipped, not sent. */
  override queryProblem(text: string): string | undefined {
    return relevanceQueryText(text) === '' ? NO_SEARCHABLE_WORDS : undefined;
  }

  override buildRequest(query: SearchQuery): UpstreamRequest {
    return this.searchRequest(query, 0, Math.min(query.limit, MAX_LIMIT));
  }

  /**
   * The papers after this page: `offset` where it says the next batch starts (`next`, absent after the last),
   * asking only for what the search still wants, within the relevance search's first 1,000.
   */
  override nextPageRequest(query: SearchQuery, page: PageRead): UpstreamRequest | undefined {
    const body = parseJsonObject(page.response);
    const next = numberOrUndefined(body.next);
    // The papers listed, not those read: one skipped (no id, no url) does not make a full page look like the last.
    if (next === undefined || asArray(body.data).length < numberParameter(page.request, 'limit', MAX_LIMIT)) return undefined;
    const limit = Math.min(query.limit - page.collected, MAX_LIMIT, MAX_DEPTH - next);
    return limit > 0 ? this.searchRequest(query, next, limit) : undefined;
  }

  private searchRequest(query: SearchQuery, offset: number, limit: number): UpstreamRequest {
    const text = relevanceQueryText(query.text);
    if (text === '') throw invalidQuery(NO_SEARCHABLE_WORDS);
    const url = this.endpoint('/graph/v1/paper/search');
    url.searchParams.set('query', text);
    url.searchParams.set('offset', String(offset));
    url.searchParams.set('limit', String(limit));
    url.searchParams.set('fields', FIELDS);
    const { year_from: yearFromFilter, year_to: yearTo, open_access: openAccess } = query.filters;
    // `year` takes 2019, 2016-2020, 2010- or -2015.
    if (yearFromFilter !== undefined || yearTo !== undefined) {
      url.searchParams.set('year', yearFromFilter === yearTo ? String(yearFromFilter) : `${yearFromFilter ?? ''}-${yearTo ?? ''}`);
    }
    // openAccessPdf is a flag that takes no value.
    const address = openAccess ? `${url.toString()}&openAccessPdf` : url.toString();
    return { url: address, headers: this.headers() };
  }

  /** GET /graph/v1/paper/{paper_id}: an unknown id answers 404 {"error": "Paper with id … not found"}. */
  override buildLookupRequest(identifier: PaperIdentifier): UpstreamRequest | undefined {
    const paperId = paperIdOf(identifier);
    if (!paperId) return undefined;
    const url = this.endpointUnder('/graph/v1/paper/', paperId);
    url.searchParams.set('fields', FIELDS);
    return { url: url.toString(), headers: this.headers(), acceptStatuses: [404] };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    // Only a lookup accepts 404: the paper is not in the graph.
    if (response.status === 404) return { items: [] };
    const body = parseJsonObject(response);
    // GET /graph/v1/paper/{id} answers with the paper itself rather than a page of papers.
    if (typeof body.paperId === 'string') return { items: answerItems(1, itemsOf([body], toItem)) };
    const failure = errorEnvelopeMessage(body, ERROR_BODIES);
    if (failure && body.data === undefined) throw upstreamError(`Semantic Scholar: ${failure}`);
    // An empty search answers {"total": 0, "offset": 0} with no data at all.
    if (body.data !== undefined && !Array.isArray(body.data)) throw parseError('expected data to be a list of papers');
    // A paper with neither an id nor a url (or a null in the list) is skipped; the others are still the answer.
    const papers = asArray(body.data);
    return { items: answerItems(papers.length, itemsOf(papers, toItem)) };
  }

  override describeError(response: UpstreamResponse): string | undefined {
    return describeJsonError(response, ERROR_BODIES);
  }

  private headers(): Record<string, string> {
    const apiKey = this.credential('SEMANTIC_SCHOLAR_API_KEY');
    return { Accept: 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) };
  }
}

const NO_SEARCHABLE_WORDS = nothingLeftToSearch('Semantic Scholar');

/**
 * The text as the relevance search takes it: it has no query syntax, and a hyphenated term matches nothing
 * (documented), so hyphens become spaces. An excluded term (excluded-terms.ts) is left out first: with its hyphen
 * gone it was one more word to match, the opposite of what was typed, and the search has no way to exclude it. The
 * terms are read in the text closed (closedQuery): a NOT that opens a group (`a (NOT x)`) is one too.
 */
function relevanceQueryText(text: string): string {
  return closedTextExcludedTerms(text).rest.replace(/-/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * The paper_id path part: DOI:<doi>, ARXIV:<id>, PMID:<pmid>, PMCID:<digits> (the API documents PMCID:2323736, the
 * number without `PMC`), or for a Semantic Scholar id the 40-hex paperId or CorpusId:<n>.
 */
function paperIdOf(identifier: PaperIdentifier): string | undefined {
  const { value } = identifier;
  switch (identifier.type) {
    case 'doi':
      return prefixed('DOI', normalizeDoi(value));
    case 'arxiv':
      return prefixed('ARXIV', normalizeArxivId(value));
    case 'pmid':
      return prefixed('PMID', normalizePmid(value));
    case 'pmcid':
      return prefixed('PMCID', normalizePmcid(value)?.slice('PMC'.length));
    case 's2':
      // A bare number given as a Semantic Scholar id is a CorpusId.
      return normalizeSemanticScholarId(/^\s*\d+\s*$/.test(value) ? `CorpusId:${value.trim()}` : value);
  }
}

/** The id percent-encoded part by part with its slashes kept: the API reads DOI:10.1093/mind/lix.236.433 as is. */
function prefixed(prefix: string, id: string | undefined): string | undefined {
  return id === undefined ? undefined : `${prefix}:${encodePathSegments(id)}`;
}

function toItem(paper: Record<string, unknown>): ProviderItem | undefined {
  const ids = isRecord(paper.externalIds) ? paper.externalIds : {};
  const doi = normalizeDoi(ids.DOI);
  const arxivId = normalizeArxivId(ids.ArXiv);
  const paperId = typeof paper.paperId === 'string' && paper.paperId !== '' ? paper.paperId : undefined;
  const url = httpUrl(paper.url)
    ?? (paperId ? `https://www.semanticscholar.org/paper/${encodeURIComponent(paperId)}` : undefined)
    ?? (doi ? doiUrl(doi) : undefined)
    ?? (arxivId ? `https://arxiv.org/abs/${arxivId}` : undefined);
  if (!url) return undefined;
  const abstract = clean(paper.abstract);
  const year = yearFrom(paper.year) ?? yearFrom(paper.publicationDate);
  const authors = authorsOf(paper.authors);
  const openAccessPdf = isRecord(paper.openAccessPdf) ? paper.openAccessPdf : {};
  const citations = numberOrUndefined(paper.citationCount);
  return compact({
    title: clean(paper.title) ?? url,
    url,
    snippet: abstract ? snippetOf(abstract) : undefined,
    // Without a publication date the year is the precision there is (ISO 8601 allows "2021").
    published_at: isoDate(paper.publicationDate) ?? (year === undefined ? undefined : String(year)),
    authors: authors.length > 0 ? authors : undefined,
    year,
    venue: clean(paper.venue) ?? nameOf(paper.publicationVenue) ?? nameOf(paper.journal),
    abstract,
    doi,
    arxiv_id: arxivId,
    pmid: normalizePmid(ids.PubMed),
    // The graph often gives an arXiv paper no openAccessPdf (null, even with isOpenAccess false): arXiv's PDF is open.
    pdf_url: httpUrl(openAccessPdf.url) ?? arxivPdfUrl(arxivId),
    citation_count: citations !== undefined && citations >= 0 ? Math.trunc(citations) : undefined,
  });
}

/**
 * The authors' names in order. The graph sometimes lists one author twice under the same authorId (PNAS
 * 10.1073/pnas.1720770115 has "D. Karig" first and second): the repeat goes. Two authors who only share a name
 * (different or missing ids) are two people and both stay.
 */
function authorsOf(value: unknown): string[] {
  const names: string[] = [];
  const seenIds = new Set<string>();
  for (const author of asArray(value)) {
    if (!isRecord(author)) continue;
    const name = clean(author.name);
    if (name === undefined) continue;
    const id = typeof author.authorId === 'string' && author.authorId !== '' ? author.authorId : undefined;
    if (id !== undefined) {
      if (seenIds.has(id)) continue;
      seenIds.add(id);
    }
    names.push(name);
  }
  return names;
}

function nameOf(value: unknown): string | undefined {
  return isRecord(value) ? clean(value.name) : undefined;
}

/**
 * A trimmed string without markup, or undefined. Unlike `text()` this strips only tag-shaped markup, so
 * "p<0.05 and q>1" in an abstract survives. Not the shared `plainXmlText`: S2 sends JSON whose strings still
 * carry markup and entities, which must go.
 */
function clean(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cleaned = decode(value.replace(INLINE_TAG, (tag) => (/^<\/?(p|br|div)\b/i.test(tag) ? ' ' : '')), ENTITY_DECODING).replace(/\s+/g, ' ').trim();
  return cleaned === '' ? undefined : cleaned;
}
