import { invalidQuery, parseError, upstreamError } from '../domain/errors.js';
import { doiUrl, normalizeDoi } from '../domain/paper-identifiers.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { ERROR_ENVELOPES, describeJsonError, describePlainTextError, errorEnvelopeMessage } from './error-envelope.js';
import { closedTextExcludedTerms, nothingLeftToSearch } from './excluded-terms.js';
import {
  answerItems,
  asArray,
  compact,
  encodePathSegments,
  extraFields,
  httpUrl,
  isRecord,
  itemsOf,
  listedCount,
  numberOrUndefined,
  parseJsonObject,
  snippetOf,
  text,
} from './parse-helpers.js';
import {
  Provider,
  numberParameter,
  withParameters,
  type PageRead,
  type PaperIdentifier,
  type ParseOutcome,
  type ProviderSettings,
  type UpstreamRequest,
  type UpstreamResponse,
} from './provider.js';

const NO_SEARCHABLE_WORDS = nothingLeftToSearch('Crossref');

/**
 * The text without its excluded terms (excluded-terms.ts): Crossref's query has no boolean operators and scores
 * works by any of the words it is given, so `-mice` raised the works about mice. It cannot exclude them either. The
 * terms are read in the text closed (closedQuery): a NOT that opens a group (`a (NOT mice)`) is one too.
 */
function searchWords(text: string): string {
  return closedTextExcludedTerms(text).rest;
}

/** Crossref: `{"status": "failed", "message": [{"type", "value", "message"}]}`, or a message string. */
const ERROR_BODIES = [ERROR_ENVELOPES.failureList, ERROR_ENVELOPES.message];

/** Crossref serves up to 1000 rows; fedsearch asks for 100 at a time and reads further pages by `offset`… */
const MAX_ROWS = 100;
/** …which reaches the first 10,000 works of a query (deeper needs a cursor). */
const MAX_OFFSET = 10_000;

/**
 * Crossref REST API: GET /works?query=&rows= (a list) or GET /works/{doi} (one work), no key; an e-mail in
 * `mailto` puts requests in the faster "polite" pool. https://api.crossref.org/swagger-ui/index.html
 */
