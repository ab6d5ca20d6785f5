import { noWordProblem } from '../domain/closed-query.js';
import { invalidQuery, parseError, upstreamError } from '../domain/errors.js';
import { arxivIdFromDoi, arxivPdfUrl, doiUrl, normalizeArxivId, normalizeDoi, normalizePmid } from '../domain/paper-identifiers.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage } from './error-envelope.js';
import { booleanQueryProblem, booleanQueryText, withBooleanExclusion } from './excluded-terms.js';
import {
  answerItems,
  asArray,
  compact,
  encodePathSegments,
  extraFields,
  httpUrl,
  isRecord,
  itemsOf,
  isoDate,
  listedCount,
  numberOrUndefined,
  parseJsonObject,
  snippetOf,
  text,
  yearFrom,
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

/** OpenAlex: `{"error": "Invalid query parameters error.", "message": "…"}`, the message saying which. */
const ERROR_BODIES = [ERROR_ENVELOPES.message, ERROR_ENVELOPES.errorString];

/** OpenAlex pages hold up to 200 works… */
const MAX_PER_PAGE = 200;
/** …and `page` reaches the first 10,000 (deeper needs a cursor). */
const MAX_DEPTH = 10_000;
/**
 * Only the fields the adapter reads: a full work is ~15 KB, mostly references and concepts. `locations` (~2 KB a
 * work, under 300 bytes once gzipped) is there for its PDF links: best_oa_location may be a copy without one.
 */
const SELECT = [
  'id',
  'doi',
  'title',
  'display_name',
  'publication_year',
  'publication_date',
  'ids',
  'type',
  'authorships',
  'primary_location',
  'best_oa_location',
  'locations',
  'open_access',
  'cited_by_count',
  'abstract_inverted_index',
].join(',');

/**
 * OpenAlex works API: GET /works?search=&per_page= (a list: meta + results[]) or GET /works/{id} (one work),
 * no key; an e-mail in `mailto` joins the polite pool. https://docs.openalex.org/api-entities/works
 */
export class OpenAlexProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'openalex',
    kind: 'papers',
    description: 'OpenAlex: open catalogue of scholarly works, with citations and open-access links.',
    baseUrl: 'https://api.openalex.org',
    credentials: [{ env: 'OPENALEX_MAILTO', required: false, secret: false }],
    filters: ['year_from', 'year_to', 'open_access'],
    // OpenAlex: 10 requests per second, its long-standing per-user guidance (well under today's 100/s ceiling).
    rateLimit: '10/s',
  };
  readonly settings = OpenAlexProvider.settings;

  /**
   * A query of wildcards alone (`*`) leaves nothing to search for, nor does one of operators, quotes, parentheses or
   * punctuation alone (`AND (`, `!!!`), and one of excluded terms alone (`-mice`) leaves NOT nothing to leave results out of: skipped, not
   * sent.
   */
  override queryProblem(text: string): string | undefined {
    const words = withoutWildcards(text);
    if (words === '') return ONLY_WILDCARDS;
    return booleanQueryProblem(withBooleanExclusion(words));
  }

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const words = withoutWildcards(query.text);
    if (words === '') throw invalidQuery(ONLY_WILDCARDS);
    // `-mice` as NOT: OpenAlex documents AND, OR and NOT (upper case, grouped by parentheses) as its operators, no minus.
    const text = booleanQueryText(words);
    const url = this.endpoint('/works');
    url.searchParams.set('search', text);
    url.searchParams.set('per_page', String(Math.min(query.limit, MAX_PER_PAGE)));
    url.searchParams.set('select', SELECT);
    const { year_from: from, year_to: to, open_access: openAccess } = query.filters;
    const filters = [
      ...(from === undefined ? [] : [`publication_year:>${from - 1}`]),
      ...(to === undefined ? [] : [`publication_year:<${to + 1}`]),
      ...(openAccess ? ['is_oa:true'] : []),
    ];
    if (filters.length > 0) url.searchParams.set('filter', filters.join(','));
    const mailto = this.credential('OPENALEX_MAILTO');
    if (mailto) url.searchParams.set('mailto', mailto);
    return { url: url.toString(), headers: { Accept: 'application/json' } };
  }

  /** The next `page` of `per_page` works, while the page was full and the first 10,000 reach past it. */
  override nextPageRequest(_query: SearchQuery, page: PageRead): UpstreamRequest | undefined {
    const perPage = numberParameter(page.request, 'per_page', MAX_PER_PAGE);
    const pageNumber = numberParameter(page.request, 'page', 1);
    // The works listed, not those read: one skipped (a null) does not make a full page look like the last.
    if (listedWorks(page.response) < perPage || (pageNumber + 1) * perPage > MAX_DEPTH) return undefined;
    return withParameters(page.request, { page: String(pageNumber + 1) });
  }

  /**
   * GET /works/doi:<doi> or /works/pmid:<pmid>; an unknown id answers 404 with an HTML page. A PMCID is not asked:
   * the docs name a `pmcid` short form without saying how its value is written, and users report it answering 404 in
   * both spellings, a "not known" that would make a paper other providers could not reach look missing.
   */
  override buildLookupRequest(identifier: PaperIdentifier): UpstreamRequest | undefined {
    const externalId =
      identifier.type === 'doi' ? prefixed('doi', normalizeDoi(identifier.value))
      : identifier.type === 'pmid' ? prefixed('pmid', normalizePmid(identifier.value))
      : undefined;
    if (!externalId) return undefined;
    const url = this.endpointUnder('/works/', externalId);
    url.searchParams.set('select', SELECT);
    const mailto = this.credential('OPENALEX_MAILTO');
    if (mailto) url.searchParams.set('mailto', mailto);
    return { url: url.toString(), headers: { Accept: 'application/json' }, acceptStatuses: [404] };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    // Only a lookup accepts 404: no such work in OpenAlex.
    if (response.status === 404) return { items: [] };
    const body = parseJsonObject(response);
    // An entry that is not a work (null) is skipped; the others are still the answer.
    if (Array.isArray(body.results)) return { items: answerItems(body.results.length, itemsOf(body.results, toItem)) };
    if (body.error !== undefined || body.message !== undefined) throw upstreamError(errorEnvelopeMessage(body, ERROR_BODIES) ?? 'OpenAlex reported an error');
    // A lookup (GET /works/W…) answers with the work itself.
    if (typeof body.id === 'string' && /openalex\.org\/W\d+$/i.test(body.id)) return { items: answerItems(1, itemsOf([body], toItem)) };
    throw parseError('the body has neither results nor a work');
  }

  override describeError(response: UpstreamResponse): string | undefined {
    // The 404 for an unknown work is an HTML page: the status says enough.
    return describeJsonError(response, ERROR_BODIES);
  }
}

