import type { SearchQuery } from '../domain/query.js';
import { Provider, type ParseOutcome, type ProviderSettings, type UpstreamRequest, type UpstreamResponse } from './provider.js';

// STUB: to be implemented.
export class SearxngProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'searxng',
    kind: 'web',
    description: 'searxng',
    baseUrl: '',
    credentials: [{ env: 'SEARXNG_URL', required: true, secret: false }],
    baseUrlEnv: 'SEARXNG_URL',
  };
  readonly settings = SearxngProvider.settings;

  override buildRequest(_query: SearchQuery): UpstreamRequest {
    throw new Error('not implemented');
  }

  override parseResponse(_response: UpstreamResponse): ParseOutcome {
    throw new Error('not implemented');
  }
}