export class CrossrefProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'crossref',
    kind: 'papers',
    description: 'Crossref: metadata of DOI-registered scholarly works.',
    baseUrl: 'https://api.crossref.org',
    credentials: [{ env: 'CROSSREF_MAILTO', required: false, secret: false }],
    filters: ['year_from', 'year_to'],
    // Crossref REST API (since December 2025): 5 per second in the public pool, 10 in the polite pool (mailto).
    rateLimit: { rate: '5/s', withCredential: { env: 'CROSSREF_MAILTO', rate: '10/s' } },
  };
  readonly settings = CrossrefProvider.settings;

  /** A query of excluded terms alone (`-mice`) leaves nothing to search for once they are left out: skipped, not sent. */
  override queryProblem(text: string): string | undefined {
    return searchWords(text) === '' ? NO_SEARCHABLE_WORDS : undefined;
  }

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const text = searchWords(query.text);
    if (text === '') throw invalidQuery(NO_SEARCHABLE_WORDS);
    const url = this.endpoint('/works');
    url.searchParams.set('query', text);
    url.searchParams.set('rows', String(Math.min(query.limit, MAX_ROWS)));
    // Crossref has no open-access filter worth the name (has-license is not the same), so open_access is not passed on.
    const { year_from: yearFrom, year_to: yearTo } = query.filters;
    const filters = [
      ...(yearFrom === undefined ? [] : [`from-pub-date:${yearFrom}`]),
      ...(yearTo === undefined ? [] : [`until-pub-date:${yearTo}`]),
    ];
    if (filters.length > 0) url.searchParams.set('filter', filters.join(','));
    const mailto = this.credential('CROSSREF_MAILTO');
    if (mailto) url.searchParams.set('mailto', mailto);
    return { url: url.toString(), headers: { Accept: 'application/json' } };
  }

  /** The works after this page (`offset`), while the page was full, asking only for what the search still wants. */
  override nextPageRequest(query: SearchQuery, page: PageRead): UpstreamRequest | undefined {
    const rows = numberParameter(page.request, 'rows', MAX_ROWS);
    const offset = numberParameter(page.request, 'offset', 0) + rows;
    const next = Math.min(query.limit - page.collected, MAX_ROWS, MAX_OFFSET - offset);
    // The works listed, not those read: one skipped (a null) does not make a full page look like the last.
    if (listedWorks(page.response) < rows || next <= 0) return undefined;
    return withParameters(page.request, { offset: String(offset), rows: String(next) });
  }

  /**
   * GET /works/{doi}, answered with the work or a plain-text 404 ("Resource not found."), also for DOIs that
   * another agency registered (arXiv's are DataCite's). Crossref knows works by DOI only.
   */
  override buildLookupRequest(identifier: PaperIdentifier): UpstreamRequest | undefined {
    const doi = identifier.type === 'doi' ? normalizeDoi(identifier.value) : undefined;
    if (!doi) return undefined;
    // The DOI's own slashes stay; reserved characters in it (`#`, `?`, `;`, `<`) must not end the path.
    const url = this.endpointUnder('/works/', encodePathSegments(doi));
    const mailto = this.credential('CROSSREF_MAILTO');
    if (mailto) url.searchParams.set('mailto', mailto);
    return { url: url.toString(), headers: { Accept: 'application/json' }, acceptStatuses: [404] };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    // Only a lookup accepts 404: no such DOI in Crossref.
    if (response.status === 404) return { items: [] };
    const body = parseJsonObject(response);
    if (body.status === 'failed') throw upstreamError(errorEnvelopeMessage(body, ERROR_BODIES) ?? 'Crossref reported a failure');
    const message = body.message;
    if (!isRecord(message)) throw parseError('the body has no message object');
    // A list (work-list) carries items[]; a lookup by DOI (work) is the work itself.
    const works = Array.isArray(message.items) ? message.items : body['message-type'] === 'work' || 'DOI' in message ? [message] : undefined;
    if (!works) throw parseError('the message has neither items nor a work');
    // An entry that is not a work (null) is skipped; the others are still the answer.
    return { items: answerItems(works.length, itemsOf(works, toItem)) };
  }

  override describeError(response: UpstreamResponse): string | undefined {
    // Crossref answers an unknown DOI with a short plain-text line ("Resource not found."), not with JSON.
    return describeJsonError(response, ERROR_BODIES) ?? describePlainTextError(response);
  }
}

/** How many works a search page listed, unreadable ones included (parseResponse found `message.items` a list). */
function listedWorks(response: UpstreamResponse): number {
  const message = parseJsonObject(response).message;
  return isRecord(message) ? listedCount(message.items) : 0;
}

function toItem(work: Record<string, unknown>): ProviderItem | undefined {
  const doi = normalizeDoi(work.DOI);
  const venue = firstText(work['container-title']);
  const date = publicationDate(work);
  const url =
    httpUrl(work.URL) ??
    (doi ? doiUrl(doi) : undefined) ??
    (isRecord(work.resource) && isRecord(work.resource.primary) ? httpUrl(work.resource.primary.URL) : undefined);
  const title = firstText(work.title) ?? firstText(work['original-title']) ?? firstText(work['short-title']) ?? fallbackTitle(venue, doi);
  // With neither a link nor a title there is nothing to show or search for: not a result (a search for "" was made).
  const shown = title ?? url;
  if (shown === undefined) return undefined;
  const authors = asArray(work.author).filter(isRecord).map(authorName).filter((name): name is string => name !== undefined);
  const type = text(work.type);
  const abstract = typeof work.abstract === 'string' ? jatsToText(work.abstract) : undefined;
  return compact({
    title: shown,
    // Every Crossref work has a DOI; the search link only keeps a malformed record visible instead of dropping it.
    url: url ?? `https://search.crossref.org/search/works?q=${encodeURIComponent(shown)}`,
    // The abstract's start, cut at a word, as arXiv, PubMed and Semantic Scholar give it: what a reader sees of the work.
    snippet: abstract ? snippetOf(abstract) : undefined,
    authors: authors.length > 0 ? authors : undefined,
    year: date.year,
    published_at: date.iso,
    venue,
    abstract,
    doi,
    pdf_url: openPdfLink(work),
    citation_count: numberOrUndefined(work['is-referenced-by-count']),
    extra: extraFields({ type }),
  });
}