/** What `search` refuses: a `*` or `?` in any word, the `?` of a question (`what is 1/2?`, `why?`) among them. */
const WILDCARD = /[*?]/;
/** The wildcards, with the `-` after those that start a term (`*-algebra`): left alone there, it would start one. */
const WILDCARDS = /(?<!\S)[*?]+-+|[*?]+/g;

const ONLY_WILDCARDS = 'the query has no words OpenAlex can search for (it refuses the wildcards * and ?, which are left out)';

/**
 * The text without `*` and `?`. OpenAlex's `search` answers 400 ("Wildcards (* or ?) require exact (no-stem) search")
 * for a word holding either outside a quoted phrase, and for one inside a phrase that is not the whole search (as
 * NOT's rewrite makes it); its docs said for years that these characters are removed from any search. Taken out here,
 * `why?` and `1/2?` are searched as `why` and `1/2` rather than failing; a wildcard typed on purpose (`machin*`) is
 * searched as its word, as the old API did. Deleted, not made spaces: `C*-algebra` as `C -algebra` would exclude a word;
 * for the same reason a `-` after wildcards that start a term goes with them (`*-algebra` is `algebra`, not `-algebra`,
 * which would be sent as NOT algebra). What they leave with no word, as every provider reads one (noWordProblem: `"*"`
 * leaves `""`, `?!` leaves `!`), is nothing to search for: '' (ONLY_WILDCARDS); a symbol past ASCII is a word there
 * (`€?` is `€`, as `€` is sent). Nothing changes for a text without them: the one test most queries get.
 */
function withoutWildcards(text: string): string {
  if (!WILDCARD.test(text)) return text;
  const words = text.replace(WILDCARDS, '').trim();
  return noWordProblem(words) === undefined ? words : '';
}

/** An external id in OpenAlex's short form, percent-encoded part by part with the DOI's slashes kept. */
function prefixed(prefix: string, id: string | undefined): string | undefined {
  return id === undefined ? undefined : `${prefix}:${encodePathSegments(id)}`;
}

/** How many works a search page listed, unreadable ones included (parseResponse found `results` a list). */
function listedWorks(response: UpstreamResponse): number {
  return listedCount(parseJsonObject(response).results);
}

