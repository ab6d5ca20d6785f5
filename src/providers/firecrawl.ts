import { boundedText } from '../domain/cut-text.js';
import { FedsearchError, parseError, upstreamError, upstreamFailure } from '../domain/errors.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import type { TimeRange } from '../domain/time-range.js';
import type { ScrapedPage, ScrapeInput } from './capabilities.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage } from './error-envelope.js';
import { markdownText } from './markdown-text.js';
import { answerItems, asArray, compact, extraFields, httpUrl, isRecord, isoDate, itemsOf, parseJsonObject, text } from './parse-helpers.js';
import { Provider, type ParseOutcome, type ProviderSettings, type UpstreamRequest, type UpstreamResponse, type UpstreamTransport } from './provider.js';

/** Firecrawl: `{"success": false, "error", "details"?}`. */
const ERROR_BODIES = [ERROR_ENVELOPES.errorString, ERROR_ENVELOPES.message];

/** Firecrawl returns at most 100 results per source. */
const MAX_LIMIT = 100;
/** Google-style time filters Firecrawl passes on (`tbs`). */
const TBS: Readonly<Record<TimeRange, string>> = { day: 'qdr:d', week: 'qdr:w', month: 'qdr:m', year: 'qdr:y' };
/** v2 groups results by source; each group is read, in this order. */
const SOURCES = ['web', 'news', 'images'] as const;
/** How much of a result's markdown stands in for a missing description. */
const SNIPPET_CHARS = 300;
/** Where a search result's link is read from when it has no `url` of its own, best first (metadataUrl). */
const RESULT_URL_KEYS = ['url', 'sourceURL', 'ogUrl', 'og:url'] as const;
/** Where a scrape landed: Firecrawl's own `url` alone (parseScrapeResponse). */
const LANDING_URL_KEYS = ['url'] as const;

/**
 * Firecrawl: POST /v2/search (web search, optionally scraped) and POST /v2/scrape (one page as markdown),
 * key as a Bearer token. https://docs.firecrawl.dev/api-reference/endpoint/search
 */
export class FirecrawlProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'firecrawl',
    kind: 'content',
    description: 'Firecrawl web search and page scraping to markdown.',
    baseUrl: 'https://api.firecrawl.dev',
    credentials: [{ env: 'FIRECRAWL_API_KEY', required: true, secret: true }],
    filters: ['time_range'],
    // Searches that scrape their results take seconds, not milliseconds.
    timeoutMs: 15_000,
    // Firecrawl, Free plan: 5 /search requests per minute (paid plans allow more: set FIRECRAWL_RATE_LIMIT).
    rateLimit: '5/min',
  };
  readonly settings = FirecrawlProvider.settings;

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const body: Record<string, unknown> = { query: query.text, limit: Math.min(query.limit, MAX_LIMIT) };
    if (query.filters.time_range) body.tbs = TBS[query.filters.time_range];
    return this.post('/v2/search', body);
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const data = successData(response);
    // v2 search answers {web: [], news: [], images: []}, a group only for sources that found something.
    if (!isRecord(data)) throw parseError('the search body has no data object');
    const items: ProviderItem[] = [];
    let listed = 0;
    for (const source of SOURCES) {
      const results = asArray(data[source]);
      listed += results.length;
      itemsOf(results, (result) => toItem(result, source), items);
    }
    return { items: answerItems(listed, items) };
  }

  /** POST /v2/scrape for one page's main content as markdown. */
  buildScrapeRequest(pageUrl: string): UpstreamRequest {
    return this.post('/v2/scrape', { url: pageUrl, formats: ['markdown'], onlyMainContent: true });
  }

  /**
   * Reads a v2 scrape body. `url` is only where Firecrawl says it landed (`metadata.url`, after its redirects; every
   * v2 scrape recorded reports it): not `sourceURL`, the address it was asked, nor the page's own `og:url`, which
   * the page writes itself. Standing in for the landing, either let a redirect to a private address pass unnoticed.
   */
  parseScrapeResponse(response: UpstreamResponse): ScrapedPage {
    const data = successData(response);
    if (!isRecord(data)) throw parseError('the scrape body has no data object');
    if (typeof data.markdown !== 'string') throw parseError('the scrape body has no markdown');
    const markdown = data.markdown.trim();
    if (markdown === '') throw upstreamFailure('the page has no main content to convert');
    const metadata = isRecord(data.metadata) ? data.metadata : {};
    return compact({
      markdown,
      url: firstUrl(metadata, LANDING_URL_KEYS),
      title: metadataText(metadata, 'title', 'ogTitle', 'og:title'),
      description: metadataText(metadata, 'description', 'ogDescription', 'og:description'),
      language: metadataText(metadata, 'language'),
      published: published(metadata),
    });
  }

  override async scrape(input: ScrapeInput, transport: UpstreamTransport, signal: AbortSignal): Promise<ScrapedPage> {
    return transport.send(this.buildScrapeRequest(input.url), signal, (response) => this.parseScrapeResponse(response));
  }

  override describeError(response: UpstreamResponse): string | undefined {
    return describeJsonError(response, ERROR_BODIES);
  }

  private post(path: string, body: Record<string, unknown>): UpstreamRequest {
    const key = this.credential('FIRECRAWL_API_KEY');
    if (!key) throw new FedsearchError('PROVIDER_NOT_CONFIGURED', 'FIRECRAWL_API_KEY is not set');
    return {
      url: this.endpoint(path).toString(),
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    };
  }
}

