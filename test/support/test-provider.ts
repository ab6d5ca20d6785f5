import type { SearchQuery } from '../../src/domain/query.js';
import type { SearchKind } from '../../src/domain/result.js';
import { asArray, isRecord, parseJsonBody, text } from '../../src/providers/parse-helpers.js';
import { Provider, type ParseOutcome, type ProviderConfig, type ProviderSettings, type UpstreamRequest, type UpstreamResponse } from '../../src/providers/provider.js';

/**
 * A minimal adapter for engine tests: GET <base>/search?q= returning {results: [{title, url}]}. It goes
 * through the same base class and transport as every real adapter.
 */
export class TestProvider extends Provider {
  readonly settings: ProviderSettings;

  constructor(name: string, baseUrl: string, overrides: Partial<ProviderConfig> & { kind?: SearchKind } = {}) {
    super({
      name,
      definition: name,
      baseUrl,
      baseUrlSetting: `${name.toUpperCase()}_BASE_URL`,
      credentials: {},
      weight: 1,
      timeoutMs: 5000,
      concurrency: 8,
      ...overrides,
    });
    this.settings = { name, kind: overrides.kind ?? 'web', description: name, baseUrl, credentials: [] };
  }

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const url = this.endpoint('/search');
    url.searchParams.set('q', query.text);
    return { url: url.toString() };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const body = parseJsonBody(response);
    const results = isRecord(body) ? asArray(body.results) : [];
    return {
      items: results.filter(isRecord).map((result) => ({ title: text(result.title) ?? '', url: String(result.url) })),
    };
  }
}

export function resultsBody(...urls: string[]): string {
  return JSON.stringify({ results: urls.map((url, index) => ({ title: `Result ${index + 1}`, url })) });
}

/** The test adapter, asking its upstream for as many results as the page needs (`count`). */
export class CountingProvider extends TestProvider {
  override buildRequest(query: SearchQuery): UpstreamRequest {
    const url = new URL(super.buildRequest(query).url);
    url.searchParams.set('count', String(query.limit));
    return { url: url.toString() };
  }
}
