import { parseError, upstreamError } from '../domain/errors.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage } from './error-envelope.js';
import { compact, isoDate, isRecord, parseJsonObject, text } from './parse-helpers.js';
import {
  Provider,
  withParameters,
  type PageRead,
  type ParseOutcome,
  type ProviderSettings,
  type UpstreamRequest,
  type UpstreamResponse,
} from './provider.js';

/** MediaWiki: `{"error": {"code", "info"}}` (the default errorformat), sent with HTTP 200. */
const ERROR_BODIES = [ERROR_ENVELOPES.errorObject];
/** list=search serves at most 500 pages per request. */
const MAX_SRLIMIT = 500;

/**
 * The `mediawiki` definition: full-text search of one MediaWiki site through its Action API,
 * GET <base>/w/api.php?action=query&list=search, articles at <base>/wiki/Title (Wikimedia's layout).
 * No key; errors come back with HTTP 200. Its built-in instance is English Wikipedia (`wikipedia`,
 * WIKIPEDIA_BASE_URL); more sites are added as PROVIDERS_FILE entries with `use: mediawiki`.
 * https://www.mediawiki.org/wiki/API:Search
 */
export class WikipediaProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'mediawiki',
    builtInInstance: 'wikipedia',
    kind: 'web',
    description: 'Articles of a MediaWiki site by full-text search (Action API, no key); the built-in instance is English Wikipedia.',
    baseUrl: 'https://en.wikipedia.org',
    baseUrlRequired: true,
    credentials: [],
    // list=search gives the time of the last edit, not of publication (kept apart as extra.last_edited).
    undated: true,
    // API:Etiquette asks for requests in series and publishes no rate: no limit, but fewer in flight than others.
    concurrency: 8,
  };
  readonly settings = WikipediaProvider.settings;

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const url = this.endpoint('/w/api.php');
    url.searchParams.set('action', 'query');
    url.searchParams.set('list', 'search');
    url.searchParams.set('srsearch', query.text);
    url.searchParams.set('srlimit', String(Math.min(query.limit, MAX_SRLIMIT)));
    url.searchParams.set('srprop', 'snippet|timestamp');
    url.searchParams.set('format', 'json');
    url.searchParams.set('formatversion', '2');
    url.searchParams.set('utf8', '1');
    // One wiki is one language and the API has no date filter: the query's filters have nothing to map to.
    return { url: url.toString(), headers: { Accept: 'application/json' } };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const body = parseJsonObject(response);
    if (isRecord(body.error)) throw upstreamError(errorEnvelopeMessage(body, ERROR_BODIES) ?? 'MediaWiki reported an error');
    const search = isRecord(body.query) ? body.query.search : undefined;
    if (!Array.isArray(search)) throw parseError('expected query.search, a list of pages');
    return { items: search.filter(hasTitle).map((page) => this.toItem(page)) };
  }

  /**
   * The next page: MediaWiki's `continue` object names it (`sroffset`, with `continue` itself), and is absent
   * after the last page or at the search's own depth limit. It asks only for what the search still wants.
   */
  override nextPageRequest(query: SearchQuery, page: PageRead): UpstreamRequest | undefined {
    const next = parseJsonObject(page.response).continue;
    if (!isRecord(next) || next.sroffset === undefined) return undefined;
    const parameters = Object.fromEntries(Object.entries(next).map(([name, value]) => [name, String(value)]));
    const srlimit = Math.min(query.limit - page.collected, MAX_SRLIMIT);
    return withParameters(page.request, { ...parameters, srlimit: String(srlimit) });
  }

  override describeError(response: UpstreamResponse): string | undefined {
    // A Varnish or rate-limit page is not JSON: the status alone will describe it.
    return describeJsonError(response, ERROR_BODIES);
  }

  private toItem(page: Record<string, unknown>): ProviderItem {
    return compact({
      // Pages without a title were left out before.
      title: text(page.title) ?? String(page.title),
      url: this.articleUrl(String(page.title)),
      // An HTML fragment with the matches marked; "" for a page whose text did not match.
      snippet: text(page.snippet),
      extra: lastEdited(page.timestamp),
    });
  }

  /** `<base>/wiki/Title_with_underscores` on this instance's site, each path segment encoded, `:` kept as Wikipedia writes it. */
  private articleUrl(title: string): string {
    const path = title
      .trim()
      .replace(/ /g, '_')
      .split('/')
      .map((segment) => encodeURIComponent(segment).replace(/%3A/gi, ':'))
      .join('/');
    return this.endpoint(`/wiki/${path}`).toString();
  }
}

/** The time of the last edit, not of publication: kept apart so it never passes for a date published. */
function lastEdited(value: unknown): ProviderItem['extra'] {
  const timestamp = isoDate(value);
  return timestamp ? { last_edited: timestamp } : undefined;
}

function hasTitle(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && text(value.title) !== undefined;
}
