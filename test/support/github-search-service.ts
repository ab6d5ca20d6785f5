import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { FakeUpstream } from './fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from './service.js';

/** Where the fake GitHub answers code and repository searches: providerEnv's base URL and each API's path. */
export const GITHUB_CODE_SEARCH_PATH = '/github/search/code';
export const GITHUB_REPOSITORY_SEARCH_PATH = '/github/search/repositories';

/** GitHub's outcome in a github_search answer. */
export interface GitHubOutcome {
  provider: string;
  status: string;
  count: number;
  message?: string;
}

export interface GitHubSearchService {
  /** Ready at once: a test reads what GitHub was sent from it. */
  readonly upstream: FakeUpstream;
  /** github_search over REST (of `type`, when given), expecting 200: GitHub's outcome in the answer. */
  search(query: string, type?: 'code' | 'repositories'): Promise<GitHubOutcome>;
  /** The q GitHub was last sent on the path (a search path above); null when it was sent none. */
  sentQuery(path: string): string | null;
}

const fixture = (path: string): string => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

/** GitHub's 422 for a query it cannot parse, as it answers a parenthesised group (github/github-mcp-server#2513). */
const QUERY_PARSING_FAILED = JSON.stringify({
  message: 'Validation Failed',
  errors: [{ message: 'ERROR_TYPE_QUERY_PARSING_FATAL', resource: 'Search', field: 'q', code: 'invalid' }],
});

/**
 * The real service for the enclosing describe block, with a token for GitHub (code search takes none without) and no
 * answer cache (each search reaches GitHub), and a fake GitHub that answers code and repository searches with the
 * recorded results and refuses a q holding a parenthesis outside a phrase with 422, as GitHub does: started before
 * the block's tests, stopped after them.
 */
export function useGitHubSearchService(): GitHubSearchService {
  const upstream = new FakeUpstream();
  for (const [path, results] of [
    [GITHUB_CODE_SEARCH_PATH, fixture('github/search-code.json')],
    [GITHUB_REPOSITORY_SEARCH_PATH, fixture('github/search-repositories.json')],
  ] as const) {
    upstream.on(`GET ${path}`, {
      kind: 'handler',
      handle: (recorded, response) => {
        const grouped = /[()]/.test((recorded.url.searchParams.get('q') ?? '').replace(/"[^"]*"/g, ''));
        const [status, body] = grouped ? [422, QUERY_PARSING_FAILED] : [200, results];
        response.writeHead(status, { 'content-type': 'application/json' }).end(body);
      },
    });
  }
  let service: RunningService | undefined;

  beforeAll(async () => {
    await upstream.start();
    service = await startService({ ...providerEnv(upstream.origin), GITHUB_TOKEN: 'ghp_test1234', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service?.stop();
    await upstream.stop();
  });

  return {
    upstream,
    search: async (query, type) => {
      if (!service) throw new Error('the service starts before the tests of its describe block: search in a test');
      const response = await callOperation(service, 'github_search', type === undefined ? { query } : { query, type });
      expect(response.status, query).toBe(200);
      const body = (await response.json()) as { providers: GitHubOutcome[] };
      return body.providers.find((outcome) => outcome.provider === 'github')!;
    },
    sentQuery: (path) => upstream.requestsTo(path).at(-1)?.url.searchParams.get('q') ?? null,
  };
}
