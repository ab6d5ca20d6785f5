import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const CODE = '/github/search/code';
const REPOSITORIES = '/github/search/repositories';
const fixture = (path: string): string => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

type Outcome = { provider: string; status: string; count: number; message?: string };

/**
 * GitHub's code search API reads the legacy code search syntax, which has no boolean operators (GitHub staff, community
 * discussion #125409: an OR found fewer files than either of its words). fedsearch sent it `rank OR fusion` as typed,
 * and answered with files holding neither alternative alone. Its repository search reads OR, and is sent it still.
 */
describe('an OR asked of GitHub code search', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json(`GET ${CODE}`, fixture('github/search-code.json'));
    upstream.json(`GET ${REPOSITORIES}`, fixture('github/search-repositories.json'));
    service = await startService({ ...providerEnv(upstream.origin), GITHUB_TOKEN: 'ghp_test1234', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const githubSearch = async (query: string, type: 'code' | 'repositories'): Promise<Outcome> => {
    const response = await callOperation(service, 'github_search', { query, type });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { providers: Outcome[] };
    return body.providers.find((outcome) => outcome.provider === 'github')!;
  };

  it('reports GitHub skipped for code, saying it reads no OR, and sends it nothing', async () => {
    const before = upstream.requestsTo(CODE).length;
    for (const query of ['rank OR fusion', 'rank OR fusion language:go', '"rank fusion" OR score -python']) {
      const outcome = await githubSearch(query, 'code');
      expect(outcome, query).toMatchObject({ provider: 'github', status: 'skipped' });
      expect(outcome.message, query).toMatch(/^code search reads no OR .*legacy code search syntax.*search for each alternative on its own$/);
    }
    expect(upstream.requestsTo(CODE)).toHaveLength(before);
  });

  it('still searches code for a text with no OR outside its phrases, and repositories for one with an OR', async () => {
    expect(await githubSearch('"rank OR fusion" score', 'code')).toMatchObject({ provider: 'github', status: 'ok' });
    expect(upstream.requestsTo(CODE).at(-1)!.url.searchParams.get('q')).toBe('"rank OR fusion" score');
    expect(await githubSearch('fusion NOT rank', 'code')).toMatchObject({ provider: 'github', status: 'ok' });
    expect(await githubSearch('rank OR fusion', 'repositories')).toMatchObject({ provider: 'github', status: 'ok' });
    expect(upstream.requestsTo(REPOSITORIES).at(-1)!.url.searchParams.get('q')).toBe('is:public rank OR fusion');
  });
});
