import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const GITHUB = '/github/search/repositories';
const fixture = (path: string): string => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

type Outcome = { provider: string; status: string; count: number; message?: string };

/**
 * GitHub's search answers a parenthesised group with 422 (github/github-mcp-server#2513: `(Foo OR Bar) -path:vendor
 * language:go`), and fedsearch sent groups as typed, leftover ones too: the caller got GitHub's error, not its answer.
 * The fake GitHub here refuses a q holding a parenthesis outside a phrase as GitHub does.
 */
describe('a query holding parentheses, asked of GitHub', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const repositories = fixture('github/search-repositories.json');
    upstream.on(`GET ${GITHUB}`, {
      kind: 'handler',
      handle: (recorded, response) => {
        const grouped = /[()]/.test((recorded.url.searchParams.get('q') ?? '').replace(/"[^"]*"/g, ''));
        const [status, body] = grouped
          ? [422, JSON.stringify({ message: 'Validation Failed', errors: [{ message: 'ERROR_TYPE_QUERY_PARSING_FATAL', resource: 'Search', field: 'q', code: 'invalid' }] })]
          : [200, repositories];
        response.writeHead(status, { 'content-type': 'application/json' }).end(body);
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const githubSearch = async (query: string): Promise<Outcome> => {
    const response = await callOperation(service, 'github_search', { query });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { providers: Outcome[] };
    return body.providers.find((outcome) => outcome.provider === 'github')!;
  };
  const sent = (): string | null => upstream.requestsTo(GITHUB).at(-1)?.url.searchParams.get('q') ?? null;

  it("gets GitHub's results for a group that reads the same without its parentheses", async () => {
    expect(await githubSearch('fusion ( rank) NOT python')).toMatchObject({ provider: 'github', status: 'ok', count: 2 });
    expect(sent()).toBe('is:public fusion rank NOT python');
    expect(await githubSearch('(rank OR fusion)')).toMatchObject({ provider: 'github', status: 'ok', count: 2 });
    expect(sent()).toBe('is:public rank OR fusion');
  });

  it('reports GitHub skipped, naming the group, for one that does not, and sends it nothing', async () => {
    const before = upstream.requestsTo(GITHUB).length;
    const outcome = await githubSearch('(rank OR fusion) typescript');
    expect(outcome).toMatchObject({ provider: 'github', status: 'skipped' });
    expect(outcome.message).toMatch(/^accepts no parentheses .*\(rank OR fusion\) would mean something else/);
    expect(upstream.requestsTo(GITHUB)).toHaveLength(before);
  });

  it("gets GitHub's results for a formula, a group glued to a word, sent as a phrase", async () => {
    // Sent as typed (`solver f(x)`, `-(x+1)`, `NOT f` with `(x)` to find), each was GitHub's 422, not its answer.
    for (const [query, q] of [
      ['solver f(x)', 'is:public solver "f(x)"'],
      ['solver -(x+1)', 'is:public solver "-(x+1)"'],
      ['solver -f(x)', 'is:public solver NOT "f(x)"'],
    ] as const) {
      expect(await githubSearch(query), query).toMatchObject({ provider: 'github', status: 'ok', count: 2 });
      expect(sent(), query).toBe(q);
    }
  });

  it('reports GitHub skipped, naming the formula, for one a phrase would not read as typed, and sends it nothing', async () => {
    const before = upstream.requestsTo(GITHUB).length;
    const outcome = await githubSearch('rank -(2024 OR 2025)');
    expect(outcome).toMatchObject({ provider: 'github', status: 'skipped' });
    expect(outcome.message).toMatch(/^accepts no parentheses .*-\(2024 OR 2025\) cannot be sent without them/);
    expect(upstream.requestsTo(GITHUB)).toHaveLength(before);
  });

  it('sends an AND NOT or OR NOT before a number as one NOT after the words', async () => {
    expect(await githubSearch('rank AND NOT 40')).toMatchObject({ provider: 'github', status: 'ok', count: 2 });
    expect(sent()).toBe('is:public rank NOT 40');
    expect(await githubSearch('rank OR NOT -40 OR fusion')).toMatchObject({ provider: 'github', status: 'ok', count: 2 });
    expect(sent()).toBe('is:public rank OR fusion NOT -40');
  });
});
