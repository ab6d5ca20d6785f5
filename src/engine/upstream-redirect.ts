import { FedsearchError } from '../domain/errors.js';
import type { Provider, UpstreamResponse } from '../providers/provider.js';
import { redactAndCut } from './redact.js';

/** Long enough for a real address, short enough for one outcome line. */
const MAX_ADDRESS_CHARS = 160;

/**
 * The error of an API call answered with a redirect (3xx). It is not followed: the request carries the provider's
 * key (in a header or the query), which a redirect could take to another host, and a POST must not be sent twice.
 * A redirect of every request means the base URL moved (http to https, a path that gained a part), which only the
 * operator can change: the message says where the upstream leads and which setting to change. PROVIDER_HTTP with
 * the 3xx status: not retried (the same answer would come), and counted by the breaker as rejected credentials are,
 * a setting at fault that every request meets, not what the caller asked (which the pipeline leaves uncounted).
 */
export function redirectError(requested: string, response: UpstreamResponse, provider: Provider, secrets: readonly string[]): FedsearchError {
  const { status } = response;
  const setting = provider.config.baseUrlSetting;
  const target = locationOf(response.headers.location, requested);
  if (!target) {
    return new FedsearchError('PROVIDER_HTTP', `HTTP ${status}: the upstream redirects, with no usable Location (not followed); check ${setting}`, {
      upstreamStatus: status,
    });
  }
  // Scheme, host and path only: a query or fragment may echo what the request carried, a key among it.
  const shown = redactAndCut(`${target.origin}${target.pathname}`, MAX_ADDRESS_CHARS, secrets);
  const movedBase = movedBaseUrl(provider.config.baseUrl, requested, target);
  const advice = movedBase
    ? `set ${setting} to ${redactAndCut(movedBase, MAX_ADDRESS_CHARS, secrets)}`
    : `set ${setting} to the address it moved to`;
  return new FedsearchError('PROVIDER_HTTP', `HTTP ${status}: the upstream redirects to ${shown} (not followed); ${advice}`, { upstreamStatus: status });
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
