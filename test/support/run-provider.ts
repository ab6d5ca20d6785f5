import { Agent } from 'undici';
import { expect } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import type { SearchFilters, SearchQuery } from '../../src/domain/query.js';
import type { ProviderItem, SearchKind } from '../../src/domain/result.js';
import { createUpstreamTransport } from '../../src/engine/upstream-transport.js';
import type {
  PaperIdentifier,
  Provider,
  ProviderConfig,
  ProviderSettings,
  UpstreamResponse,
  UpstreamTransport,
} from '../../src/providers/provider.js';
import { readProviderConfig } from '../../src/providers/provider-config.js';

interface ProviderClass {
  readonly settings: ProviderSettings;
  new (config: ProviderConfig): Provider;
}

/** Builds a provider as the registry would, from an environment given by the test. */
export function makeProvider(ProviderType: ProviderClass, env: Record<string, string | undefined> = {}): Provider {
  return new ProviderType(readProviderConfig(ProviderType.settings, env));
}

export function makeQuery(text: string, kind: SearchKind = 'web', limit = 10, filters: SearchFilters = {}): SearchQuery {
  return { kind, text, limit, filters };
}

const agent = new Agent({ keepAliveTimeout: 1000 });

/** The real transport for one provider, on a shared keep-alive agent, for requests to a loopback server. */
export function transportFor(provider: Provider): UpstreamTransport {
  return createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 8 * 1024 * 1024 });
}

/** Runs one provider's search through the real transport against a loopback server. */
export async function runProvider(provider: Provider, query: SearchQuery): Promise<ProviderItem[]> {
  return provider.search(query, transportFor(provider), AbortSignal.timeout(10_000));
}

/** Runs one provider's lookup of a paper through the real transport against a loopback server. */
export async function runLookup(provider: Provider, identifier: PaperIdentifier): Promise<ProviderItem[]> {
  return provider.lookup(identifier, transportFor(provider), AbortSignal.timeout(10_000));
}

/** The FedsearchError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<FedsearchError> {
  const error = await promise.then(() => undefined, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(FedsearchError);
  return error as FedsearchError;
}

/** A response as the transport would hand it to parseResponse. */
export function response(body: string, status = 200, headers: Record<string, string> = {}): UpstreamResponse {
  return { status, headers, body };
}
