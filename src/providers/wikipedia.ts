import type { SearchQuery } from '../domain/query.js';
import { Provider, type ParseOutcome, type ProviderSettings, type UpstreamRequest, type UpstreamResponse } from './provider.js';

// STUB: to be implemented.
export class WikipediaProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'wikipedia',
    kind: 'web',
    description: 'wikipedia',
    baseUrl: 'https://en.wikipedia.org',
    credentials: [],
    
  };
  readonly settings = WikipediaProvider.settings;

  override buildRequest(_query: SearchQuery): UpstreamRequest {
    throw new Error('not implemented');
  }

  override parseResponse(_response: UpstreamResponse): ParseOutcome {
    throw new Error('not implemented');
  }
}
