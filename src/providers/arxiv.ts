import { FedsearchError, invalidQuery, parseError, upstreamError } from '../domain/errors.js';
import { arxivIdFromDoi, normalizeArxivId, normalizeDoi } from '../domain/paper-identifiers.js';
import type { SearchFilters, SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { arxivSearchQuery, arxivTerms } from './arxiv-query.js';
import { describePlainTextError } from './error-envelope.js';
import {
  answerItems,
  asArray,
  compact,
  httpUrl,
  isoDate,
  isRecord,
  itemsOf,
  parseXmlBody,
  plainXmlText,
  snippetOf,
  xmlText,
  yearFrom,
} from './parse-helpers.js';
import {
  Provider,
  type PaperIdentifier,
  type ParseOutcome,
  type ProviderSettings,
  type UpstreamRequest,
  type UpstreamResponse,
} from './provider.js';

/** arXiv serves at most this many entries per request. */
const MAX_RESULTS = 2000;

/**
 * arXiv API: GET /api/query?search_query=…&start=0&max_results=N (search) or ?id_list=<id>&max_results=1 (one
 * paper), answered with an Atom feed.
 * https://info.arxiv.org/help/api/user-manual.html
 */
export class ArxivProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'arxiv',
    kind: 'papers',
    description: 'arXiv preprints (physics, mathematics, computer science, biology, finance, statistics) with abstracts and PDF links.',
    baseUrl: 'https://export.arxiv.org',
    credentials: [],
    filters: ['year_from', 'year_to', 'open_access'],
    // arXiv API terms of use: no more than one request every three seconds.
    rateLimit: '1/3s',
  };
  readonly settings = ArxivProvider.settings;

  /**
   * A query of operators and punctuation alone gives arXiv nothing to search: skipped, not sent to fail. (One with no
   * word at all, `(` or `AND "`, every provider skips before it is asked: provider-pipeline.ts.)
   */
  override queryProblem(text: string): string | undefined {
    return (arxivTerms(text).groups.length === 0 ? NO_SEARCHABLE_WORDS : undefined);
  }

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const url = this.endpoint('/api/query');
    url.searchParams.set('search_query', searchQuery(query.text, query.filters));
    url.searchParams.set('start', '0');
    url.searchParams.set('max_results', String(Math.min(query.limit, MAX_RESULTS)));
    return { url: url.toString(), headers: { Accept: 'application/atom+xml' } };
  }

  /**
   * An arXiv id (or an arXiv DOI) as `id_list`: the feed then holds that one paper, or no entry for an
   * unknown id. Other DOIs are not looked up: `search_query=doi:` misses papers whose DOI arXiv lacks.
   */
  override buildLookupRequest(identifier: PaperIdentifier): UpstreamRequest | undefined {
    const id =
      identifier.type === 'arxiv' ? normalizeArxivId(identifier.value)
      : identifier.type === 'doi' ? arxivIdFromDoi(identifier.value)
      : undefined;
    if (!id) return undefined;
    const url = this.endpoint('/api/query');
    url.searchParams.set('id_list', id);
    url.searchParams.set('max_results', '1');
    return { url: url.toString(), headers: { Accept: 'application/atom+xml' } };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    // When throttling, arXiv answers with this bare text instead of a feed.
    if (/^\s*rate exceeded/i.test(response.body)) throw new FedsearchError('PROVIDER_RATE_LIMITED', 'arXiv: rate exceeded');
    const document = parseXmlBody(response);
    const feed = document.feed;
    if (!isRecord(feed) && feed !== '') throw parseError('expected an Atom feed');
    // A feed with zero results has no <entry> at all.
    const entries = isRecord(feed) ? asArray(feed.entry) : [];
    const failure = entries.find(isErrorEntry);
    if (failure) throw upstreamError(`arXiv: ${errorSummary(failure) ?? 'error feed'}`);
    // An entry without an id or a link is skipped; the others are still the answer.
    return { items: answerItems(entries.length, itemsOf(entries, toItem)) };
  }

  override describeError(response: UpstreamResponse): string | undefined {
    try {
      const feed = parseXmlBody(response).feed;
      const failure = isRecord(feed) ? asArray(feed.entry).find(isErrorEntry) : undefined;
      return failure ? errorSummary(failure) : undefined;
    } catch {
      // Not a feed: a short plain-text body ("Rate exceeded.") still says what happened.
      return describePlainTextError(response);
    }
  }
}

/** The search_query for the user's text (arxiv-query.ts), with a year range as a submittedDate clause. */
function searchQuery(text: string, filters: SearchFilters): string {
  const terms = arxivTerms(text);
  if (terms.groups.length === 0) throw invalidQuery(NO_SEARCHABLE_WORDS);
  const { year_from: yearFromFilter, year_to: yearTo } = filters;
  // arXiv opened in 1991; submittedDate takes YYYYMMDDHHMM bounds in GMT.
  const dates = yearFromFilter === undefined && yearTo === undefined ? [] : [`submittedDate:[${yearFromFilter ?? 1991}01010000 TO ${yearTo ?? 9999}12312359]`];
  return arxivSearchQuery(terms, dates);
}

/** Also for excluded words alone (`-vision`): arXiv needs a word to match before ANDNOT can leave any out. */
const NO_SEARCHABLE_WORDS = 'the query has no words arXiv can search for';

/** arXiv reports a bad query as a feed whose only entry has an id under /api/errors. */
function isErrorEntry(entry: unknown): entry is Record<string, unknown> {
  return isRecord(entry) && /arxiv\.org\/api\/errors/i.test(xmlText(entry.id) ?? '');
}

function errorSummary(entry: Record<string, unknown>): string | undefined {
  return plainXmlText(entry.summary) ?? plainXmlText(entry.title);
}

function toItem(entry: Record<string, unknown>): ProviderItem | undefined {
  const links = asArray(entry.link).filter(isRecord);
  const linkWhere = (test: (link: Record<string, unknown>) => boolean): string | undefined =>
    httpUrl(links.find(test)?.['@_href']);
  const arxivId = normalizeArxivId(xmlText(entry.id));
  const url = (arxivId ? `https://arxiv.org/abs/${arxivId}` : undefined)
    ?? linkWhere((link) => link['@_rel'] === 'alternate')
    ?? httpUrl(xmlText(entry.id));
  if (!url) return undefined;
  const abstract = plainXmlText(entry.summary);
  const published = xmlText(entry.published);
  const authors = asArray(entry.author)
    .map((author) => (isRecord(author) ? plainXmlText(author.name) : undefined))
    .filter((name): name is string => name !== undefined);
  const primaryCategory = isRecord(entry.primary_category) ? plainXmlText(entry.primary_category['@_term']) : undefined;
  return compact({
    title: plainXmlText(entry.title) ?? url,
    url,
    snippet: abstract ? snippetOf(abstract) : undefined,
    published_at: isoDate(published),
    authors: authors.length > 0 ? authors : undefined,
    year: yearFrom(published),
    venue: plainXmlText(entry.journal_ref),
    abstract,
    // arxiv:doi may list several DOIs separated by spaces; the first is the article's own.
    doi: (plainXmlText(entry.doi) ?? '').split(' ').map(normalizeDoi).find(Boolean),
    arxiv_id: arxivId,
    pdf_url: linkWhere((link) => link['@_title'] === 'pdf' || link['@_type'] === 'application/pdf'),
    extra: primaryCategory ? { primary_category: primaryCategory } : undefined,
  });
}
