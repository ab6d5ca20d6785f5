import { FedsearchError } from '../domain/errors.js';
import { formEncoded } from '../domain/form-encoding.js';
import type { PaperIdentifier } from '../domain/paper-identifiers.js';
import type { FilterName, SearchFilters, SearchQuery } from '../domain/query.js';
import type { ProviderItem, SearchKind } from '../domain/result.js';
import type { RateLimit, RateLimitDefault } from '../rate-limit/rate-limit-setting.js';
import type { CapabilityInput, CapabilityOutput } from './capabilities.js';

/** A request an adapter wants sent; the engine sends it (timeouts, abort, errors, timing). */
export interface UpstreamRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Statuses besides 2xx that the adapter wants to parse itself (e.g. 404 as "no such paper"). */
  acceptStatuses?: number[];
}

/** What came back, as the adapter sees it: the body is already read (and bounded) as text. */
export interface UpstreamResponse {
  /** The URL that answered. */
  url?: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Why an upstream refused a request, beyond its status: the key, or a quota, rate or plan limit used up. */
export type Refusal = 'credentials' | 'quota';

/** An adapter either finishes with items or asks for one more request (PubMed: esearch, then efetch). */
export type ParseOutcome = { items: ProviderItem[] } | { followUp: UpstreamRequest };

/** One page of a search as read, for an adapter to say how to ask for the next (Provider.nextPageRequest). */
export interface PageRead {
  /** The request that asked for this page: the first of its chain when it had follow-ups (PubMed's esearch). */
  request: UpstreamRequest;
  /** The answer to the page's last request. */
  response: UpstreamResponse;
  /** The items this page gave. */
  items: ProviderItem[];
  /** Distinct items gathered so far, this page's included. */
  collected: number;
}

/**
 * What nextPageRequest answers when the API may hold more but reading on is not worth a request: SearXNG's pages
 * have no set size, and a page read for the one look-ahead result alone would cost every ordinary search a second
 * request. The items read are then marked as short of the upstream's end (stoppedBeforeEnd), so that paging does
 * not take their count for all there is.
 */
export const MORE_NOT_READ: unique symbol = Symbol('more not read');

/** Items a search returned though the API had more: its adapter said so (MORE_NOT_READ), or a later page failed. */
const shortOfEnd = new WeakSet<readonly ProviderItem[]>();

/** Whether a search's items stop short of what its API holds (MORE_NOT_READ, or a later page that failed). */
export function stoppedBeforeEnd(items: readonly ProviderItem[]): boolean {
  return shortOfEnd.has(items);
}

function markedShortOfEnd(items: ProviderItem[]): ProviderItem[] {
  shortOfEnd.add(items);
  return items;
}

/** Items short of the upstream's end because a later page failed: what it would have given may come once it is back. */
const cutByFailure = new WeakSet<readonly ProviderItem[]>();

/**
 * Whether a search's items stop short because a request for a later page failed (a 503, a 429, no rate-limit slot):
 * the provider reports `ok` with what it read, but the answer lacks what that page held, as one with a failed provider
 * lacks its results (the answer cache keeps it no longer: engine/cached-answer.ts). Always stoppedBeforeEnd too.
 */
export function laterPageFailed(items: readonly ProviderItem[]): boolean {
  return cutByFailure.has(items);
}

/** An environment variable that carries a credential or a required setting for one provider. */
export interface CredentialSetting {
  env: string;
  required: boolean;
  /** Credentials are redacted everywhere; a plain setting (a URL, an e-mail) need not be. */
  secret: boolean;
  /** The value names a folder the process reads (the local index): checked at start-up, kept as an absolute path. */
  folder?: boolean;
  /**
   * What a plain setting must be, checked at start-up from the environment and PROVIDERS_FILE alike: `allowed` says it
   * in messages, `read` gives the value as the adapter reads it, or undefined to refuse it (MediaWiki's language).
   */
  format?: { allowed: string; read: (raw: string) => string | undefined };
}

/**
 * Declared, static facts about a provider definition (one adapter): the configuration turns them into one
 * or more named instances.
 */
export interface ProviderSettings {
  /** The definition's name: what a PROVIDERS_FILE entry puts in `use`. */
  name: string;
  /**
   * The name of the instance configured from the environment alone, when it is not the definition's own
   * (Wikipedia is the built-in instance of the `mediawiki` definition). Its variables use this prefix.
   */
  builtInInstance?: string;
  kind: SearchKind;
  description: string;
  /** The real API origin; `<NAME>_BASE_URL` overrides it and the adapter appends the real path. */
  baseUrl: string;
  /** Software anyone can host (SearXNG, MediaWiki): an instance added in PROVIDERS_FILE must say where (`base_url`). */
  baseUrlRequired?: boolean;
  /** A variable that sets the base URL besides `<NAME>_BASE_URL` (SearXNG has no public origin: SEARXNG_URL). */
  baseUrlEnv?: string;
  /** Other spellings of the variable prefix (SEMANTIC_SCHOLAR_ besides SEMANTICSCHOLAR_). */
  envAliases?: string[];
  credentials: CredentialSetting[];
  /** Filters the adapter passes on to its API; the engine applies or refuses the rest. */
  filters?: FilterName[];
  /**
   * The API gives no publication date for its results (MediaWiki: only the last edit), so the engine cannot apply a
   * time range to them afterwards either: a search with one skips the provider rather than filter out every result.
   */
  undated?: boolean;
  weight?: number;
  timeoutMs?: number;
  /** At most this many requests in flight to this upstream from one process. */
  concurrency?: number;
  /**
   * The outbound rate limit the API publishes (`1/s`, `1/3s`, `100/min`), for all replicas together; none
   * when unset. `<NAME>_RATE_LIMIT` overrides it. Each default and its source are listed in docs/providers.md.
   */
  rateLimit?: RateLimitDefault;
  /** False for a provider that serves only other capabilities (the captions source): no search asks it. */
  searchable?: boolean;
  /**
   * The longest query the API accepts, in characters, when shorter than fedsearch's own limit: a longer one is
   * not sent (the API would refuse it) and the provider reports `skipped` with the reason.
   */
  maxQueryLength?: number;
  /** The most words (runs of non-space characters) the API accepts in a query, where it counts them too (Brave: 50). */
  maxQueryWords?: number;
  /**
   * The API reads `site:` and `-site:` in a web search's text as a web search engine does (Brave; SearXNG's engines):
   * it is sent such terms as typed. Every other provider is sent the text without them, and gets them as
   * include_domains / exclude_domains (engine/site-terms.ts).
   */
  siteOperator?: boolean;
  /**
   * The API applies include_domains / exclude_domains entries with a path (`docs.example.com/guide`) itself (Exa).
   * Without it, an adapter that passes those filters on sends hosts only, and the engine applies the entries to
   * its results (engine/filters.ts upstreamFilters).
   */
  domainPaths?: boolean;
}

/** The configuration one provider instance runs with, resolved from settings and environment (or PROVIDERS_FILE). */
export interface ProviderConfig {
  /** The instance's name: what callers put in `providers=`, and what answers, health, metrics and logs report. */
  name: string;
  /** The definition (ProviderSettings.name) this instance is configured from. */
  definition: string;
  baseUrl: string;
  /**
   * What an operator changes to point the instance elsewhere, for messages: the variable that set the base URL
   * (SEARXNG_URL), or `base_url of <name> in PROVIDERS_FILE`.
   */
  baseUrlSetting: string;
  credentials: Record<string, string | undefined>;
  weight: number;
  timeoutMs: number;
  concurrency: number;
  /** Requests to this upstream per interval, for all replicas together; undefined: no limit. */
  rateLimit?: RateLimit;
  /**
   * Configured by a PROVIDERS_FILE entry: messages name its settings as that entry's keys, since the variables of
   * the definition's built-in instance (SEARXNG_WEIGHT) are not read for it.
   */
  fromFile?: true;
}

/** How a provider reaches the network: given by the engine, so adapters never fetch on their own. */
export interface UpstreamTransport {
  /**
   * Sends `request` and reads its response with `read` as the exchange ends: the promise holds what `read` made
   * of the response (or rejects with what it threw), never the response itself. A promise made when a request
   * left and settled when its answer came is old by then on a busy replica, and an old promise keeps its value
   * until the next full collection, long after the search is answered: holding the body and its parsed JSON
   * that way had every search's raw answers copied into the old generation.
   */
  send<T>(request: UpstreamRequest, signal: AbortSignal, read: (response: UpstreamResponse) => T): Promise<T>;
  /**
   * Told of the items a search has read as it asks for more (a later page, a deeper round): what the call still
   * answers with when its deadline passes before the rest comes. The deadline does not wait for the search to
   * give them back, so they are handed over before each wait that may outlast it. Never called for a search that
   * reads one page.
   */
  readSoFar?(items: ProviderItem[]): void;
}

export type { PaperIdentifier };

/** Requests one page (or one lookup) takes at most; a guard against a follow-up loop. */
const MAX_STEPS = 4;
/** One page as read: its items, and the response they came from for nextPageRequest. */
interface Page {
  items: ProviderItem[];
  response: UpstreamResponse;
}
/** A first page short of the limit whose API has more: its items, and the request for the next page. */
interface MorePages {
  items: ProviderItem[];
  next: UpstreamRequest;
}
/** What a search's first response comes to: the answer, more pages to read, or a follow-up request to send. */
type FirstPage = ProviderItem[] | MorePages | { followUp: UpstreamRequest };
/** Pages one search reads at most; a guard for an API that never says it has no more (each adapter has its own bound). */
const MAX_PAGES = 25;

/**
 * The base of every adapter. An adapter declares its settings, builds the upstream request from a query and
 * parses the upstream body; the engine owns network I/O, timeouts, abort, error mapping, logging and timing.
 * Providers that do not speak HTTP (the embedded `local` index) override `search` instead.
 */
export abstract class Provider {
  abstract readonly settings: ProviderSettings;

