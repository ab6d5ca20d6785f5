import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

const fixture = (path: string): string => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

/**
 * A search a provider cannot be asked (arXiv given a query with no word it can search for, GitHub's code search without
 * GITHUB_TOKEN) is reported as not asked (skipped, not_configured), before any breaker, rate limit or request: it says
 * nothing of the upstream. As an error, with BREAKER_FAILURES=1 one such call suspended the provider for every caller,
 * its searches that could be sent included, though README's breaker row says a failure its caller caused does not count.
 */
describe('a call refused before anything is sent', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('GET /arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'application/atom+xml' }, body: fixture('arxiv/search.xml') });
    upstream.json('GET /github/search/repositories', fixture('github/search-repositories.json'));
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test',
      TAVILY_API_KEY: 'tvly-test',
      EXA_API_KEY: 'exa-test',
      YOUTUBE_API_KEY: 'yt-test',
      BREAKER_FAILURES: '1',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const healthOf = async (name: string): Promise<unknown> => {
    const body = (await (await request(service.origin, '/v1/providers')).json()) as { providers: Array<{ name: string; health: unknown }> };
    return body.providers.find((provider) => provider.name === name)?.health;
  };

  it('reports arXiv skipped, saying why, and does not suspend it', async () => {
    // A symbol is a word to search for (closed-query.ts), but none arXiv's words-alone query can hold (`?!`, its example
    // before, is now no word for any provider).
    const refused = await (await request(service.origin, `/v1/search/papers?q=${encodeURIComponent('€ ∑')}&providers=arxiv`)).json();
    expect(refused.providers[0]).toMatchObject({ provider: 'arxiv', status: 'skipped', message: 'the query has no words arXiv can search for' });
    expect(await healthOf('arxiv')).toMatchObject({ state: 'closed', consecutive_failures: 0 });
    const answered = await (await request(service.origin, '/v1/search/papers?q=rank+fusion&providers=arxiv')).json();
    expect(answered.providers[0]).toMatchObject({ provider: 'arxiv', status: 'ok' });
    expect(upstream.requestsTo('/arxiv/api/query')).toHaveLength(1);
  });

  it('reports PubMed, OpenAlex and GitHub skipped for a query of operators, quotes or parentheses alone, as arXiv is', async () => {
    const noWord = 'the query has no word to search for, only operators (AND, OR, NOT), quotes, parentheses or punctuation';
    // Sent as typed, `AND (` was PubMed's and OpenAlex's to refuse or read as they pleased, and GitHub answers 422.
    const papers = await request(service.origin, `/v1/search/papers?q=${encodeURIComponent('AND (')}&providers=pubmed,openalex,arxiv`);
    expect(papers.status).toBe(200);
    const { providers } = (await papers.json()) as { providers: Array<{ provider: string; status: string; message?: string }> };
    const outcomes = providers.map(({ provider, status, message }) => ({ provider, status, message }));
    expect(outcomes.sort((a, b) => a.provider.localeCompare(b.provider))).toEqual([
      { provider: 'arxiv', status: 'skipped', message: noWord },
      { provider: 'openalex', status: 'skipped', message: noWord },
      { provider: 'pubmed', status: 'skipped', message: noWord },
    ]);
    const code = await callOperation(service, 'github_search', { query: 'NOT (' });
    expect(code.status).toBe(200);
    expect(((await code.json()) as { providers: unknown[] }).providers[0]).toMatchObject({ provider: 'github', status: 'skipped', message: noWord });
    expect(upstream.requestsTo('/pubmed/entrez/eutils/esearch.fcgi')).toHaveLength(0);
    expect(upstream.requestsTo('/openalex/works')).toHaveLength(0);
    expect(upstream.requestsTo('/github/search/repositories')).toHaveLength(0);
    expect(await healthOf('pubmed')).toMatchObject({ state: 'closed', consecutive_failures: 0 });
  });

  it('reports every other provider skipped for such a query, with the same reason, and sends nothing', async () => {
    const noWord = 'the query has no word to search for, only operators (AND, OR, NOT), quotes, parentheses or punctuation';
    const outcomesOf = async (response: Response): Promise<Array<{ provider: string; status: string; message?: string }>> => {
      expect(response.status).toBe(200);
      const { providers } = (await response.json()) as { providers: Array<{ provider: string; status: string; message?: string }> };
      return providers.map(({ provider, status, message }) => ({ provider, status, message })).sort((a, b) => a.provider.localeCompare(b.provider));
    };
    // Sent as typed, Tavily and Exa were asked for punctuation, and the others answered `(` or `-` with anything. The
    // rule is the pipeline's, for every provider of each kind (none is named): one an adapter forgot is caught here.
    const sentBefore = upstream.requests.length;
    // Nor punctuation alone (`?!`, `…`), which every API's tokenizer drops: a search for nothing.
    for (const [kind, text] of [['web', '-('], ['papers', '"'], ['web', '?!'], ['papers', '…']] as const) {
      const outcomes = (await outcomesOf(await request(service.origin, `/v1/search/${kind}?q=${encodeURIComponent(text)}`))).filter(
        ({ status }) => status !== 'not_configured',
      );
      const expected = kind === 'web' ? ['brave', 'exa', 'hackernews', 'searxng', 'tavily', 'wikipedia'] : ['arxiv', 'crossref', 'openalex', 'pubmed', 'semanticscholar'];
      expect(outcomes.map(({ provider }) => provider)).toEqual(expect.arrayContaining(expected));
      expect(outcomes, kind).toEqual(outcomes.map(({ provider }) => ({ provider, status: 'skipped', message: noWord })));
    }
    expect(await outcomesOf(await callOperation(service, 'youtube_search', { query: 'AND (' }))).toEqual([{ provider: 'youtube', status: 'skipped', message: noWord }]);
    expect(upstream.requests.slice(sentBefore).map(({ path }) => path)).toEqual([]);
  });

  it("reports GitHub's code search not configured, naming GITHUB_TOKEN, and does not suspend its repository search", async () => {
    const refused = await (await callOperation(service, 'github_search', { query: 'fastify', type: 'code' })).json();
    expect(refused.providers[0]).toMatchObject({ provider: 'github', status: 'not_configured', missing: ['GITHUB_TOKEN'] });
    expect(refused.providers[0].message).toContain('GITHUB_TOKEN');
    expect(upstream.requestsTo('/github/search/code')).toHaveLength(0);
    expect(await healthOf('github')).toMatchObject({ state: 'closed', consecutive_failures: 0 });
    const answered = await (await callOperation(service, 'github_search', { query: 'fastify' })).json();
    expect(answered.providers[0]).toMatchObject({ provider: 'github', status: 'ok' });
  });
});
