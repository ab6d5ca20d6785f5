import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

describe('operation routes', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', {
      web: {
        results: [
          { title: 'Reddit thread', url: 'https://www.reddit.com/r/rust/comments/1', description: 'a thread' },
          { title: 'Blog', url: 'https://blog.example.org/post', description: 'a post' },
        ],
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const call = (operation: string, body: unknown) =>
    request(service.origin, `/v1/ops/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('web_search passes language to providers that take it and skips the others with the reason', async () => {
    const body = await (await call('web_search', { query: 'rust', providers: ['brave', 'wikipedia', 'local'], language: 'de' })).json();
    const outcomes = Object.fromEntries(body.providers.map((outcome: { provider: string }) => [outcome.provider, outcome]));
    expect(outcomes.brave).toMatchObject({ status: 'ok' });
    expect(outcomes.wikipedia).toMatchObject({ status: 'skipped', message: "cannot tell its site's language: WIKIPEDIA_LANGUAGE is not set" });
    expect(outcomes.local).toMatchObject({ status: 'skipped' });
    expect(upstream.requestsTo('/brave/res/v1/web/search').at(-1)!.url.searchParams.get('search_lang')).toBe('de');
  });

  it('web_search applies include_domains itself where the provider cannot', async () => {
    const body = await (await call('web_search', { query: 'rust', providers: ['brave'], include_domains: ['reddit.com'] })).json();
    expect(body.results.map((result: { url: string }) => result.url)).toEqual(['https://www.reddit.com/r/rust/comments/1']);
    expect(body.providers[0]).toMatchObject({ status: 'ok', count: 1 });
  });

  it.each([
    ['web_search', { query: 'x', time_range: 'decade' }, 'time_range: "decade" is not allowed; allowed: "day", "week", "month", "year"'],
    ['web_search', { query: 'x', include_domains: ['not a domain'] }, 'include_domains.0: not a domain name; allowed: a domain such as example.com, with or without a path (docs.example.com/guide)'],
    ['web_search', { query: 'x', max_results: 0 }, 'max_results: 0 is too small; allowed: 1–50'],
    ['paper_search', { query: 'x', year_from: 2020, year_to: 2010 }, 'year_from: 2020 is after year_to (2010); allowed: a year no later than year_to'],
    ['paper_search', { query: 'x', open_access: 'yes' }, 'open_access: "yes" is not a boolean; allowed: true or false'],
    ['list_providers', { kind: 'music' }, 'kind: "music" is not allowed; allowed: '],
  ])('%s with %j is a 400 naming the problem', async (operation, body, expected) => {
    const response = await call(operation, body);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain(expected);
  });

  it('list_operations describes every operation with its JSON Schema and example', async () => {
    const body = await (await call('list_operations', {})).json();
    const names = body.operations.map((operation: { name: string }) => operation.name);
    expect(names).toEqual(expect.arrayContaining(['web_search', 'paper_search', 'list_providers', 'list_operations']));
    const webSearch = body.operations.find((operation: { name: string }) => operation.name === 'web_search');
    expect(Object.keys(webSearch.parameters.properties)).toEqual(
      expect.arrayContaining(['query', 'providers', 'max_results', 'timeout_ms', 'time_range', 'include_domains']),
    );
    expect(webSearch.example).toMatchObject({ query: expect.any(String) });
  });
});