  private missing: readonly string[] | undefined;

  constructor(readonly config: ProviderConfig) {}

  /** The instance name; several instances of one definition (two SearXNG servers) each have their own. */
  get name(): string {
    return this.config.name;
  }

  /** The definition this instance is configured from (`searxng`, `mediawiki`, …). */
  get definition(): string {
    return this.settings.name;
  }

  get kind(): SearchKind {
    return this.settings.kind;
  }

  /** The names of required settings that are not set; empty when the provider can run. */
  missingSettings(): readonly string[] {
    // The configuration is frozen at start-up, so the answer never changes: worked out on first use.
    this.missing ??= Object.freeze(
      this.settings.credentials.filter((credential) => credential.required && !this.config.credentials[credential.env]).map((credential) => credential.env),
    );
    return this.missing;
  }

  /** The base URL with any trailing slash removed, ready for the real API path to be appended. */
  protected endpoint(path: string): URL {
    return new URL(this.config.baseUrl.replace(/\/+$/, '') + path);
  }

  /**
   * `endpoint(fixedPath + callerPath)` for a path with a part the caller chose (a DOI, already percent-encoded
   * part by part), refused when the URL no longer lies under `fixedPath` (which ends at a `/`): the parser
   * resolves `.` and `..` segments, also spelled `%2e`, so one that slipped past validation would otherwise
   * send this provider's credentials to another API path, or out of a base URL's own path prefix.
   */
  protected endpointUnder(fixedPath: string, callerPath: string): URL {
    const url = this.endpoint(fixedPath + callerPath);
    if (!url.pathname.startsWith(this.endpointPathname(fixedPath))) {
      // QUERY_INVALID: what was asked for is at fault, not the upstream; the pipeline reports it as this provider's error.
      throw new FedsearchError('QUERY_INVALID', `${this.name}: refused a request path that leaves ${fixedPath} once its "." and ".." segments are resolved`);
    }
    return url;
  }