function toItem(work: Record<string, unknown>): ProviderItem | undefined {
  const ids = isRecord(work.ids) ? work.ids : {};
  const primary = isRecord(work.primary_location) ? work.primary_location : {};
  const bestOpen = isRecord(work.best_oa_location) ? work.best_oa_location : {};
  const openAccess = isRecord(work.open_access) ? work.open_access : {};
  const doi = normalizeDoi(work.doi) ?? normalizeDoi(ids.doi);
  const venue = isRecord(primary.source) ? text(primary.source.display_name) : undefined;
  const arxiv = arxivId(doi, primary.landing_page_url);
  const openalexId = typeof work.id === 'string' ? /W\d+$/.exec(work.id)?.[0] : undefined;
  const url =
    (doi ? doiUrl(doi) : undefined) ??
    httpUrl(primary.landing_page_url) ??
    httpUrl(work.id) ??
    (openalexId ? `https://openalex.org/${openalexId}` : undefined);
  const title = text(work.display_name) ?? text(work.title) ?? fallbackTitle(venue, doi, openalexId);
  // With neither a link nor a title there is nothing to show or search for: not a result (a search for "" was made).
  const shown = title ?? url;
  if (shown === undefined) return undefined;
  const authors = asArray(work.authorships)
    .filter(isRecord)
    .map((authorship) => (isRecord(authorship.author) ? text(authorship.author.display_name) : undefined) ?? text(authorship.raw_author_name))
    .filter((name): name is string => name !== undefined);
  const isOpen = typeof openAccess.is_oa === 'boolean' ? openAccess.is_oa : undefined;
  const extra = extraFields({ openalex_id: openalexId, type: text(work.type), open_access: isOpen });
  const abstract = rebuildAbstract(work.abstract_inverted_index);
  return compact({
    title: shown,
    // An OpenAlex work always has an id; the search link only keeps a malformed record visible.
    url: url ?? `https://openalex.org/works?search=${encodeURIComponent(shown)}`,
    // The abstract's start, cut at a word, as arXiv, PubMed and Semantic Scholar give it: what a reader sees of the work.
    snippet: abstract ? snippetOf(abstract) : undefined,
    authors: authors.length > 0 ? authors : undefined,
    year: yearFrom(work.publication_year) ?? yearFrom(work.publication_date),
    published_at: publicationDate(work.publication_date),
    venue,
    abstract,
    doi,
    arxiv_id: arxiv,
    // ids.pmid is a PubMed link (https://pubmed.ncbi.nlm.nih.gov/<pmid>).
    pmid: normalizePmid(ids.pmid),
    pdf_url: openPdfUrl(work, bestOpen, openAccess, arxiv),
    citation_count: numberOrUndefined(work.cited_by_count),
    extra,
  });
}

/**
 * OpenAlex fills in January 1st where its source gave only the year: a preprint posted to arXiv in April 2023
 * (2304.05376) comes dated 2023-01-01. A `YYYY-01-01` date therefore vouches for its year alone, and is given as
 * that year, which is less precise for the few works really published on January 1st but never wrong.
 */
function publicationDate(value: unknown): string | undefined {
  const date = isoDate(value);
  return date !== undefined && /^\d{4}-01-01$/.test(date) ? date.slice(0, 4) : date;
}

/** A work without a title (some datasets, paratext) is still shown: by its venue and DOI, or its OpenAlex id. */
function fallbackTitle(venue: string | undefined, doi: string | undefined, openalexId: string | undefined): string | undefined {
  if (venue && doi) return `${venue} (${doi})`;
  return venue ?? doi ?? (openalexId ? `OpenAlex work ${openalexId}` : undefined);
}

/**
 * The PDF a reader can open, best first: the best open location's, else the first other open location's (OpenAlex
 * may pick arXiv's abstract page as best while the next location is the same copy's PDF), else oa_url when it names
 * a PDF, else arXiv's PDF of an arXiv paper. A location's is_oa says its full text needs no payment or log-in: the
 * PDF of a closed one (a publisher's, often the primary location) is a paywall, not a link to read.
 */
function openPdfUrl(
  work: Record<string, unknown>,
  bestOpen: Record<string, unknown>,
  openAccess: Record<string, unknown>,
  arxiv: string | undefined,
): string | undefined {
  const openLocation = asArray(work.locations).find(
    (location) => isRecord(location) && location.is_oa === true && httpUrl(location.pdf_url) !== undefined,
  );
  return (
    httpUrl(bestOpen.pdf_url) ??
    (isRecord(openLocation) ? httpUrl(openLocation.pdf_url) : undefined) ??
    pdfOnly(openAccess.oa_url) ??
    arxivPdfUrl(arxiv)
  );
}

/** `oa_url` is often a landing page (arxiv.org/abs/…); only a link that names a PDF is a pdf_url. */
function pdfOnly(value: unknown): string | undefined {
  const url = httpUrl(value);
  return url && /(\.pdf($|[?#])|\/pdf\/)/i.test(url) ? url : undefined;
}

function arxivId(doi: string | undefined, landingPage: unknown): string | undefined {
  return arxivIdFromDoi(doi) ?? (typeof landingPage === 'string' && /arxiv\.org\//i.test(landingPage) ? normalizeArxivId(landingPage) : undefined);
}

/** OpenAlex ships abstracts as {word: [positions]}; the text is the words put back in position order. */
function rebuildAbstract(index: unknown): string | undefined {
  if (!isRecord(index)) return undefined;
  const placed: Array<[number, string]> = [];
  for (const [word, positions] of Object.entries(index)) {
    for (const position of asArray(positions)) {
      if (typeof position === 'number' && Number.isInteger(position) && position >= 0) placed.push([position, word]);
    }
  }
  if (placed.length === 0) return undefined;
  placed.sort((a, b) => a[0] - b[0]);
  // Abstracts indexed from publisher pages often begin with their own heading word.
  return text(placed.map(([, word]) => word).join(' ').replace(/^abstract[.:]?\s+/i, ''));
}
