import { createHash, randomUUID } from 'node:crypto';
import type { Provider } from '../providers/provider.js';

const NO_CONTENTS: ReadonlyMap<string, string> = new Map();

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
 * A secret counts only as set or not; its value never enters the digest. `contents` (answerContentsOf) adds what an
 * instance answers from besides its settings: the embedded index's files, so that replicas given the same
 * LOCAL_INDEX_DIR but other files in it do not serve each other local results.
 */
export function answerConfigurationTag(providers: readonly Provider[], rrfK: number, contents: ReadonlyMap<string, string> = NO_CONTENTS): string {
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
    contents: contents.get(provider.name) ?? null,
  }));
  return createHash('sha256').update(JSON.stringify({ rrfK, providers: described })).digest('base64url').slice(0, 16);
}

/**
 * The contents of each instance that answers from its own (Provider.contentFingerprint), by name, loaded now: once,
 * at start-up, and what later searches are answered from. A turned-off instance (weight 0) answers nothing and loads
 * nothing. One that cannot load now (its folder unreadable) gets a name of its own, which no other replica's tag holds.
 */
export async function answerContentsOf(providers: readonly Provider[]): Promise<ReadonlyMap<string, string>> {
  const contents = new Map<string, string>();
  await Promise.all(
    providers.map(async (provider) => {
      if (provider.contentFingerprint === undefined || provider.config.weight === 0) return;
      // Unread now, the index may yet be read later, from files no other replica holds: this replica then shares no answer.
      contents.set(provider.name, await provider.contentFingerprint().catch(() => `unreadable:${randomUUID()}`));
    }),
  );
  return contents;
}
