import { invalidQuery, parseError, upstreamError } from '../domain/errors.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { timeRangeStart } from '../domain/time-range.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage } from './error-envelope.js';
import { NO_WORD_TO_SEARCH, minusQuery, minusQueryProblem } from './excluded-terms.js';
import { answerItems, compact, extraFields, httpUrl, isoDate, itemsOf, listedCount, numberOrUndefined, parseJsonObject, text } from './parse-helpers.js';
import {
  Provider,
  numberParameter,
  withParameters,
  type PageRead,
  type ParseOutcome,
  type ProviderSettings,
  type UpstreamRequest,
  type UpstreamResponse,
} from './provider.js';

/** Algolia: `{"message", "status"}`. */
const ERROR_BODIES = [ERROR_ENVELOPES.message];

/** Algolia serves up to 1000 hits per page; fedsearch asks for 100 at a time and reads further pages by `page`… */
const MAX_HITS = 100;
/** …within the first 1,000 hits of a search (Algolia's default pagination limit). */
const MAX_DEPTH = 1000;

/**
 * Algolia refuses a `query` of 512 bytes or more with 400 ("Invalid value for "query" parameter, expected string shorter
 * than QUERY_ARGUMENTS_LIMIT_QUERY_MAX_LEN bytes"), and HN Search hands Algolia's 400s on as they are.
 */
const MAX_QUERY_BYTES = 511;
const QUERY_BYTES_HINT = 'an accented letter takes two, a CJK character three, an emoji four';

/**
 * The query as Algolia reads it (advancedSyntax, which HN Search turns on: quoted phrases and `-word`, nothing else):
 * `NOT word` is sent `-word`, and an AND is left out (`rust AND -crab` is `rust -crab`), as Algolia would search for
 * them as words. So is an OR, wherever it is (`rust OR` too): Algolia has no OR, and requires every word of a query,
 * so `rust OR go` asked for stories holding all three; without it, for stories holding both words (Algolia's
 * `optionalWords`, which could make them alternatives, is no parameter HN Search documents). The text is read closed
 * first, as YouTube's is (minusQuery): `rust (NOT crab)` is `rust -crab`; and sent without group parentheses, which
 * Algolia does not read (`(rust OR zig) wasm` is `rust zig wasm`). Empty for a text with no word.
 */
function algoliaQuery(typed: string): string {
  return minusQuery(typed, ' ');
}

/**
 * Hacker News search by Algolia: GET /api/v1/search?query=&tags=story, no key. Of the numeric filters only
 * created_at_i is accepted today (points/num_comments are rejected with a 400). https://hn.algolia.com/api
 */
