import { entriesWithoutWww } from '../domain/domain-entry.js';
import { parseError, upstreamError } from '../domain/errors.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage } from './error-envelope.js';
import { markdownText } from './markdown-text.js';
import { answerItems, httpUrl, isoDate, itemsOf, parseJsonObject, text, webItem } from './parse-helpers.js';
import { Provider, type ParseOutcome, type ProviderSettings, type Refusal, type UpstreamRequest, type UpstreamResponse } from './provider.js';

/** Tavily (FastAPI): `{"detail": {"error"}}` or `{"detail": "…"}`; an `error` object or string otherwise. */
const ERROR_BODIES = [ERROR_ENVELOPES.detail, ERROR_ENVELOPES.errorObject, ERROR_ENVELOPES.errorString];
/** Tavily's own statuses: 432, the plan's (or the key's) credit limit reached; 433, the pay-as-you-go limit reached. */
const LIMIT_STATUSES: ReadonlySet<number> = new Set([432, 433]);

/**
 * Tavily search API: POST /search with a JSON body, key as a Bearer token.
 * https://docs.tavily.com/documentation/api-reference/endpoint/search
 */
export class TavilyProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'tavily',
    kind: 'web',
    description: 'Tavily web search built for AI agents: ranked pages with extracted content.',
    baseUrl: 'https://api.tavily.com',
    credentials: [{ env: 'TAVILY_API_KEY', required: true, secret: true }],
    filters: ['time_range', 'include_domains', 'exclude_domains'],
    weight: 1.2,
    // Tavily, development key: 100 requests per minute (a production key allows 1,000).
    rateLimit: '100/min',
    // "Query is too long. Max query length is 400 characters." (400; Tavily's best-practices page says the same).
    maxQueryLength: 400,
  };
  readonly settings = TavilyProvider.settings;
  /** The same for every request: built once, from a configuration that never changes. */
  private readonly requestHeaders: Readonly<Record<string, string>> = Object.freeze({
    Accept: 'application/json',
    'Content-Type': 'application/json',
    Authorization: `Bearer ${this.credential('TAVILY_API_KEY') ?? ''}`,
  });

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const { time_range: timeRange, include_domains: includeDomains, exclude_domains: excludeDomains } = query.filters;
    // JSON.stringify leaves out the fields that are undefined.
    const body = {
      query: query.text,
      // Tavily serves at most 20 results per request.
      max_results: Math.min(query.limit, 20),
      search_depth: 'basic',
      topic: 'general',
      time_range: timeRange,
      // Without `www.`, as fedsearch reads an entry (withoutWww) and keys its answer: `www.example.com` here was that host
      // alone, where the same search's filter and cached answer count all of example.com.
      include_domains: includeDomains?.length ? hostsOf(entriesWithoutWww(includeDomains)) : undefined,
      exclude_domains: excludeDomains?.length ? wholeHosts(entriesWithoutWww(excludeDomains)) : undefined,
    };
    return { url: this.endpointAddress('/search'), method: 'POST', headers: this.requestHeaders, body: JSON.stringify(body) };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const body = parseJsonObject(response);
    if (!Array.isArray(body.results)) {
      const error = errorEnvelopeMessage(body, ERROR_BODIES);
      throw error ? upstreamError(error) : parseError('expected a results list');
    }
    return { items: answerItems(body.results.length, itemsOf(body.results, toItem)) };
  }

  override describeError(response: UpstreamResponse): string | undefined {
    return describeJsonError(response, ERROR_BODIES);
  }

  override refusalOf(response: UpstreamResponse): Refusal | undefined {
    return LIMIT_STATUSES.has(response.status) ? 'quota' : undefined;
  }
}

/**
 * Tavily documents domains only: an entry with a path (`docs.example.com/guide`) is sent as its host, and the engine
 * keeps the results under the path (engine/filters.ts upstreamFilters; domainPaths is not set).
 */
function hostsOf(entries: readonly string[]): readonly string[] {
  if (!entries.some((entry) => entry.includes('/'))) return entries;
  return [...new Set(entries.map((entry) => entry.split('/', 1)[0]!))];
}

/** The entries that exclude a whole host: excluding the host of `docs.example.com/private` would drop all of it. */
function wholeHosts(entries: readonly string[]): string[] | undefined {
  const hosts = entries.filter((entry) => !entry.includes('/'));
  return hosts.length > 0 ? hosts : undefined;
}

function toItem(result: Record<string, unknown>): ProviderItem | undefined {
  const url = httpUrl(result.url);
  if (!url) return undefined;
  // published_date is sent for topic "news" only, as an RFC 1123 date ("Wed, 15 May 2024 13:41:03 GMT").
  // content is Markdown cut from the page (`## Heading`, `**bold**`, links): the snippet keeps its words only.
  return webItem(text(result.title) ?? url, url, markdownText(result.content), isoDate(result.published_date));
}