  /** The path of `endpoint(path)`, by path: parsed once, as endpointAddress is. */
  private readonly endpointPathnames = new Map<string, string>();

  private endpointPathname(path: string): string {
    let pathname = this.endpointPathnames.get(path);
    if (pathname === undefined) {
      pathname = this.endpoint(path).pathname;
      this.endpointPathnames.set(path, pathname);
    }
    return pathname;
  }

  /** `endpoint(path)` as a string, by path: the base URL never changes, so each is parsed once. */
  private readonly endpointAddresses = new Map<string, string>();

  protected endpointAddress(path: string): string {
    let address = this.endpointAddresses.get(path);
    if (address === undefined) {
      address = this.endpoint(path).toString();
      this.endpointAddresses.set(path, address);
    }
    return address;
  }

  /**
   * `endpoint(path)` with these query parameters, as setting each on its `searchParams` would give, but
   * serialised once rather than once per parameter. A base URL has no query or fragment of its own (start-up
   * refuses one: providerBaseUrl), so the parameters are the whole query.
   */
  protected endpointWithParameters(path: string, parameters: Record<string, string>): string {
    const address = this.endpointAddress(path);
    const query = formEncoded(parameters);
    return query === '' ? address : `${address}?${query}`;
  }

  protected credential(env: string): string | undefined {
    const value = this.config.credentials[env];
    return value ? value : undefined;
  }

  buildRequest(_query: SearchQuery): UpstreamRequest {
    throw new Error(`${this.name} does not build HTTP requests`);
  }