export class HackerNewsProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'hackernews',
    kind: 'web',
    description: 'Hacker News stories (Algolia HN Search; every word must match: OR is read as AND).',
    baseUrl: 'https://hn.algolia.com',
    envAliases: ['HACKER_NEWS'],
    credentials: [],
    filters: ['time_range'],
    // Algolia HN Search API: 10,000 requests per hour per IP address.
    rateLimit: '10000/h',
  };
  readonly settings = HackerNewsProvider.settings;

  /**
   * Algolia counts its query in UTF-8 bytes, not characters: 171 characters of Japanese, or 256 of Cyrillic, reach its
   * limit, where fedsearch takes 500 characters. Such a query is skipped with the reason, not sent to come back 400;
   * so is one of excluded terms Algolia cannot exclude alone (`NOT -40`), which left out leave nothing to search.
   */
  override queryProblem(text: string): string | undefined {
    const unexcludable = minusQueryProblem(text, ' ', 'Hacker News');
    if (unexcludable !== undefined) return unexcludable;
    // A UTF-16 unit is at most three bytes in UTF-8 (a surrogate pair, two units, is four): nearly every query stops here.
    if (text.length * 3 <= MAX_QUERY_BYTES) return undefined;
    const bytes = Buffer.byteLength(algoliaQuery(text), 'utf8');
    return bytes > MAX_QUERY_BYTES ? `accepts queries of at most ${MAX_QUERY_BYTES} bytes in UTF-8 (${QUERY_BYTES_HINT}); this one has ${bytes}` : undefined;
  }

  override buildRequest(query: SearchQuery, now = Date.now()): UpstreamRequest {
    const text = algoliaQuery(query.text);
    if (text === '') throw invalidQuery(NO_WORD_TO_SEARCH);
    const url = this.endpoint('/api/v1/search');
    url.searchParams.set('query', text);
    url.searchParams.set('tags', 'story');
    url.searchParams.set('hitsPerPage', String(Math.min(query.limit, MAX_HITS)));
    const timeRange = query.filters.time_range;
    if (timeRange) {
      const since = Math.floor(timeRangeStart(timeRange, now) / 1000);
      url.searchParams.set('numericFilters', `created_at_i>${since}`);
    }
    return { url: url.toString(), headers: { Accept: 'application/json' } };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const body = parseJsonObject(response);
    if (!Array.isArray(body.hits)) {
      if (body.message !== undefined) throw upstreamError(errorEnvelopeMessage(body, ERROR_BODIES) ?? 'HN Search reported an error');
      throw parseError('the body has no hits');
    }
    // A hit that is not an object (null) is skipped; the others are still the answer.
    return { items: answerItems(body.hits.length, itemsOf(body.hits, toItem)) };
  }

  /** The next `page` (from 0) of `hitsPerPage` hits, while the page was full and Algolia has pages left (`nbPages`). */
  override nextPageRequest(_query: SearchQuery, page: PageRead): UpstreamRequest | undefined {
    const hitsPerPage = numberParameter(page.request, 'hitsPerPage', MAX_HITS);
    const next = numberParameter(page.request, 'page', 0) + 1;
    const body = parseJsonObject(page.response);
    const pages = numberOrUndefined(body.nbPages) ?? Number.POSITIVE_INFINITY;
    // The hits listed, not those read: a hit skipped as unreadable does not make a full page look like the last.
    const listed = listedCount(body.hits);
    if (listed < hitsPerPage || next >= pages || (next + 1) * hitsPerPage > MAX_DEPTH) return undefined;
    return withParameters(page.request, { page: String(next) });
  }

  override describeError(response: UpstreamResponse): string | undefined {
    return describeJsonError(response, ERROR_BODIES);
  }
}

function discussionUrl(id: unknown): string | undefined {
  const digits = typeof id === 'number' ? String(id) : typeof id === 'string' ? id.trim() : '';
  return /^\d+$/.test(digits) ? `https://news.ycombinator.com/item?id=${digits}` : undefined;
}

/** HN text is HTML with bare `<p>` between paragraphs; they become spaces so the words do not run together. */
function htmlSnippet(value: unknown): string | undefined {
  // `[^<>]`, not `[^>]`: from each of many unclosed `<p`, that would read on to the next `>` (quadratic time).
  return typeof value === 'string' ? text(value.replace(/<\/?(p|br)\b[^<>]*>/gi, ' ')) : undefined;
}

function toItem(hit: Record<string, unknown>): ProviderItem | undefined {
  const hnUrl = discussionUrl(hit.objectID) ?? discussionUrl(hit.story_id);
  // Ask HN, Show HN without a link and comments have no url of their own: their HN page is the result.
  const title = text(hit.title) ?? text(hit.story_title);
  // Without a link, an id or a title there is nothing to show or search for: not a result.
  const url = httpUrl(hit.url) ?? hnUrl ?? (title === undefined ? undefined : `https://hn.algolia.com/?query=${encodeURIComponent(title)}`);
  if (url === undefined) return undefined;
  const extra = extraFields({
    points: numberOrUndefined(hit.points),
    num_comments: numberOrUndefined(hit.num_comments),
    author: text(hit.author),
    hn_url: hnUrl,
  });
  return compact({
    title: title ?? url,
    url,
    // story_text is "" on link stories and HTML on text posts; comment_text is HTML.
    snippet: htmlSnippet(hit.story_text) ?? htmlSnippet(hit.comment_text),
    published_at: isoDate(hit.created_at) ?? isoDate(numberOrUndefined(hit.created_at_i)),
    extra,
  });
}
