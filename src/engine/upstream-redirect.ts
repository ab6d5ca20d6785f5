import { FedsearchError } from '../domain/errors.js';
import type { Provider, UpstreamRequest, UpstreamResponse } from '../providers/provider.js';
import { redactAndCut } from './redact.js';

/** Long enough for a real address, short enough for one outcome line. */
const MAX_ADDRESS_CHARS = 160;
/**
 * Redirects within the same API one request follows at most. OpenAlex answers a merged entity's old ID with one
 * 301 to the entity it was merged into (docs.openalex.org, "Get single entities", Merged Entity IDs); a second
 * leaves room for a merge of a merge. More is a loop.
 */
export const MAX_FOLLOWED_REDIRECTS = 2;

/**
 * The error of an API call answered with a redirect (3xx). It is not followed: the request carries the provider's
 * key (in a header or the query), which a redirect could take to another host, and a POST must not be sent twice.
 * A redirect of every request means the base URL moved (http to https, a path that gained a part), which only the
 * operator can change: the message says where the upstream leads and which setting to change. PROVIDER_HTTP with
 * the 3xx status: not retried (the same answer would come), and counted by the breaker as rejected credentials are,
 * a setting at fault that every request meets, not what the caller asked (which the pipeline leaves uncounted).
 *
 * One kind of redirect may be followed, by the call's transport (CallTransport): a GET's redirect to the same origin
 * (scheme, host and port) under the configured base URL's path, where the key the request carried already goes.
 * That address is held in a private field, so that neither a log line nor an outcome prints it: its query may echo
 * what the request carried.
 */
export class UpstreamRedirect extends FedsearchError {
  readonly #followable: string | undefined;
  readonly #shown: string | undefined;

  constructor(message: string, status: number, followable?: string, shown?: string) {
    super('PROVIDER_HTTP', message, { upstreamStatus: status });
    this.#followable = followable;
    this.#shown = shown;
  }

  /** Where the same request may be sent next, within the same API; undefined when it must not be followed. */
  get followable(): string | undefined {
    return this.#followable;
  }

  /** The error to report instead when MAX_FOLLOWED_REDIRECTS redirects were followed before this one. */
  pastLimit(): FedsearchError {
    return new FedsearchError(
      'PROVIDER_HTTP',
      `HTTP ${this.upstreamStatus}: the upstream still redirects after ${MAX_FOLLOWED_REDIRECTS} redirects followed, to ${this.#shown} (not followed: a redirect loop)`,
      { upstreamStatus: this.upstreamStatus },
    );
  }
}

export function redirectError(
  request: UpstreamRequest,
  response: UpstreamResponse,
  provider: Provider,
  secrets: readonly string[],
): UpstreamRedirect {
  const { status } = response;
  const requested = request.url;
  const setting = provider.config.baseUrlSetting;
  const target = locationOf(response.headers.location, requested);
  if (!target) {
    return new UpstreamRedirect(`HTTP ${status}: the upstream redirects, with no usable Location (not followed); check ${setting}`, status);
  }
  // Scheme, host and path only: a query or fragment may echo what the request carried, a key among it.
  const shown = redactAndCut(`${target.origin}${target.pathname}`, MAX_ADDRESS_CHARS, secrets);
  const movedBase = movedBaseUrl(provider.config.baseUrl, requested, target);
  const advice = movedBase
    ? `set ${setting} to ${redactAndCut(movedBase, MAX_ADDRESS_CHARS, secrets)}`
    : `set ${setting} to the address it moved to`;
  const followable = (request.method ?? 'GET') === 'GET' && withinApi(provider.config.baseUrl, requested, target) ? withoutFragment(target) : undefined;
  return new UpstreamRedirect(`HTTP ${status}: the upstream redirects to ${shown} (not followed); ${advice}`, status, followable, shown);
}

/**
 * Whether `target` stays where the request already went: the request's origin, which is the base URL's, and a path
 * under the base URL's (segment by segment: `/api-other` is not under `/api`). The path is the parsed one, its dot
 * segments resolved. An address with user info is refused: it would send credentials the request did not.
 */
function withinApi(baseUrl: string, requested: string, target: URL): boolean {
  try {
    const base = new URL(baseUrl);
    if (target.origin !== base.origin || new URL(requested).origin !== base.origin) return false;
    if (target.username !== '' || target.password !== '') return false;
    const basePath = base.pathname.replace(/\/+$/, '');
    return target.pathname === basePath || target.pathname.startsWith(`${basePath}/`);
  } catch {
    return false;
  }
}

function withoutFragment(target: URL): string {
  const copy = new URL(target);
  copy.hash = '';
  return copy.toString();
}

/** The Location read against the request's URL (it may be relative); undefined when absent or not an http(s) address. */
function locationOf(location: string | undefined, requested: string): URL | undefined {
  if (!location) return undefined;
  try {
    const target = new URL(location, requested);
    return target.protocol === 'http:' || target.protocol === 'https:' ? target : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The base URL the upstream moved to, when the Location keeps the path the adapter appended to the base URL
 * (`/search` of `http://searx.example.org/search` redirected to `https://searx.example.org/search` gives
 * `https://searx.example.org`); undefined when it does not (a redirect to a home page), or gives the same base.
 */
function movedBaseUrl(baseUrl: string, requested: string, target: URL): string | undefined {
  try {
    const base = new URL(baseUrl.replace(/\/+$/, ''));
    const basePath = base.pathname.replace(/\/+$/, '');
    const requestPath = new URL(requested).pathname;
    if (!requestPath.startsWith(basePath)) return undefined;
    const appended = requestPath.slice(basePath.length);
    if (appended === '' || !target.pathname.endsWith(appended)) return undefined;
    const moved = `${target.origin}${target.pathname.slice(0, -appended.length)}`;
    return moved === `${base.origin}${basePath}` ? undefined : moved;
  } catch {
    return undefined;
  }
}
