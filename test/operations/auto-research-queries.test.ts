import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveBody, callTool, connect, textOf, type Connected } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

interface PlannedStep {
  operation: string;
  params: Record<string, unknown>;
}

/** Where each upstream reads its search words. */
const SEARCH_WORDS: Record<string, [path: string, parameter: string]> = {
  arxiv: ['/arxiv/api/query', 'search_query'],
  openalex: ['/openalex/works', 'search'],
  crossref: ['/crossref/works', 'query'],
  semanticscholar: ['/semanticscholar/graph/v1/paper/search', 'query'],
  pubmed: ['/pubmed/entrez/eutils/esearch.fcgi', 'term'],
  github: ['/github/search/repositories', 'q'],
  hackernews: ['/hackernews/api/v1/search', 'query'],
  youtube: ['/youtube/youtube/v3/search', 'q'],
  brave: ['/brave/res/v1/web/search', 'q'],
};

describe('auto_research sends each planned search the words its providers can use', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;
  const year = new Date().getUTCFullYear();

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .json('/brave/res/v1/web/search', braveBody('https://brave.example/1'))
      .on('/arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'application/atom+xml' }, body: fixture('arxiv/search.xml') })
      .json('/openalex/works', fixture('openalex/works-search.json'))
      .json('/crossref/works', fixture('crossref/works-query.json'))
      .json('/semanticscholar/graph/v1/paper/search', fixture('semanticscholar/search.json'))
      .on('/pubmed/entrez/eutils/esearch.fcgi', { kind: 'respond', headers: { 'content-type': 'text/xml' }, body: fixture('pubmed/esearch.xml') })
      .on('/pubmed/entrez/eutils/efetch.fcgi', { kind: 'respond', headers: { 'content-type': 'text/xml' }, body: fixture('pubmed/efetch.xml') })
      .json('/github/search/repositories', fixture('github/search-repositories.json'))
      .json('/hackernews/api/v1/search', fixture('hackernews/search.json'))
      .json('/youtube/youtube/v3/search', fixture('youtube/search.json'))
      .json('/youtube/youtube/v3/videos', fixture('youtube/videos.json'));
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'test-key-1',
      YOUTUBE_API_KEY: 'test-key-2',
      CACHE_TTL_SECONDS: '0',
      MCP_TOOLS: 'split',
      LOG_LEVEL: 'silent',
    });
    connected = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  /** Runs auto_research; answers its plan and, for each upstream asked, the URLs of its searches (their words and filters). */
  async function research(query: string): Promise<{ plan: PlannedStep[]; asked: Record<string, URL[]> }> {
    const before = upstream.requests.length;
    const response = await callOperation(service, 'auto_research', { query, depth: 2 });
    expect(response.status).toBe(200);
    const { plan } = (await response.json()) as { plan: PlannedStep[] };
    const requests = upstream.requests.slice(before);
    const asked: Record<string, URL[]> = {};
    for (const [provider, [path]] of Object.entries(SEARCH_WORDS)) {
      const urls = requests.filter((request) => request.path === path).map((request) => request.url);
      if (urls.length > 0) asked[provider] = urls;
    }
    return { plan, asked };
  }

  const words = (asked: Record<string, URL[]>, provider: string) => asked[provider]?.map((url) => url.searchParams.get(SEARCH_WORDS[provider]![1]));

  it('asks the paper providers for the subject of "recent papers on …", from last year on, and the web for the last year', async () => {
    const { plan, asked } = await research('recent papers on protein folding');
    expect(plan.find((step) => step.operation === 'paper_search')?.params).toEqual({ query: 'protein folding', max_results: 8, year_from: year - 1 });
    // arXiv ANDs every clause: "recent", "papers" and "on" found nothing.
    expect(words(asked, 'arxiv')).toEqual([`all:protein AND all:folding AND submittedDate:[${year - 1}01010000 TO 999912312359]`]);
    expect(words(asked, 'openalex')).toEqual(['protein folding']);
    expect(asked.openalex![0]!.searchParams.get('filter')).toBe(`publication_year:>${year - 2}`);
    expect(words(asked, 'pubmed')).toEqual(['protein folding']);
    expect(asked.pubmed![0]!.searchParams.get('mindate')).toBe(String(year - 1));
    expect(words(asked, 'crossref')).toEqual(['protein folding']);
    expect(words(asked, 'semanticscholar')).toEqual(['protein folding']);
    // The web is asked the question as it came, for the year the papers come from; "recent" is not news for Hacker News.
    expect(words(asked, 'brave')).toEqual(['recent papers on protein folding']);
    expect(asked.brave![0]!.searchParams.get('freshness')).toBe('py');
    // Hacker News is one of the web providers: asked by web_search alone, with no search of its own.
    expect(plan.map((step) => step.operation)).not.toContain('hackernews_search');
    expect(words(asked, 'hackernews')).toEqual(['recent papers on protein folding']);
  });

  it('asks GitHub for the words a repository says, not the question around them', async () => {
    const { plan, asked } = await research('python library for parsing pdf files');
    expect(plan.find((step) => step.operation === 'github_search')?.params).toEqual({ query: 'python parsing pdf files', max_results: 8 });
    // GitHub matches every word in a repository's name, description or topics: "library" and "for" rarely are there.
    expect(words(asked, 'github')).toEqual(['is:public python parsing pdf files']);
    expect(words(asked, 'brave')).toEqual(['python library for parsing pdf files']);
  });

  it('plans no search for a topic only excluded words name, read as the providers read them (closed first)', async () => {
    // Read without closing, the NOT that opens the group was a word and its group words to find: rust, compiler and bug
    // made a code question, and GitHub was asked for them.
    for (const query of ['snakes (NOT (rust OR compiler OR bug))', 'snakes -(cobra OR (viper OR (boa OR (mamba OR (rust compiler bug)))))']) {
      const { plan } = await research(query);
      expect(plan.map((step) => step.operation), query).not.toContain('github_search');
      expect(plan.map((step) => step.operation), query).toContain('web_search');
    }
    // The same words asked for make one.
    expect((await research('snakes rust compiler bug')).plan.map((step) => step.operation)).toContain('github_search');
  });

  it('keeps a quoted phrase and a name whole', async () => {
    const { asked } = await research('find me a github repository for "rate limiting" in Go');
    expect(words(asked, 'github')).toEqual(['is:public "rate limiting" Go']);
  });

  it('asks Hacker News for the subject of a news question, and YouTube for the videos without "video"', async () => {
    const news = await research('news about the EU AI act');
    // Once by hackernews_search, once as one of web_search's providers (the question as asked).
    expect(words(news.asked, 'hackernews')!.sort()).toEqual(['EU AI act', 'news about the EU AI act']);
    expect(news.plan.find((step) => step.operation === 'hackernews_search')?.params.query).toBe('EU AI act');
    expect(news.asked.brave![0]!.searchParams.get('freshness')).toBe('pw');
    const video = await research('rust async tutorial video');
    expect(words(video.asked, 'youtube')).toEqual(['rust async tutorial']);
    expect(words(video.asked, 'brave')).toEqual(['rust async tutorial video']);
  });

  it('asks the paper providers for the years a question names, as filters, not as words every paper must contain', async () => {
    const since = await research('papers on protein folding since 2023');
    expect(since.plan.find((step) => step.operation === 'paper_search')?.params).toEqual({ query: 'protein folding', max_results: 8, year_from: 2023 });
    // arXiv ANDs every clause: all:since AND all:2023 would demand the words in the text.
    expect(words(since.asked, 'arxiv')).toEqual(['all:protein AND all:folding AND submittedDate:[202301010000 TO 999912312359]']);
    expect(words(since.asked, 'openalex')).toEqual(['protein folding']);
    expect(since.asked.openalex![0]!.searchParams.get('filter')).toBe('publication_year:>2022');
    // The web reads the question as asked, and is not limited to a year that would cut off 2023.
    expect(words(since.asked, 'brave')).toEqual(['papers on protein folding since 2023']);
    expect(since.asked.brave![0]!.searchParams.get('freshness')).toBeNull();

    const range = await research('protein folding papers 2019–2021');
    expect(words(range.asked, 'arxiv')).toEqual(['all:protein AND all:folding AND submittedDate:[201901010000 TO 202112312359]']);
    expect(words(range.asked, 'openalex')).toEqual(['protein folding']);
    expect(range.asked.openalex![0]!.searchParams.get('filter')).toBe('publication_year:>2018,publication_year:<2022');
  });

  it('asks Hacker News for news of the last week, as the web', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { plan, asked } = await research('news about the EU AI act');
    const after = Math.floor(Date.now() / 1000);
    expect(plan.find((step) => step.operation === 'hackernews_search')?.params).toEqual({ query: 'EU AI act', max_results: 8, time_range: 'week' });
    const weekAgo = 7 * 86_400;
    // Both searches (hackernews_search, and web_search's own Hacker News provider) ask for stories of the last week.
    for (const url of asked.hackernews!) {
      const since = Number(/^created_at_i>(\d+)$/.exec(url.searchParams.get('numericFilters') ?? '')?.[1]);
      expect(since).toBeGreaterThanOrEqual(before - weekAgo);
      expect(since).toBeLessThanOrEqual(after - weekAgo);
    }
    expect(asked.hackernews).toHaveLength(2);
  });

  it('shows the words each search was sent in its section heading, as a model reads it', async () => {
    const text = textOf(await callTool(connected.client, 'auto_research', { query: 'recent papers on protein folding', depth: 1 }));
    expect(text).toContain(`## paper_search — papers words: papers\nparameters: {"query":"protein folding","max_results":5,"year_from":${year - 1}}\n`);
    expect(text).toContain('## web_search — general web search, the last year (recent papers: recent)\nparameters: {"query":"recent papers on protein folding","max_results":5,"time_range":"year"}\n');
  });

  it('does not take a how-to question for news', async () => {
    const { plan, asked } = await research('how do I update npm packages');
    expect(plan.map((step) => step.operation)).not.toContain('hackernews_search');
    expect(words(asked, 'hackernews')).toEqual(['how do I update npm packages']);
    expect(asked.hackernews![0]!.searchParams.get('numericFilters')).toBeNull();
    expect(plan.find((step) => step.operation === 'web_search')?.params).toEqual({ query: 'how do I update npm packages', max_results: 8 });
    expect(asked.brave![0]!.searchParams.get('freshness')).toBeNull();
  });
});
