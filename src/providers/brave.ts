import { FedsearchError } from '../domain/errors.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import type { TimeRange } from '../domain/time-range.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage } from './error-envelope.js';
import { asArray, compact, httpUrl, isoDate, isRecord, parseJsonObject, text } from './parse-helpers.js';
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

/** Brave: `{"type": "ErrorResponse", "error": {"code", "detail"}}`. */
const ERROR_BODIES = [ERROR_ENVELOPES.errorObject];

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
  };
  readonly settings = BraveProvider.settings;

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const url = this.endpoint('/res/v1/web/search');
    url.searchParams.set('q', query.text);
    url.searchParams.set('count', String(Math.min(query.limit, MAX_COUNT)));
    url.searchParams.set('offset', '0');
    const { time_range: timeRange, language, safesearch } = query.filters;
    if (timeRange) url.searchParams.set('freshness', FRESHNESS[timeRange]);
    if (language) url.searchParams.set('search_lang', language);
    if (safesearch) url.searchParams.set('safesearch', safesearch);
    return {
      url: url.toString(),
      headers: { Accept: 'application/json', 'X-Subscription-Token': this.credential('BRAVE_API_KEY') ?? '' },
    };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const body = parseJsonObject(response);
    if (body.type === 'ErrorResponse') throw new FedsearchError('PROVIDER_UPSTREAM', errorEnvelopeMessage(body, ERROR_BODIES) ?? 'error response');
    // Web results first, then news and videos sections Brave mixes into a web search.
    const sections = ['web', 'news', 'videos'].flatMap((section) => {
      const value = body[section];
      return isRecord(value) ? asArray(value.results) : [];
    });
    return { items: sections.filter(isRecord).map(toItem).filter((item): item is ProviderItem => item !== undefined) };
  }

  /** The next page of `count` results; Brave says in `query.more_results_available` whether there is one. */
  override nextPageRequest(_query: SearchQuery, page: PageRead): UpstreamRequest | undefined {
    const offset = numberParameter(page.request, 'offset', 0);
    const body = parseJsonObject(page.response);
    const moreAvailable = isRecord(body.query) ? body.query.more_results_available : undefined;
    const webResults = isRecord(body.web) ? asArray(body.web.results).length : 0;
    if (moreAvailable === false || webResults < numberParameter(page.request, 'count', MAX_COUNT) || offset >= MAX_OFFSET) return undefined;
    return withParameters(page.request, { offset: String(offset + 1) });
  }

  override describeError(response: UpstreamResponse): string | undefined {
    return describeJsonError(response, ERROR_BODIES);
  }
}

function toItem(result: Record<string, unknown>): ProviderItem | undefined {
  const url = httpUrl(result.url);
  if (!url) return undefined;
  const extraSnippets = asArray(result.extra_snippets).map(text).filter(Boolean);
  return compact({
    title: text(result.title) ?? url,
    url,
    snippet: text(result.description) ?? (extraSnippets.length > 0 ? extraSnippets.join(' … ') : undefined),
    published_at: isoDate(result.page_age) ?? isoDate(result.age),
  });
}
