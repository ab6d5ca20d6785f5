import type { SearchQuery } from '../domain/query.js';
import { Provider, type ParseOutcome, type ProviderSettings, type UpstreamRequest, type UpstreamResponse } from './provider.js';

// STUB: to be implemented.
export class TavilyProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'tavily',
    kind: 'web',
    description: 'tavily',
    baseUrl: 'https://api.tavily.com',
    credentials: [{ env: 'TAVILY_API_KEY', required: true, secret: true }],
    weight: 1.2,
  };
  readonly settings = TavilyProvider.settings;

  override buildRequest(_query: SearchQuery): UpstreamRequest {
    throw new Error('not implemented');
  }

  override parseResponse(_response: UpstreamResponse): ParseOutcome {
    throw new Error('not implemented');
  }
}