  /**
   * The request for the page after `page`, with the API's offset, page or token parameter, when the search
   * wants more than `page.collected` (query.limit) and the API may have more; undefined when `page` was short
   * or the API goes no deeper; MORE_NOT_READ when the API may have more that is not worth reading. Adapters
   * without one (their API has no offset) are read one page deep.
   */
  nextPageRequest?(query: SearchQuery, page: PageRead): UpstreamRequest | typeof MORE_NOT_READ | undefined;

  /**
   * Why the API would refuse this search text by a rule of its own that maxQueryLength and maxQueryWords cannot
   * state (GitHub counts neither qualifiers nor operators, and takes at most five AND, OR or NOT); undefined when it
   * would take it. A search it finds a problem in is not sent: the provider reports `skipped` with the reason. The
   * search's filters, for an API whose syntax depends on one (GitHub's code search reads no OR; its repository search does).
   */
  queryProblem?(text: string, filters?: SearchFilters): string | undefined;

  /**
   * Settings this search needs that are not set, beyond those every call needs (missingSettings): GitHub's code search
   * needs GITHUB_TOKEN, its repository search none. A search that lacks one is not sent: the provider reports
   * `not_configured` naming them, before any breaker, rate limit or request.
   */
  missingSettingsFor?(filters: SearchFilters): readonly string[];

  /**
   * Why this instance cannot apply a filter its definition declares to this search, in words read after the
   * provider's name ("wikipedia: has no edition in qq"); undefined when it can. A MediaWiki site outside wikipedia.org
   * is one language, and a search in another skips it. The provider reports `skipped` with the reason, as it reports
   * `cannot filter by <filter>` for a filter it does not declare, but says which of its limits this search met.
   */
  filterProblem?(filters: SearchFilters): string | undefined;

  /**
   * The host this search asks when it is not the instance's own and fails apart from it (a Wikipedia edition in
   * another language: its own wiki, database and search index); undefined for the instance's own. Such a host has a
   * circuit breaker of its own, so that one edition failing does not suspend every language's searches, while an
   * upstream's Retry-After still holds them all (Wikimedia counts a client's requests across its wikis), and the rate
   * limit and concurrency limit stay the instance's. The hosts must be a fixed few the adapter knows, never caller text.
   */
  upstreamHost?(filters: SearchFilters): string | undefined;

  /**
   * What the instance answers from besides its settings, as it has loaded it: the embedded index's files. Replicas
   * sharing answers key them under it (engine/answer-configuration.ts). Undefined for an API, whose data is its own.
   */
  contentFingerprint?(): Promise<string>;

  parseResponse(_response: UpstreamResponse, _query: SearchQuery): ParseOutcome {
    throw new Error(`${this.name} does not parse HTTP responses`);
  }

  /**
   * A short, safe description of an upstream error body (e.g. Exa's `{"error": "Invalid API key"}`), used
   * in the provider's outcome message. Return undefined when the body says nothing useful.
   */
  describeError(_response: UpstreamResponse): string | undefined {
    return undefined;
  }

  /**
   * What an error answer refuses when its status alone would say it wrongly: a key refused with 400 or 422 (Exa,
   * YouTube, Brave), a quota used up with 403 (YouTube's quotaExceeded) or a status of the API's own (Tavily's 432
   * and 433). Undefined leaves it to the status (engine/status-error.ts). `described` is what describeError said
   * of the same answer (before redaction), so an adapter that judges by those words need not read the body again.
   */
  refusalOf(_response: UpstreamResponse, _described: string | undefined): Refusal | undefined {
    return undefined;
  }

  /**
   * The request that looks one paper up by identifier, or undefined when this provider cannot look up that
   * kind of identifier. A lookup request usually accepts 404 (parseResponse then returns no items).
   */
  buildLookupRequest(_identifier: PaperIdentifier): UpstreamRequest | undefined {
    return undefined;
  }

  /*
   * Capabilities besides search and lookup (providers/capabilities.ts): an adapter implements those it
   * serves, as requests it builds and bodies it parses; the engine calls them (SearchService.call).
   */
  videoDetails?(input: CapabilityInput<'videoDetails'>, transport: UpstreamTransport, signal: AbortSignal): Promise<CapabilityOutput<'videoDetails'>>;
  captions?(input: CapabilityInput<'captions'>, transport: UpstreamTransport, signal: AbortSignal): Promise<CapabilityOutput<'captions'>>;
  scrape?(input: CapabilityInput<'scrape'>, transport: UpstreamTransport, signal: AbortSignal): Promise<CapabilityOutput<'scrape'>>;
  readDocument?(input: CapabilityInput<'readDocument'>, transport: UpstreamTransport, signal: AbortSignal): Promise<CapabilityOutput<'readDocument'>>;