/** The `data` of a successful envelope; `{success: false, error, details?}` in a 200 is an upstream error. */
function successData(response: UpstreamResponse): unknown {
  const body = parseJsonObject(response);
  if (body.success === false || (body.data === undefined && body.error !== undefined)) {
    throw upstreamError(errorEnvelopeMessage(body, ERROR_BODIES) ?? 'Firecrawl reported a failure');
  }
  return body.data;
}

function toItem(result: Record<string, unknown>, source: string): ProviderItem | undefined {
  const metadata = isRecord(result.metadata) ? result.metadata : {};
  const imageUrl = httpUrl(result.imageUrl);
  const url = httpUrl(result.url) ?? metadataUrl(metadata) ?? imageUrl;
  // A search result is its URL: without one there is nothing to show. It is skipped, not the whole answer; an answer
  // whose every result lacks one is still a parse error (answerItems), so a changed shape is not hidden.
  if (!url) return undefined;
  const markdown = typeof result.markdown === 'string' ? markdownText(result.markdown.slice(0, SNIPPET_CHARS * 2)) : undefined;
  const extra = extraFields({
    source,
    category: text(result.category),
    image_url: source === 'images' ? imageUrl : undefined,
    language: metadataText(metadata, 'language'),
  });
  return compact({
    title: text(result.title) ?? metadataText(metadata, 'title', 'ogTitle', 'og:title') ?? url,
    url,
    snippet:
      text(result.description) ??
      text(result.snippet) ??
      metadataText(metadata, 'description', 'ogDescription', 'og:description') ??
      (markdown ? boundedText(markdown, SNIPPET_CHARS) : undefined),
    published_at: isoDate(result.date) ?? published(metadata),
    extra,
  });
}

/** Metadata values are strings, or arrays when a page repeats a meta tag; the first text wins. */
function metadataText(metadata: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    for (const value of asArray(metadata[key])) {
      const found = text(value);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * A search result's link when it has no `url` of its own: the final URL after redirects (`url`), else the one asked
 * for (`sourceURL`), else the page's own claim. Only shown as a link, never taken for where a scrape landed.
 */
function metadataUrl(metadata: Record<string, unknown>): string | undefined {
  return firstUrl(metadata, RESULT_URL_KEYS);
}

/** The first http(s) URL under these keys, in their order (a value may be a list when a page repeats a tag). */
function firstUrl(metadata: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    for (const value of asArray(metadata[key])) {
      const found = httpUrl(value);
      if (found) return found;
    }
  }
  return undefined;
}

function published(metadata: Record<string, unknown>): string | undefined {
  for (const key of ['publishedTime', 'article:published_time', 'og:published_time', 'datePublished', 'dcterms.created']) {
    for (const value of asArray(metadata[key])) {
      const found = isoDate(value);
      if (found) return found;
    }
  }
  return undefined;
}
