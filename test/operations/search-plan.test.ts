import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { filtersOf } from '../../src/operations/search-operations.js';
import { braveBody } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

describe('a planned search', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', braveBody('https://brave.example/1'));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('selects its providers once, for the count it reports and for the search itself', async () => {
    const select = vi.spyOn(service.app.searchService, 'selectProviders');
    const answer = await (await request(service.origin, '/v1/search/web?q=once&providers=brave,wikipedia')).json();
    expect(answer.providers.map((outcome: { provider: string }) => outcome.provider)).toEqual(['brave', 'wikipedia']);
    expect(select).toHaveBeenCalledTimes(1);
  });

  it('still refuses an unknown provider before asking any', async () => {
    const before = upstream.requests.length;
    const response = await request(service.origin, '/v1/search/web?q=once&providers=brave,nosuch');
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/unknown provider "nosuch"/);
    expect(upstream.requests.length).toBe(before);
  });
});

describe('filtersOf', () => {
  it('takes every filter that is set, in the order the parameters are declared, and nothing else', () => {
    const input = { query: 'q', max_results: 5, safesearch: 'strict', time_range: 'week', year_to: 2020, scope: 'issues', open_access: undefined };
    expect(Object.entries(filtersOf(input))).toEqual([
      ['time_range', 'week'],
      ['safesearch', 'strict'],
      ['year_to', 2020],
      ['scope', 'issues'],
    ]);
  });
});
