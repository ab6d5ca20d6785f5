import type { SearchQuery } from '../domain/query.js';
import { Provider, type ParseOutcome, type ProviderSettings, type UpstreamRequest, type UpstreamResponse } from './provider.js';

// STUB: to be implemented.
export class ExaProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'exa',
    kind: 'web',
    description: 'exa',
    baseUrl: 'https://api.exa.ai',
    credentials: [{ env: 'EXA_API_KEY', required: true, secret: true }],
    
  };
  readonly settings = ExaProvider.settings;

  override buildRequest(_query: SearchQuery): UpstreamRequest {
    throw new Error('not implemented');
  }

  override parseResponse(_response: UpstreamResponse): ParseOutcome {
    throw new Error('not implemented');
  }
}