  /**
   * Reads pages until `query.limit` distinct items are in hand, a page adds nothing new, or the adapter has no
   * next page; items keep their order across pages. Each page is a request of its own through the transport
   * (its own rate-limit slot, under the same deadline and abort). One page's answer is given whole, as the
   * API sent it; pages read past the first are cut at `query.limit`, so that an answer reaching the limit
   * still means "may have more" and one that stopped on a short page is seen as the end (engine/paging.ts).
   * A search reads no further than `query.limit` of either (engine/gather.ts).
   */
  search(query: SearchQuery, transport: UpstreamTransport, signal: AbortSignal): Promise<ProviderItem[]> {
    let request: UpstreamRequest;
    let first: Promise<FirstPage>;
    try {
      request = this.buildRequest(query);
      // The first answer is parsed and judged as it arrives (UpstreamTransport.send): what waits on the upstream
      // holds the items, not the body. Continuations rather than an async frame: thousands of these wait at once.
      first = transport.send(request, signal, (response) => this.firstPage(response, request, query));
    } catch (error) {
      return Promise.reject(error);
    }
    return first.then((read) => (Array.isArray(read) ? read : this.afterFirstResponse(read, request, query, transport, signal)));
  }

  /** The first response parsed, and judged as afterFirstPage judges a page, unless it asks for a follow-up. */
  private firstPage(response: UpstreamResponse, request: UpstreamRequest, query: SearchQuery): FirstPage {
    const page = this.pageOf(response, query);
    return 'items' in page ? this.afterFirstPage(page, request, query) : page;
  }

  /** The rest of a search whose first response asked for more: the follow-up's page first, then later pages. */
  private afterFirstResponse(
    read: MorePages | { followUp: UpstreamRequest },
    request: UpstreamRequest,
    query: SearchQuery,
    transport: UpstreamTransport,
    signal: AbortSignal,
  ): Promise<ProviderItem[]> {
    if ('next' in read) return this.readMorePages(query, read.items, read.next, transport, signal);
    return this.run(read.followUp, query, transport, signal, 2).then((page) => {
      const after = this.afterFirstPage(page, request, query);
      return Array.isArray(after) ? after : this.readMorePages(query, after.items, after.next, transport, signal);
    });
  }

  /**
   * The first page's items when they are enough, or when no page comes after them. Either is kept as it came,
   * with no map of its results built: the usual answers. Otherwise the items and the next page's request.
   */
  private afterFirstPage(page: Page, request: UpstreamRequest, query: SearchQuery): ProviderItem[] | MorePages {
    if (!this.nextPageRequest) return page.items;
    const distinct = distinctUrls(page.items, query.limit);
    if (distinct >= query.limit) return page.items;
    const next = this.nextPageRequest(query, { request, response: page.response, items: page.items, collected: distinct });
    if (next === MORE_NOT_READ) return markedShortOfEnd(page.items);
    return next ? { items: page.items, next } : page.items;
  }

  /** The pages after a first one that held fewer than `query.limit` distinct results, from `second` on. */
  private async readMorePages(
    query: SearchQuery,
    firstItems: ProviderItem[],
    second: UpstreamRequest,
    transport: UpstreamTransport,
    signal: AbortSignal,
  ): Promise<ProviderItem[]> {
    const collected = new Map(firstItems.map((item) => [item.url, item]));
    let pagesRead = 1;
    let failed = false;
    let next: UpstreamRequest | typeof MORE_NOT_READ | undefined = second;
    while (next && next !== MORE_NOT_READ) {
      // Fewer than the limit, and the API has more (it is asked for the next page): short of its end, should the
      // deadline pass now. A list of their own, never the first page's array, which an adapter may share.
      transport.readSoFar?.(markedShortOfEnd([...collected.values()]));
      let page: Page;
      try {
        page = await this.run(next, query, transport, signal);
      } catch (error) {
        // A later page that fails (a 429, no rate-limit slot before the deadline) leaves the earlier pages good. The
        // upstream had more than was read: marked like MORE_NOT_READ, so paging does not take them for all there is,
        // and as cut short by a failure (laterPageFailed), so the answer is not kept as long as a complete one.
        if (signal.aborted) throw error;
        next = MORE_NOT_READ;
        failed = true;
        break;
      }
      const request: UpstreamRequest = next;
      pagesRead += 1;
      const before = collected.size;
      for (const item of page.items) if (!collected.has(item.url)) collected.set(item.url, item);
      // An API that ignores its offset answers the same page again: nothing new, no use asking further.
      if (collected.size === before || collected.size >= query.limit || pagesRead >= MAX_PAGES) break;
      next = this.nextPageRequest?.(query, { request, response: page.response, items: page.items, collected: collected.size });
    }
    // Only this search failed: the first page's array, which the adapter may share, is not the one marked so.
    const firstOnly = failed ? [...firstItems] : firstItems;
    const items = pagesRead === 1 ? firstOnly : [...collected.values()].slice(0, query.limit);
    if (failed) cutByFailure.add(items);
    return next === MORE_NOT_READ ? markedShortOfEnd(items) : items;
  }

