import { FedsearchError } from '../domain/errors.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { PaperIdentifier } from '../domain/paper-identifiers.js';
import type { SearchResult } from '../domain/result.js';
import { retryAdvice, retryAfterWords } from '../domain/retry-advice.js';
import type { PaperLookup } from '../engine/paper-lookup.js';
import { callOptions, type OperationContext } from './operation.js';
import { parsePaperIdentifier } from './paper-identifier.js';

export interface PaperDetails {
  id: string;
  identifier: { type: string; value: string };
  paper: SearchResult;
  providers: ProviderOutcome[];
}

/** One merged record for an identifier, from every paper provider that knows it. */
export async function findPaper(id: string, context: OperationContext, timeout?: number): Promise<PaperDetails> {
  const identifier = parsePaperIdentifier(id);
  const { result, providers } = await lookupOnce(identifier, context, timeout);
  if (!result) throw lookupFailure(identifier, providers);
  return { id, identifier, paper: result, providers };
}

/** The lookup of an identifier, shared with the other steps of the operation when it keeps them (paperLookups). */
function lookupOnce(identifier: PaperIdentifier, context: OperationContext, timeout: number | undefined): Promise<PaperLookup> {
  const lookups = context.paperLookups;
  if (!lookups) return context.search.lookupPaper(identifier, callOptions(context, timeout));
  const key = `${identifier.type}:${identifier.value}:${timeout ?? ''}`;
  let lookup = lookups.get(key);
  if (!lookup) {
    lookup = context.search.lookupPaper(identifier, callOptions(context, timeout));
    lookups.set(key, lookup);
  }
  return lookup;
}

/** Outcomes of providers that were not asked because of our own limits: the breaker, the outbound rate limit. */
const HELD_BACK: ReadonlySet<ProviderOutcome['status']> = new Set(['suspended', 'rate_limited']);

/**
 * Why a lookup found nothing. "Not found" (404) is only true when every provider that could look the identifier
 * up answered and none knew the paper: PubMed not knowing a DOI while Crossref timed out says nothing of whether
 * the paper exists, and an agent told 404 would conclude it does not. So: when no provider could be asked at all,
 * each held back by our own breaker (suspended) or outbound rate limit (rate_limited), or not configured, it is
 * 503 with Retry-After at the earliest moment one of them can be asked (PROVIDER_SUSPENDED when every one held back
 * is suspended, else OUTBOUND_RATE_LIMITED): the caller need only wait, nothing failed upstream. When some were
 * asked and any failed, timed out or was held back it is 502, naming who answered "unknown" and who did not
 * answer, with Retry-After too when every one that did not answer was held back; not-configured and skipped
 * providers count for neither. The providers' outcomes go with the error either way.
 */
function lookupFailure(identifier: { type: string; value: string }, providers: ProviderOutcome[]): FedsearchError {
  const asked = providers.filter((provider) => provider.status !== 'skipped');
  const summary = asked.map((provider) => `${provider.provider}: ${provider.status}${provider.message ? ` (${provider.message})` : ''}`).join(', ');
  const what = `${identifier.type} ${identifier.value}`;
  const details = { providers };
  if (asked.every((provider) => HELD_BACK.has(provider.status) || provider.status === 'not_configured')) {
    const held = asked.filter((provider) => HELD_BACK.has(provider.status));
    const waits = held.flatMap((provider) => (provider.retry_after_ms !== undefined ? [provider.retry_after_ms] : []));
    const retryAfterMs = waits.length > 0 ? Math.min(...waits) : undefined;
    const code =
      held.length === 0 ? 'PROVIDER_NOT_CONFIGURED' : held.every((provider) => provider.status === 'suspended') ? 'PROVIDER_SUSPENDED' : 'OUTBOUND_RATE_LIMITED';
    const when = retryAfterMs === undefined ? '' : `; ${retryAfterWords(retryAfterMs)}`;
    return new FedsearchError(code, `no paper provider can look up ${what} now (${summary || `none can look up ${identifier.type} identifiers`})${when}`, {
      details,
      retryAfterMs,
    });
  }
  const answered = asked.filter((provider) => provider.status === 'ok').map((provider) => provider.provider);
  const failures = asked.filter((provider) => provider.status !== 'ok' && provider.status !== 'not_configured');
  const failed = failures.map((provider) => provider.provider);
  if (failed.length === 0) return new FedsearchError('NOT_FOUND', `no provider knows ${what} (${summary})`, { details });
  const who =
    answered.length === 0
      ? 'no paper provider answered'
      : `${answered.join(', ')} answered and did not know it, but ${failed.join(', ')} did not answer`;
  // Every one that did not answer was held back by our own limits: when the first can be asked is known, so said.
  const retryAfterMs = failures.every((provider) => HELD_BACK.has(provider.status) && provider.retry_after_ms !== undefined)
    ? Math.min(...failures.map((provider) => provider.retry_after_ms!))
    : undefined;
  return new FedsearchError('PROVIDERS_FAILED', `could not look up ${what}: ${who} (${summary}); the paper may exist, ${retryAdvice(retryAfterMs)}`, { details, retryAfterMs });
}
