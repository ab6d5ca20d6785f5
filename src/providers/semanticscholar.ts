import type { SearchQuery } from '../domain/query.js';
import { Provider, type ParseOutcome, type ProviderSettings, type UpstreamRequest, type UpstreamResponse } from './provider.js';

// STUB: to be implemented.
export class SemanticScholarProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'semanticscholar',
    kind: 'papers',
    description: 'semanticscholar',
    baseUrl: 'https://api.semanticscholar.org',
    credentials: [{ env: 'SEMANTIC_SCHOLAR_API_KEY', required: false, secret: true }],
    envAliases: ['SEMANTIC_SCHOLAR'],
  };
  readonly settings = SemanticScholarProvider.settings;

  override buildRequest(_query: SearchQuery): UpstreamRequest {
    throw new Error('not implemented');
  }

  override parseResponse(_response: UpstreamResponse): ParseOutcome {
    throw new Error('not implemented');
  }
}
