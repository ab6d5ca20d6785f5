import { parseError, upstreamError } from '../domain/errors.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { asArray, compact, describeJsonError, httpUrl, isoDate, isRecord, numberOrUndefined, parseJsonObject, text } from './parse-helpers.js';
import { Provider, type ParseOutcome, type ProviderSettings, type UpstreamRequest, type UpstreamResponse } from './provider.js';

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
  };
  readonly settings = WikipediaProvider.settings;

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const url = this.endpoint('/w/api.php');
    url.searchParams.set('action', 'query');
    url.searchParams.set('list', 'search');
    url.searchParams.set('srsearch', query.text);
    // list=search serves at most 500 pages per request.
    url.searchParams.set('srlimit', String(Math.min(query.limit, 500)));
    url.searchParams.set('srprop', 'snippet|timestamp');
    url.searchParams.set('format', 'json');
    url.searchParams.set('formatversion', '2');
    url.searchParams.set('utf8', '1');
    // One wiki is one language and the API has no date filter: the query's filters have nothing to map to.
    return { url: url.toString(), headers: { Accept: 'application/json' } };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const body = parseJsonObject(response);
    const error = errorMessage(body);
    if (error) throw upstreamError(error);
    if (isRecord(body.content_urls)) return { items: [this.summaryItem(body)] };
    // A generator that finds nothing leaves `query` out altogether.
    if (body.query === undefined) return { items: [] };
    if (!isRecord(body.query)) throw parseError('expected a query object');
    return { items: searchPages(body.query).map((page) => this.toItem(page)) };
  }

  override describeError(response: UpstreamResponse): string | undefined {
    // A Varnish or rate-limit page is not JSON: the status alone will describe it.
    return describeJsonError(response, errorMessage);
  }

  private toItem(page: Record<string, unknown>): ProviderItem {
    const terms = isRecord(page.terms) ? page.terms : {};
    return compact({
      // Pages without a title were filtered out in searchPages.
      title: text(page.title) ?? String(page.title),
      url: this.articleUrl(String(page.title)),
      // list=search gives an HTML snippet; generator=search gives extracts or Wikidata descriptions.
      snippet: text(page.snippet) ?? text(page.extract) ?? text(asArray(terms.description)[0]) ?? text(page.description),
      extra: lastEdited(page.timestamp),
    });
  }

  /** The REST page summary (/api/rest_v1/page/summary/…): one page with its own URL. */
  private summaryItem(body: Record<string, unknown>): ProviderItem {
    const desktop = isRecord(body.content_urls) && isRecord(body.content_urls.desktop) ? body.content_urls.desktop : {};
    const url = httpUrl(desktop.page) ?? this.articleUrl(String(body.title ?? ''));
    return compact({
      title: text(body.title) ?? url,
      url,
      snippet: text(body.extract) ?? text(body.description),
      extra: lastEdited(body.timestamp),
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

/**
 * The pages of a search, best first, from every shape MediaWiki sends: `list=search` gives `query.search[]`
 * in rank order; `generator=search` gives `query.pages` (an array in formatversion 2, an object keyed by
 * page id in formatversion 1) in page-id order, with the rank in `index`.
 */
function searchPages(query: Record<string, unknown>): Record<string, unknown>[] {
  if (Array.isArray(query.search)) return query.search.filter(hasTitle);
  const pages = Array.isArray(query.pages) ? query.pages : isRecord(query.pages) ? Object.values(query.pages) : [];
  return pages
    .filter(hasTitle)
    .map((page, order) => ({ page, rank: numberOrUndefined(page.index) ?? Number.POSITIVE_INFINITY, order }))
    .sort((first, second) => first.rank - second.rank || first.order - second.order)
    .map(({ page }) => page);
}

/** The time of the last edit, not of publication: kept apart so it never passes for a date published. */
function lastEdited(value: unknown): ProviderItem['extra'] {
  const timestamp = isoDate(value);
  return timestamp ? { last_edited: timestamp } : undefined;
}

function hasTitle(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && text(value.title) !== undefined;
}

/** `{"error": {"code", "info"}}` (default errorformat) or `{"errors": [{"code", "text"}]}` (errorformat=plaintext). */
function errorMessage(body: Record<string, unknown>): string | undefined {
  const errors = isRecord(body.error) ? [body.error] : asArray(body.errors).filter(isRecord);
  const first = errors[0];
  if (!first) return undefined;
  const message = text(first.info) ?? text(first.text) ?? text(first['*']);
  const code = text(first.code);
  return message && code ? `${message} (${code})` : (message ?? code ?? 'error');
}
