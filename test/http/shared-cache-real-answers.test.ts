import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithRedis } from '../support/redis-server.js';
import { SHARED_FIXTURES_DIR } from '../support/shared-fixtures.js';
import { startSharedReplicas, type SharedReplicas } from '../support/shared-replicas.js';
import { callOperation, request, type RunningService } from '../support/service.js';

/** A recorded answer of a real service (../shared/fixtures), as its adapter's upstream sends it. */
const recorded = (provider: string, file: string): string => readFileSync(path.join(SHARED_FIXTURES_DIR, provider, file), 'utf8');

/** Each provider's search path on the fake upstream and the recorded body it answers with. */
const ROUTES: Array<[string, string, string, string]> = [
  ['/brave/res/v1/web/search', 'brave', 'web-search-semantic-kernel.json', 'application/json'],
  ['/exa/search', 'exa', 'search-highlights.json', 'application/json'],
  ['/tavily/search', 'tavily', 'search-answer-images-rawcontent.json', 'application/json'],
  ['/searxng/search', 'searxng', 'search-hetongxue-general.json', 'application/json'],
  ['/hackernews/api/v1/search', 'hackernews', 'search-tim-cook-story-p1.json', 'application/json'],
  ['/wikipedia/w/api.php', 'wikipedia', 'query-list-search-legacy-barack-obama.json', 'application/json'],
  ['/arxiv/api/query', 'arxiv', 'search-all-testing-start0-max10.xml', 'application/atom+xml'],
  ['/crossref/works', 'crossref', 'works-query-ecology-rows2.json', 'application/json'],
  ['/openalex/works', 'openalex', 'works-filter-title-search.json', 'application/json'],
  ['/semanticscholar/graph/v1/paper/search', 'semanticscholar', 'paper-search-turing-allfields.json', 'application/json'],
  ['/pubmed/entrez/eutils/esearch.fcgi', 'pubmed', 'esearch-pubmed-biopython.xml', 'text/xml'],
  ['/pubmed/entrez/eutils/efetch.fcgi', 'pubmed', 'efetch-pubmed-29915538.xml', 'text/xml'],
  ['/github/search/repositories', 'github', 'search-repositories-python-stars-p1.json', 'application/json'],
  ['/github/search/code', 'github', 'search-code-text-match.json', 'application/json'],
  ['/youtube/youtube/v3/search', 'youtube', 'search-surfing-page1.json', 'application/json'],
  ['/youtube/youtube/v3/videos', 'youtube', 'videos-by-id-multi.json', 'application/json'],
];

/** One search of each kind of provider, each answered by that provider's recorded answer. */
const SEARCHES: Array<[string, string, Record<string, unknown>]> = [
  ...['brave', 'exa', 'tavily', 'searxng', 'hackernews', 'wikipedia'].map(
    (provider): [string, string, Record<string, unknown>] => [provider, 'web_search', { query: 'recorded web answer', providers: [provider] }],
  ),
  ...['arxiv', 'crossref', 'openalex', 'semanticscholar', 'pubmed'].map(
    (provider): [string, string, Record<string, unknown>] => [provider, 'paper_search', { query: 'recorded paper answer', providers: [provider] }],
  ),
  ['github repositories', 'github_search', { query: 'recorded repositories', type: 'repositories' }],
  ['github code', 'github_search', { query: 'recorded code', type: 'code' }],
  ['youtube', 'youtube_search', { query: 'recorded videos' }],
  ['every web provider at once', 'web_search', { query: 'recorded web answers together' }],
  ['every paper provider at once', 'paper_search', { query: 'recorded paper answers together' }],
];

/**
 * What one replica keeps in Redis from the real answers of every provider is what the other serves from it: the
 * bounds a shared answer is read back within (cached-answer.ts isStoredAnswer) let through every answer this service
 * writes, with its score explanations, extras, identifiers and dates as the adapters make them from real responses.
 */
// The recorded answers live beside the project (CI has them); a bare clone says why these do not run.
const describeWithFixtures = existsSync(SHARED_FIXTURES_DIR)
  ? describeWithRedis
  : (name: string, _body: () => void) =>
      describe(name, () => {
        it.skip(`skipped: ${SHARED_FIXTURES_DIR} not found (bare clone)`, () => undefined);
      });

describeWithFixtures('real answers of every provider kind through a shared Redis', () => {
  let replicas: SharedReplicas;

  beforeAll(async () => {
    replicas = await startSharedReplicas({
      BRAVE_API_KEY: 'brave-key-0123456789',
      EXA_API_KEY: 'exa-key-0123456789',
      TAVILY_API_KEY: 'tvly-key-0123456789',
      GITHUB_TOKEN: 'gh-token-0123456789',
      YOUTUBE_API_KEY: 'yt-key-0123456789',
    });
    for (const [route, provider, file, type] of ROUTES) {
      replicas.upstream.on(route, { kind: 'respond', headers: { 'content-type': type }, body: recorded(provider, file) });
    }
  });
  afterAll(() => replicas.stop());

  const call = async (service: RunningService, operation: string, input: Record<string, unknown>) => {
    const response = await callOperation(service, operation, input);
    expect(response.status).toBe(200);
    return response.json();
  };

  it.each(SEARCHES)('%s: the other replica serves the answer kept in Redis as a hit', async (_name, operation, input) => {
    const first = await call(replicas.a, operation, input);
    expect(first.cached).toBe(false);
    expect(first.results.length).toBeGreaterThan(0);
    const second = await call(replicas.b, operation, input);
    expect(second.cached).toBe(true);
    expect(second.results).toEqual(first.results);
    expect(second.providers).toEqual(first.providers);
  });

  it.each([
    ['web', 'brave,exa,tavily,searxng,hackernews,wikipedia'],
    ['papers', 'arxiv,crossref,openalex,semanticscholar,pubmed'],
  ])('%s: an answer read back with its score explanations is served as a hit, explanations and all', async (kind, providers) => {
    const path = `/v1/search/${kind}?q=recorded+explained+answer&providers=${providers}&explain=true`;
    const first = await (await request(replicas.a.origin, path)).json();
    expect(first.cached).toBe(false);
    expect(first.results.length).toBeGreaterThan(0);
    expect(first.results.every((result: { explain?: unknown[] }) => (result.explain?.length ?? 0) > 0)).toBe(true);
    const second = await (await request(replicas.b.origin, path)).json();
    expect(second.cached).toBe(true);
    expect(second.results).toEqual(first.results);
  });
});
