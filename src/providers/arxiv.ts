import type { SearchQuery } from '../domain/query.js';
import { Provider, type ParseOutcome, type ProviderSettings, type UpstreamRequest, type UpstreamResponse } from './provider.js';

// STUB: to be implemented.
export class ArxivProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'arxiv',
    kind: 'papers',
    description: 'arxiv',
    baseUrl: 'https://export.arxiv.org',
    credentials: [],
    
  };
  readonly settings = ArxivProvider.settings;

  override buildRequest(_query: SearchQuery): UpstreamRequest {
    throw new Error('not implemented');
  }

  override parseResponse(_response: UpstreamResponse): ParseOutcome {
    throw new Error('not implemented');
  }
}
