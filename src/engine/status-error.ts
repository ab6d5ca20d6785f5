import { FedsearchError, type ErrorCode } from '../domain/errors.js';
import { retryAdvice, retryAfterWords } from '../domain/retry-advice.js';
import { retryAfterMs } from '../providers/parse-helpers.js';
import { credentialKey } from '../providers/provider-config.js';
import type { Provider, Refusal, UpstreamResponse } from '../providers/provider.js';
import { redactAndCut } from './redact.js';

const MAX_DESCRIBED_CHARS = 160;

/**
 * An upstream's error status as the error a caller reads: what happened, in the upstream's own words when its
 * documented error body has some, and what to do about it. A refused key names the setting to check, a used-up
 * quota or plan is PROVIDER_RATE_LIMITED (the breaker holds the provider, the caller waits) rather than a bad
 * key or a bad request; a 5xx (or 408) is the provider's own failure, to wait out, and any
 * other 4xx a request it refused as invalid. Never the request's URL: some keys travel in its query string.
 */
export function statusError(response: UpstreamResponse, provider: Provider, secrets: readonly string[]): FedsearchError {
  const described = provider.describeError(response);
  const detail = described ? `: ${redactAndCut(described, MAX_DESCRIBED_CHARS, secrets)}` : '';
  const isHtml = /^\s*</.test(response.body) && /html/i.test(response.headers['content-type'] ?? response.body.slice(0, 200));
  const page = !described && isHtml ? ' (HTML error page)' : '';
  const status = response.status;
  // The upstream's description of its error goes to the caller whose request it was, never to every caller.
  const error = (code: ErrorCode, ours: string, retryAfter?: number, advice = '', shownPage = page): FedsearchError =>
    new FedsearchError(code, `${ours}${detail}${shownPage}${advice}`, {
      upstreamStatus: status,
      retryAfterMs: retryAfter,
      sharedMessage: `${ours}${shownPage}${advice}`,
    });
  const refusal = provider.refusalOf(response, described) ?? refusalByStatus(response);
  if (refusal === 'credentials') {
    const advice = credentialAdvice(provider);
    return error('PROVIDER_AUTH', `HTTP ${status}: ${advice.sent ? 'the key was refused' : 'access refused'}`, undefined, advice.text);
  }
  if (refusal === 'quota') {
    const wait = quotaWaitMs(response);
    // A 429, or rate-limit headers on another status, is a rate: it passes. Otherwise a quota, credits or a plan.
    const rate = status === 429 || response.headers['x-ratelimit-remaining'] === '0' || response.headers['retry-after'] !== undefined;
    const what = rate ? 'rate limited' : 'quota or plan limit reached';
    // GitHub and Semantic Scholar answer without a key, under a far lower limit than with one: say which to set.
    const advice = credentialAdvice(provider);
    const raise = advice.sent || advice.names.length === 0 ? '' : ` (no key was sent: set ${advice.names.join(' or ')} for a higher limit)`;
    return error('PROVIDER_RATE_LIMITED', `HTTP ${status}: ${what}${retryAfterText(wait)}`, wait, raise, '');
  }
  if (status >= 500 || status === 408) {
    // A 503 may say when to come back (RFC 9110 §10.2.3), as a 429 does: the breaker then waits that long, and
    // the call is not retried at once.
    const wait = status === 503 ? retryAfterMs(response.headers['retry-after']) : undefined;
    // Only the wait is advised: a search goes on without the provider anyway, and a direct operation has no other.
    return error('PROVIDER_HTTP', `HTTP ${status}: the provider is failing on its side`, wait, `; ${retryAdvice(wait)}`);
  }
  // Any other 4xx refused what was asked (a parameter, a path, a size): the upstream's words, when it gave some, say why.
  return error('PROVIDER_HTTP', `HTTP ${status}: the provider refused the request as invalid`);
}

/**
 * What a status says on its own: 401 and 403 refuse credentials, unless the 403 carries a rate limit's headers
 * (GitHub answers a used-up limit with 403 and `x-ratelimit-remaining: 0`, a secondary limit with Retry-After);
 * 402 (Payment Required: credits used up) and 429 are limits.
 */
function refusalByStatus(response: UpstreamResponse): Refusal | undefined {
  const { status, headers } = response;
  if (status === 429 || status === 402) return 'quota';
  if (status === 403 && (headers['x-ratelimit-remaining'] === '0' || headers['retry-after'] !== undefined)) return 'quota';
  if (status === 401 || status === 403) return 'credentials';
  return undefined;
}

/** How long a limit holds: Retry-After, else GitHub's `x-ratelimit-reset` (epoch seconds) once none remain. */
function quotaWaitMs(response: UpstreamResponse, now = Date.now()): number | undefined {
  const retryAfter = retryAfterMs(response.headers['retry-after'], now);
  if (retryAfter !== undefined) return retryAfter;
  const reset = Number(response.headers['x-ratelimit-reset']);
  if (response.headers['x-ratelimit-remaining'] !== '0' || !Number.isFinite(reset) || reset <= 0) return undefined;
  return Math.max(0, Math.round(reset * 1000 - now));
}

function retryAfterText(wait: number | undefined): string {
  return wait === undefined ? '' : ` (${retryAfterWords(wait)})`;
}

/**
 * What an operator checks when credentials were refused: the provider's secret settings by the name they are set
 * under (BRAVE_API_KEY; `api_key of brave-eu in PROVIDERS_FILE`), and whether any was sent at all (GitHub and
 * Semantic Scholar work without one until they do not). Nothing for a provider that takes no key: a proxy refused.
 */
function credentialAdvice(provider: Provider): { text: string; sent: boolean; names: string[] } {
  const secrets = provider.settings.credentials.filter((credential) => credential.secret);
  if (secrets.length === 0) return { text: '', sent: false, names: [] };
  const names = secrets.map((credential) =>
    provider.config.fromFile ? `${credentialKey(provider.settings, credential)} of ${provider.name} in PROVIDERS_FILE` : credential.env,
  );
  const sent = secrets.some((credential) => provider.config.credentials[credential.env]);
  return { text: sent ? ` (check ${names.join(', ')})` : ` (no key was sent: set ${names.join(' or ')})`, sent, names };
}
