import { upstreamError } from '../domain/errors.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import type { TimeRange } from '../domain/time-range.js';
import { braveSearchLanguage } from './brave-language.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage, jsonErrorBody } from './error-envelope.js';
import { notWordsInLowerCase } from './excluded-terms.js';
import { answerItems, asArray, httpUrl, isoDate, isRecord, itemsOf, parseJsonObject, text, webItem } from './parse-helpers.js';
import {
  Provider,
  numberParameter,
  withParameters,
  type PageRead,
  type ParseOutcome,
  type ProviderSettings,
  type Refusal,
  type UpstreamRequest,
  type UpstreamResponse,
} from './provider.js';

/** Brave: `{"type": "ErrorResponse", "error": {"code", "detail"}}`. */
const ERROR_BODIES = [ERROR_ENVELOPES.errorObject];

/** Web results first, then the news and videos sections Brave mixes into a web search. */
const SECTIONS = ['web', 'news', 'videos'] as const;

/** Brave's names for the time ranges: past day, week, month, year. */
const FRESHNESS: Readonly<Record<TimeRange, string>> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };
/** Brave serves at most 20 web results per request… */
const MAX_COUNT = 20;
/** …and `offset` counts pages of `count` results, from 0 to 9 at most. */
const MAX_OFFSET = 9;

/**
 * Brave Search web API: GET /res/v1/web/search, key in X-Subscription-Token.
 * https://api-dashboard.search.brave.com/app/documentation/web-search/get-started
 */
export class BraveProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'brave',
    kind: 'web',
    description: 'Brave Search web results (independent index).',
    baseUrl: 'https://api.search.brave.com',
    credentials: [{ env: 'BRAVE_API_KEY', required: true, secret: true }],
    filters: ['time_range', 'language', 'safesearch'],
    // Brave Search API, Free plan: 1 query per second.
    rateLimit: '1/s',
    // `q`: "Maximum of 400 characters and 50 words in the query" (Web Search API, query parameters).
    maxQueryLength: 400,
    maxQueryWords: 50,
    // Brave's search operators: site: and -site: narrow the results upstream.
    siteOperator: true,
  };
  readonly settings = BraveProvider.settings;
  /** The same for every request: built once, from a configuration that never changes. */
  private readonly requestHeaders: Readonly<Record<string, string>> = Object.freeze({
    Accept: 'application/json',
    'X-Subscription-Token': this.credential('BRAVE_API_KEY') ?? '',
  });

  override buildRequest(query: SearchQuery): UpstreamRequest {
    // Brave's search operators include an upper-case NOT: one that is a word (`NOT INVENTED HERE`: notIsOperator) is
    // sent in lower case, or the search excluded the very words it was for.
    const parameters: Record<string, string> = { q: notWordsInLowerCase(query.text), count: String(Math.min(query.limit, MAX_COUNT)), offset: '0' };
    const { time_range: timeRange, language, safesearch } = query.filters;
    if (timeRange) parameters.freshness = FRESHNESS[timeRange];
    if (language) parameters.search_lang = braveSearchLanguage(language);
    if (safesearch) parameters.safesearch = safesearch;
    return { url: this.endpointWithParameters('/res/v1/web/search', parameters), headers: this.requestHeaders };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const body = parseJsonObject(response);
    if (body.type === 'ErrorResponse') throw upstreamError(errorEnvelopeMessage(body, ERROR_BODIES) ?? 'error response');
    const items: ProviderItem[] = [];
    let listed = 0;
    for (const section of SECTIONS) {
      const value = body[section];
      if (!isRecord(value)) continue;
      const results = asArray(value.results);
      listed += results.length;
      itemsOf(results, toItem, items);
    }
    return { items: answerItems(listed, items) };
  }

  /** The next page of `count` results; Brave says in `query.more_results_available` whether there is one. */
  override nextPageRequest(_query: SearchQuery, page: PageRead): UpstreamRequest | undefined {
    // The cheap answers first: the body was parsed by parseResponse, the URL is parsed only when they allow more.
    const body = parseJsonObject(page.response);
    const moreAvailable = isRecord(body.query) ? body.query.more_results_available : undefined;
    if (moreAvailable === false) return undefined;
    const webResults = isRecord(body.web) ? asArray(body.web.results).length : 0;
    // Brave may give fewer than `count` and still have more: its own word counts first. Without it, a short
    // page is the last; an empty one always is.
    if (webResults === 0 || (moreAvailable !== true && webResults < numberParameter(page.request, 'count', MAX_COUNT))) return undefined;
    const offset = numberParameter(page.request, 'offset', 0);
    if (offset >= MAX_OFFSET) return undefined;
    return withParameters(page.request, { offset: String(offset + 1) });
  }

  override describeError(response: UpstreamResponse): string | undefined {
    return describeJsonError(response, ERROR_BODIES);
  }

  /** Brave answers a bad subscription token with 422 and the code SUBSCRIPTION_TOKEN_INVALID, not 401. */
  override refusalOf(response: UpstreamResponse): Refusal | undefined {
    const error = jsonErrorBody(response)?.error;
    return isRecord(error) && error.code === 'SUBSCRIPTION_TOKEN_INVALID' ? 'credentials' : undefined;
  }
}

function toItem(result: Record<string, unknown>): ProviderItem | undefined {
  const url = httpUrl(result.url);
  if (!url) return undefined;
  return webItem(text(result.title) ?? url, url, text(result.description) ?? extraSnippetsOf(result), isoDate(result.page_age) ?? isoDate(result.age));
}

/** The extra snippets joined, for a result without a description; undefined when there are none. */
function extraSnippetsOf(result: Record<string, unknown>): string | undefined {
  const extraSnippets = asArray(result.extra_snippets).map(text).filter(Boolean);
  return extraSnippets.length > 0 ? extraSnippets.join(' … ') : undefined;
}