/** A work without a title (some datasets, components) is still shown: by its journal and DOI. */
function fallbackTitle(venue: string | undefined, doi: string | undefined): string | undefined {
  if (venue && doi) return `${venue} (${doi})`;
  return venue ?? doi;
}

function firstText(value: unknown): string | undefined {
  for (const entry of asArray(value)) {
    const found = text(entry);
    if (found) return found;
  }
  return undefined;
}

function authorName(author: Record<string, unknown>): string | undefined {
  const personal = [text(author.given), text(author.family)].filter(Boolean).join(' ');
  return personal !== '' ? personal : text(author.name);
}

/**
 * The abstract comes as JATS XML (`<jats:p>`, often led by `<jats:title>Abstract</jats:title>`): the heading
 * goes, and block elements become spaces so paragraphs do not run together.
 */
function jatsToText(abstract: string): string | undefined {
  const withoutHeading = abstract.replace(/^\s*<jats:title>\s*(abstract|summary)\s*<\/jats:title>/i, '');
  // `[^<>]`, not `[^>]`: an unclosed `<jats:p` would read on to the next `>`, from each of them (quadratic time).
  return text(withoutHeading.replace(/<\/?(jats:)?(p|sec|title|list|list-item)\b[^<>]*>/gi, ' '));
}

/**
 * A PDF link a reader can open. Publishers deposit links for a purpose (intended-application): `similarity-checking`
 * is for Crossref's Similarity Check crawler, and `text-mining` (or `syndication`) links are mostly behind the
 * publisher's subscription or a TDM token, so they count only for a work under a Creative Commons license for the
 * link's version; a general link (`unspecified`, or no purpose given) counts as it is.
 */
function openPdfLink(work: Record<string, unknown>): string | undefined {
  for (const link of asArray(work.link)) {
    if (!isRecord(link) || link['content-type'] !== 'application/pdf') continue;
    const purpose = text(link['intended-application']) ?? 'unspecified';
    if (purpose === 'similarity-checking') continue;
    if (purpose !== 'unspecified' && !openlyLicensed(work.license, text(link['content-version']))) continue;
    const url = httpUrl(link.URL);
    if (url) return url;
  }
  return undefined;
}

/** Whether a Creative Commons license covers this content version (vor, am; `unspecified` covers every one). */
function openlyLicensed(licenses: unknown, version: string | undefined): boolean {
  return asArray(licenses).some((license) => {
    if (!isRecord(license) || !/^https?:\/\/creativecommons\.org\//i.test(text(license.URL) ?? '')) return false;
    const covers = text(license['content-version']) ?? 'unspecified';
    return covers === 'unspecified' || version === undefined || covers === version;
  });
}

/** Crossref dates are `{"date-parts": [[2012, 3, 21]]}`, with month and day optional and `[[null]]` for none. */
function publicationDate(work: Record<string, unknown>): { iso?: string; year?: number } {
  for (const field of ['issued', 'published', 'published-print', 'published-online']) {
    const holder = work[field];
    if (!isRecord(holder)) continue;
    const parts = asArray(asArray(holder['date-parts'])[0]).map(numberOrUndefined);
    const [year, month, day] = parts;
    if (year === undefined || !Number.isInteger(year) || year < 1000 || year > 2100) continue;
    const pad = (part: number): string => String(part).padStart(2, '0');
    if (month === undefined || month < 1 || month > 12) return { iso: String(year), year };
    if (day === undefined || day < 1 || day > 31) return { iso: `${year}-${pad(month)}`, year };
    return { iso: `${year}-${pad(month)}-${pad(day)}`, year };
  }
  return {};
}
