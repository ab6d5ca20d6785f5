import type { SearchQuery } from '../domain/query.js';
import { Provider, type ParseOutcome, type ProviderSettings, type UpstreamRequest, type UpstreamResponse } from './provider.js';

// STUB: to be implemented.
export class PubmedProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'pubmed',
    kind: 'papers',
    description: 'pubmed',
    baseUrl: 'https://eutils.ncbi.nlm.nih.gov',
    credentials: [{ env: 'PUBMED_API_KEY', required: false, secret: true }],
    
  };
  readonly settings = PubmedProvider.settings;

  override buildRequest(_query: SearchQuery): UpstreamRequest {
    throw new Error('not implemented');
  }

  override parseResponse(_response: UpstreamResponse): ParseOutcome {
    throw new Error('not implemented');
  }
}
