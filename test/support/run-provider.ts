import { Agent } from 'undici';
import type { SearchFilters, SearchQuery } from '../../src/domain/query.js';
import type { ProviderItem, SearchKind } from '../../src/domain/result.js';
import { createUpstreamTransport } from '../../src/engine/upstream-transport.js';
import type { Provider, ProviderConfig, ProviderSettings, UpstreamResponse } from '../../src/providers/provider.js';
import { resolveProviderConfig } from '../../src/providers/registry.js';

interface ProviderClass {
  readonly settings: ProviderSettings;
  new (config: ProviderConfig): Provider;
}

/** Builds a provider as the registry would, from an environment given by the test. */
export function makeProvider(ProviderType: ProviderClass, env: Record<string, string | undefined> = {}): Provider {
  return new ProviderType(resolveProviderConfig(ProviderType.settings, { env }));
}

export function makeQuery(text: string, kind: SearchKind = 'web', limit = 10, filters: SearchFilters = {}): SearchQuery {
  return { kind, text, limit, filters };
}

const agent = new Agent({ keepAliveTimeout: 1000 });

/** Runs one provider's search through the real transport against a loopback server. */
export async function runProvider(provider: Provider, query: SearchQuery): Promise<ProviderItem[]> {
  const transport = createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 8 * 1024 * 1024 });
  return provider.search(query, transport, AbortSignal.timeout(10_000));
}

/** A response as the transport would hand it to parseResponse. */
export function response(body: string, status = 200, headers: Record<string, string> = {}): UpstreamResponse {
  return { status, headers, body };
}
