import { describe, expect, it } from 'vitest';
import type { SearchKind } from '../../src/domain/result.js';
import { resultsWanted } from '../../src/engine/paging.js';
import { ArxivProvider } from '../../src/providers/arxiv.js';
import { BraveProvider } from '../../src/providers/brave.js';
import { CrossrefProvider } from '../../src/providers/crossref.js';
import { ExaProvider } from '../../src/providers/exa.js';
import { FirecrawlProvider } from '../../src/providers/firecrawl.js';
import { GithubProvider } from '../../src/providers/github.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import { OpenAlexProvider } from '../../src/providers/openalex.js';
import { PubmedProvider } from '../../src/providers/pubmed.js';
import { SearxngProvider } from '../../src/providers/searxng.js';
import { SemanticScholarProvider } from '../../src/providers/semanticscholar.js';
import { TavilyProvider } from '../../src/providers/tavily.js';
import { WikipediaProvider } from '../../src/providers/wikipedia.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import type { UpstreamRequest } from '../../src/providers/provider.js';
import { makeProvider, makeQuery } from '../support/run-provider.js';

const KEYS = { BRAVE_API_KEY: 'k', TAVILY_API_KEY: 'k', EXA_API_KEY: 'k', YOUTUBE_API_KEY: 'k', FIRECRAWL_API_KEY: 'k', SEARXNG_URL: 'http://searx.test' };

/** Where each API takes its page size, and the most one request may ask for (from each API's documentation). */
const PAGE_SIZES = [
  { Provider: BraveProvider, kind: 'web', parameter: 'count', maximum: 20 },
  { Provider: TavilyProvider, kind: 'web', parameter: 'body.max_results', maximum: 20 },
  { Provider: ExaProvider, kind: 'web', parameter: 'body.numResults', maximum: 100 },
  { Provider: WikipediaProvider, kind: 'web', parameter: 'srlimit', maximum: 500 },
  { Provider: HackerNewsProvider, kind: 'web', parameter: 'hitsPerPage', maximum: 100 },
  { Provider: ArxivProvider, kind: 'papers', parameter: 'max_results', maximum: 2000 },
  { Provider: PubmedProvider, kind: 'papers', parameter: 'retmax', maximum: 200 },
  { Provider: SemanticScholarProvider, kind: 'papers', parameter: 'limit', maximum: 100 },
  { Provider: CrossrefProvider, kind: 'papers', parameter: 'rows', maximum: 100 },
  { Provider: OpenAlexProvider, kind: 'papers', parameter: 'per_page', maximum: 200 },
  { Provider: GithubProvider, kind: 'code', parameter: 'per_page', maximum: 100 },
  { Provider: YoutubeProvider, kind: 'video', parameter: 'maxResults', maximum: 50 },
  { Provider: FirecrawlProvider, kind: 'content', parameter: 'body.limit', maximum: 100 },
] as const;

function parameter(request: UpstreamRequest, name: string): string | undefined {
  if (name.startsWith('body.')) {
    const value = (JSON.parse(request.body ?? '{}') as Record<string, unknown>)[name.slice('body.'.length)];
    return value === undefined ? undefined : String(value);
  }
  return new URL(request.url).searchParams.get(name) ?? undefined;
}

describe('each provider is asked for enough results for the page, within what one request allows', () => {
  it.each(PAGE_SIZES)('$Provider.settings.name: $parameter, at most $maximum', ({ Provider, kind, parameter: name, maximum }) => {
    const provider = makeProvider(Provider, KEYS);
    const ask = (limit: number, page: number) => parameter(provider.buildRequest(makeQuery('paging', kind as SearchKind, resultsWanted(limit, page))), name);
    // Page 1 of 10 asks for 11: one more than the page, to tell whether a next page exists.
    expect(ask(10, 1)).toBe('11');
    expect(ask(5, 3)).toBe('16');
    // Page 10 of 50 wants 501: each API's own maximum where that is less.
    expect(ask(50, 10)).toBe(String(Math.min(501, maximum)));
  });

  it('asks arXiv and SearXNG for their first results, which the later pages of a fused list are sliced after', () => {
    const arxiv = provider(ArxivProvider).buildRequest(makeQuery('paging', 'papers', resultsWanted(10, 3)));
    expect(new URL(arxiv.url).searchParams.get('start')).toBe('0');
    const searxng = provider(SearxngProvider).buildRequest(makeQuery('paging', 'web', resultsWanted(10, 3)));
    expect(new URL(searxng.url).searchParams.get('pageno')).toBe('1');
  });
});

function provider(Provider: Parameters<typeof makeProvider>[0]) {
  return makeProvider(Provider, KEYS);
}