  /** Looks one paper up; the engine calls this only when buildLookupRequest gave a request. */
  async lookup(identifier: PaperIdentifier, transport: UpstreamTransport, signal: AbortSignal): Promise<ProviderItem[]> {
    const request = this.buildLookupRequest(identifier);
    if (!request) return [];
    const query: SearchQuery = { kind: this.kind, text: identifier.value, limit: 1, filters: {} };
    return (await this.run(request, query, transport, signal)).items;
  }

  /** One request and its follow-ups: the items, and the last response for nextPageRequest. */
  private run(request: UpstreamRequest, query: SearchQuery, transport: UpstreamTransport, signal: AbortSignal, step = 1): Promise<Page> {
    return transport.send(request, signal, (response) => this.pageOf(response, query)).then((read) => {
      if ('items' in read) return read;
      if (step === MAX_STEPS) throw new Error(`${this.name} asked for more than ${MAX_STEPS} requests`);
      return this.run(read.followUp, query, transport, signal, step + 1);
    });
  }

  /** A response parsed: its page, or the follow-up request it asks for. */
  private pageOf(response: UpstreamResponse, query: SearchQuery): Page | { followUp: UpstreamRequest } {
    const outcome = this.parseResponse(response, query);
    return 'items' in outcome ? { items: outcome.items, response } : outcome;
  }
}

/** Comparing pairs beats a Set's hashing (and allocates nothing) for lists up to about this long. */
const PAIRWISE_MAX = 32;

/** How many distinct URLs `items` hold, counted up to `wanted` (the count stops there). */
function distinctUrls(items: readonly ProviderItem[], wanted: number): number {
  if (items.length > PAIRWISE_MAX) return Math.min(wanted, new Set(items.map((item) => item.url)).size);
  let distinct = 0;
  for (let index = 0; index < items.length && distinct < wanted; index += 1) {
    const url = items[index]!.url;
    let repeated = false;
    for (let earlier = 0; earlier < index && !repeated; earlier += 1) repeated = items[earlier]!.url === url;
    if (!repeated) distinct += 1;
  }
  return distinct;
}

export type ProviderFactory = (config: ProviderConfig) => Provider;

/** The same request with some query parameters set anew: how most APIs are asked for their next page. */
export function withParameters(request: UpstreamRequest, parameters: Record<string, string>): UpstreamRequest {
  const url = new URL(request.url);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return { ...request, url: url.toString() };
}

/** A query parameter of a request as a whole number, or `fallback` when it is absent. */
export function numberParameter(request: UpstreamRequest, name: string, fallback: number): number {
  const value = queryParameters(request.url).get(name);
  return value === null ? fallback : Number(value);
}

const UNREAD = /^[\u0000-\u0020]|[\u0000-\u0020]$|[\t\n\r]/;

/**
 * The parameters of a URL's query, exactly as `new URL(url).searchParams` reads them, without
 * parsing the rest of the URL: adapters ask this of every page they read, to decide whether to read another.
 */
function queryParameters(written: string): URLSearchParams {
  // What the parser drops before reading a URL: C0 controls and spaces at either end, tabs and newlines anywhere.
  const url = UNREAD.test(written) ? written.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '') : written;
  const start = url.indexOf('?');
  const fragment = url.indexOf('#');
  if (start === -1 || (fragment !== -1 && fragment < start)) return new URLSearchParams();
  // With its `?`: the constructor drops one leading `?`, so a query that itself starts with one keeps it.
  return new URLSearchParams(url.slice(start, fragment === -1 ? undefined : fragment));
}
