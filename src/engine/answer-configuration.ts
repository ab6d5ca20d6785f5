import { createHash } from 'node:crypto';
import type { Provider } from '../providers/provider.js';

/**
 * A short digest of the configuration an answer depends on besides the request: every provider instance (in the
 * catalogue's order, which breaks ties between results), what it is, where it asks, its weight, which of its
 * settings are set and the values of those that are not secret (a SearXNG server, the local index's folder), and
 * the fusion's k. Replicas sharing one Redis key their answers under it, so two configured differently (a rolling
 * deploy adding a key or changing a weight, a replica started without a secret) never serve each other an answer
 * their own providers would not give: "brave: not_configured" to one that has its key, scores weighed by another's
 * weights. Timeouts, rate limits and concurrency are left out: they change only whether a provider fails, and an
 * answer with a failure is kept briefly and only for callers that wait no longer (cached-answer.ts).
 *
 * A secret counts only as set or not; its value never enters the digest.
 */
export function answerConfigurationTag(providers: readonly Provider[], rrfK: number): string {
  const described = providers.map((provider) => ({
    name: provider.name,
    definition: provider.definition,
    kind: provider.kind,
    searchable: provider.settings.searchable !== false,
    baseUrl: provider.config.baseUrl,
    weight: provider.config.weight,
    // A turned-off instance (weight 0) names the setting to change, which differs for a PROVIDERS_FILE entry.
    fromFile: provider.config.fromFile === true,
    settings: provider.settings.credentials.map(({ env, secret }) => {
      const value = provider.config.credentials[env];
      return [env, secret ? value !== undefined && value !== '' : (value ?? null)];
    }),
  }));
  return createHash('sha256').update(JSON.stringify({ rrfK, providers: described })).digest('base64url').slice(0, 16);
}
