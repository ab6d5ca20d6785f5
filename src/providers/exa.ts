import { cutText } from '../domain/cut-text.js';
import { entriesWithoutWww } from '../domain/domain-entry.js';
import { parseError, upstreamError } from '../domain/errors.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { timeRangeStart } from '../domain/time-range.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage } from './error-envelope.js';
import { markdownText } from './markdown-text.js';
import { answerItems, asArray, httpUrl, isoDate, itemsOf, parseJsonObject, text, webItem } from './parse-helpers.js';
import { Provider, type ParseOutcome, type ProviderSettings, type Refusal, type UpstreamRequest, type UpstreamResponse } from './provider.js';

/** Exa: `{"requestId", "error": "x-api-key header is invalid"}`. */
const ERROR_BODIES = [ERROR_ENVELOPES.errorString, ERROR_ENVELOPES.errorObject];

/** Highlights and page text can run to thousands of characters; a snippet is a preview. */
const MAX_SNIPPET_CHARS = 500;

/**
 * Exa neural web search: POST /search with a JSON body, key in x-api-key. Exa answers a bad key with 400.
 * https://docs.exa.ai/reference/search
 */
export class ExaProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'exa',
    kind: 'web',
    description: 'Exa neural web search: pages found by meaning, with query-relevant highlights.',
    baseUrl: 'https://api.exa.ai',
    credentials: [{ env: 'EXA_API_KEY', required: true, secret: true }],
    filters: ['time_range', 'include_domains', 'exclude_domains'],
    // includeDomains / excludeDomains take a path too ("example.com/blog").
    domainPaths: true,
    // Exa's default for /search: 10 queries per second.
    rateLimit: '10/s',
  };
  readonly settings = ExaProvider.settings;
  /** The same for every request: built once, from a configuration that never changes. */
  private readonly requestHeaders: Readonly<Record<string, string>> = Object.freeze({
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'x-api-key': this.credential('EXA_API_KEY') ?? '',
  });

  override buildRequest(query: SearchQuery, now = Date.now()): UpstreamRequest {
    const { time_range: timeRange, include_domains: includeDomains, exclude_domains: excludeDomains } = query.filters;
    // JSON.stringify leaves out the fields that are undefined.
    const body = {
      query: query.text,
      type: 'auto',
      // Exa serves at most 100 results per request.
      numResults: Math.min(query.limit, 100),
      contents: { highlights: true },
      startPublishedDate: timeRange ? new Date(timeRangeStart(timeRange, now)).toISOString() : undefined,
      // Without `www.`, as fedsearch reads an entry (withoutWww) and keys its answer: `www.example.com` here was that host
      // alone, where the same search's filter and cached answer count all of example.com.
      includeDomains: includeDomains?.length ? entriesWithoutWww(includeDomains) : undefined,
      excludeDomains: excludeDomains?.length ? entriesWithoutWww(excludeDomains) : undefined,
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

  /** Exa answers a bad or missing key with 400 ("x-api-key header is invalid"), not 401. */
  override refusalOf(response: UpstreamResponse, described: string | undefined): Refusal | undefined {
    return response.status === 400 && /api[- _]?key/i.test(described ?? '') ? 'credentials' : undefined;
  }
}

function toItem(result: Record<string, unknown>): ProviderItem | undefined {
  // `id` is the page URL too; it stands in if `url` is ever missing.
  const url = httpUrl(result.url) ?? httpUrl(result.id);
  if (!url) return undefined;
  // Highlights and text are page extracts in Markdown: the snippet keeps their words, not their syntax.
  const snippet = markdownText(result.summary) ?? highlightsOf(result) ?? markdownText(result.text);
  // Exa sends null or "" for pages without a title.
  return webItem(text(result.title) ?? url, url, snippet === undefined ? undefined : shorten(snippet, MAX_SNIPPET_CHARS), isoDate(result.publishedDate));
}

/** The highlights joined, for a result without a summary; undefined when there are none. */
function highlightsOf(result: Record<string, unknown>): string | undefined {
  const highlights = asArray(result.highlights).map(markdownText).filter(Boolean);
  return highlights.length > 0 ? highlights.join(' … ') : undefined;
}

/**
 * Cuts at the last word break before `max` characters and marks the cut. Not the shared `snippetOf`: Exa's
 * previews run to 500 characters, and the spaced " …" matches the " … " that joins its highlights.
 */
function shorten(value: string, max: number): string {
  return value.length <= max ? value : cutText(value, max, ' …');
}
