import { parseError, upstreamError, upstreamRefusal, type FedsearchError } from '../domain/errors.js';
import type { SearchFilters, SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage } from './error-envelope.js';
import { notWordsInLowerCase } from './excluded-terms.js';
import { answerItems, compact, isoDate, isRecord, parseJsonObject, text } from './parse-helpers.js';
import {
  Provider,
  withParameters,
  type PageRead,
  type ParseOutcome,
  type ProviderSettings,
  type UpstreamRequest,
  type UpstreamResponse,
} from './provider.js';
import { languageSubtag, wikipediaEditionCode, wikipediaEditionOf, wikipediaEditionOrigin } from './wikipedia-language.js';

/** MediaWiki: `{"error": {"code", "info"}}` (the default errorformat), sent with HTTP 200. */
const ERROR_BODIES = [ERROR_ENVELOPES.errorObject];
/**
 * The MediaWiki error codes (the message keys of CirrusSearch, sent with HTTP 200) that refuse the search for what its
 * text asks, which the caller chose: counted against the breaker, which every caller shares, a few crafted queries
 * (`insource:/[/`) suspended the wiki for everyone. Read from CirrusSearch's ElasticaErrorHandler::extractMessageAndStatus
 * and i18n/en.json (wikimedia/mediawiki-extensions-CirrusSearch): a regular expression that does not parse or is too
 * complex to run, a query Elasticsearch could not parse ("Query was not understood. Please make it simpler"), a query
 * longer than the wiki allows. And one that is no fault of the text: the queue of the wiki's pool of regular expression
 * searches full (`regex-too-busy`: Util::doPoolCounterWork, one pool of every client's, CirrusSearch-Regex). Only a
 * search with a regular expression meets it, while the wiki serves every other: counted, anyone's heavy regular
 * expressions would suspend all of the wiki's searches for every caller. The search that met it reports the wiki's
 * "try again later". Any other error (`cirrussearch-backend-error`, `cirrussearch-too-busy-error` (the pool of every
 * search), `internal_api_error_*`, `maxlag`, `readonly`) is the wiki's, and counts.
 */
const REFUSED_SEARCH_CODES: ReadonlySet<string> = new Set([
  'cirrussearch-regex-syntax-error',
  'cirrussearch-regex-too-complex-error',
  'cirrussearch-regex-too-busy-error',
  'cirrussearch-parse-error',
  'cirrussearch-query-too-long',
]);
/** list=search serves at most 500 pages per request. */
const MAX_SRLIMIT = 500;
/** The language of a MediaWiki site outside wikipedia.org: one wiki is one language, which only the operator knows. */
const LANGUAGE_SETTING = 'WIKIPEDIA_LANGUAGE';

/**
 * The `mediawiki` definition: full-text search of one MediaWiki site through its Action API,
 * GET <base>/w/api.php?action=query&list=search, articles at <base>/wiki/Title (Wikimedia's layout).
 * No key; errors come back with HTTP 200. Its built-in instance is English Wikipedia (`wikipedia`,
 * WIKIPEDIA_BASE_URL); more sites are added as PROVIDERS_FILE entries with `use: mediawiki`. A search with a
 * `language` asks, on Wikipedia, that language's edition (wikipedia-language.ts); another site applies only its own
 * language (WIKIPEDIA_LANGUAGE, `language` in PROVIDERS_FILE) and is skipped for any other or when none is set; so is
 * an edition with a language set.
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
    credentials: [
      {
        env: LANGUAGE_SETTING,
        required: false,
        secret: false,
        format: { allowed: 'a two-letter language code such as de', read: twoLetterLanguage },
      },
    ],
    filters: ['language'],
    // CirrusSearch, the search of Wikimedia's wikis and of most large MediaWiki sites, refuses a longer one
    // (`cirrussearch-query-too-long`: $wgCirrusSearchMaxFullTextQueryLength, 300 by default), counted in characters.
    maxQueryLength: 300,
    // list=search gives the time of the last edit, not of publication (kept apart as extra.last_edited).
    undated: true,
    // API:Etiquette asks for requests in series and publishes no rate: no limit, but fewer in flight than others.
    concurrency: 8,
  };
  readonly settings = WikipediaProvider.settings;

  /** The language of the configured Wikipedia edition; undefined for a base URL that is no edition. */
  private readonly edition = wikipediaEditionOf(this.config.baseUrl);

  /** The configured base URL without a trailing slash: the real paths are appended to it. */
  private readonly site = this.config.baseUrl.replace(/\/+$/, '');

  /**
   * The origin of the wiki a search in `language` asks: on Wikipedia, that language's edition; elsewhere the configured
   * site when the language is its own (or none is asked for); undefined when this instance cannot search in it.
   */
  private wikiFor(language: string | undefined): string | undefined {
    if (language === undefined) return this.site;
    // A language set for the instance keeps it on its site, a Wikipedia edition too: an operator who adds
    // de.wikipedia.org beside the built-in instance sets `language: de`, or a search in French would ask
    // fr.wikipedia.org twice, once through each.
    const own = this.credential(LANGUAGE_SETTING);
    if (own !== undefined) return languageSubtag(language) === own || wikipediaEditionCode(language) === own ? this.site : undefined;
    // On Wikipedia, a language with no edition of its own is not searched in (undefined: the provider is skipped).
    if (this.edition !== undefined) return wikipediaEditionCode(language) === this.edition ? this.site : wikipediaEditionOrigin(language);
    return undefined;
  }

  /**
   * Why this instance cannot search in the search's language, as the outcome says it after the provider's name:
   * Wikipedia has no edition in it, the instance is kept to the language its operator set, or the site is outside
   * wikipedia.org with no language set. "cannot filter by language" left a reader guessing which. The only caller
   * text in it is the language's two letters, which the search's schema validated.
   */
  override filterProblem(filters: SearchFilters): string | undefined {
    const { language } = filters;
    if (language === undefined || this.wikiFor(language) !== undefined) return undefined;
    const own = this.credential(LANGUAGE_SETTING);
    if (own !== undefined) {
      return `searches in ${own} only: ${this.config.fromFile ? `language of ${this.name} in PROVIDERS_FILE is ${own}` : `${LANGUAGE_SETTING}=${own}`}`;
    }
    if (this.edition !== undefined) return `has no edition in ${languageSubtag(language)}`;
    return `cannot tell its site's language: ${this.config.fromFile ? `language of ${this.name} in PROVIDERS_FILE` : LANGUAGE_SETTING} is not set`;
  }

  /**
   * The edition a search in another language asks (`de.wikipedia.org`), with a breaker of its own: de.wikipedia.org
   * failing suspended English searches too, and English successes kept it from ever opening for German ones. Only
   * the editions of wikipedia-language.ts are named, so their breakers are a fixed few.
   */
  override upstreamHost(filters: SearchFilters): string | undefined {
    // wikiFor names a wiki besides the site only for another Wikipedia edition (wikipediaEditionOrigin).
    const wiki = this.wikiFor(filters.language);
    return wiki === undefined || wiki === this.site ? undefined : new URL(wiki).host;
  }

  override buildRequest(query: SearchQuery): UpstreamRequest {
    // A language this instance cannot search in never gets here (filterProblem skips it): the site is the fallback.
    const url = new URL(`${this.wikiFor(query.filters.language) ?? this.site}/w/api.php`);
    url.searchParams.set('action', 'query');
    url.searchParams.set('list', 'search');
    // CirrusSearch reads an upper-case NOT as its operator (`NOT dog` is `-dog`): one that is a word (`NOT INVENTED
    // HERE`: notIsOperator) is sent in lower case, or the search excluded the very words it was for.
    url.searchParams.set('srsearch', notWordsInLowerCase(query.text));
    url.searchParams.set('srlimit', String(Math.min(query.limit, MAX_SRLIMIT)));
    url.searchParams.set('srprop', 'snippet|timestamp');
    url.searchParams.set('format', 'json');
    url.searchParams.set('formatversion', '2');
    url.searchParams.set('utf8', '1');
    // The language picked the wiki; the API has no date filter.
    return { url: url.toString(), headers: { Accept: 'application/json' } };
  }

  override parseResponse(response: UpstreamResponse, query: SearchQuery): ParseOutcome {
    const body = parseJsonObject(response);
    if (isRecord(body.error)) throw mediawikiError(body.error, errorEnvelopeMessage(body, ERROR_BODIES) ?? 'MediaWiki reported an error');
    const search = isRecord(body.query) ? body.query.search : undefined;
    if (!Array.isArray(search)) throw parseError('expected query.search, a list of pages');
    // Articles are on the wiki that was asked.
    const wiki = this.wikiFor(query.filters.language) ?? this.site;
    // A page without a title is skipped; when every page is, the answer's shape has changed (answerItems).
    return { items: answerItems(search.length, search.filter(hasTitle).map((page) => toItem(page, wiki))) };
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

}

/** A refusal of what the search asked (REFUSED_SEARCH_CODES), or else the wiki's failure. */
function mediawikiError(error: Record<string, unknown>, message: string): FedsearchError {
  return typeof error.code === 'string' && REFUSED_SEARCH_CODES.has(error.code) ? upstreamRefusal(message) : upstreamError(message);
}

function toItem(page: Record<string, unknown>, wiki: string): ProviderItem {
  return compact({
    // Pages without a title were left out before.
    title: text(page.title) ?? String(page.title),
    url: articleUrl(wiki, String(page.title)),
    // An HTML fragment with the matches marked; "" for a page whose text did not match.
    snippet: text(page.snippet),
    extra: lastEdited(page.timestamp),
  });
}

/** `<wiki>/wiki/Title_with_underscores` on the wiki asked, each path segment encoded, `:` kept as Wikipedia writes it. */
function articleUrl(wiki: string, title: string): string {
  const path = title
    .trim()
    .replace(/ /g, '_')
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/%3A/gi, ':'))
    .join('/');
  return new URL(`${wiki}/wiki/${path}`).toString();
}

/** WIKIPEDIA_LANGUAGE as the adapter compares it: two letters, lower case (`DE` → `de`); undefined for any other value. */
function twoLetterLanguage(raw: string): string | undefined {
  const value = raw.trim();
  return /^[A-Za-z]{2}$/.test(value) ? value.toLowerCase() : undefined;
}

/** The time of the last edit, not of publication: kept apart so it never passes for a date published. */
function lastEdited(value: unknown): ProviderItem['extra'] {
  const timestamp = isoDate(value);
  return timestamp ? { last_edited: timestamp } : undefined;
}

function hasTitle(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && text(value.title) !== undefined;
}
