import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
const SEARXNG_PATH = '/searxng/search';

/**
 * A language tag is the same in any letter case (BCP 47: `PT-BR`, `pt-br` and `pt-BR` are one tag; `EN` is `en`).
 * Each is taken, and every provider is sent the language in its API's spelling: SearXNG the tag as written in its
 * usual case, Brave its `search_lang` code.
 */
describe('a language code in capitals, over real HTTP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Brave's web search answer (https://api-dashboard.search.brave.com/app/documentation/web-search/responses).
    upstream.json(BRAVE_PATH, { type: 'search', query: { more_results_available: false }, web: { results: [{ title: 'Olá', url: 'https://ola.example/' }] } });
    upstream.json(SEARXNG_PATH, { results: [] });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-case-key-0123456789', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const sentLanguages = (path: string, parameter: string): Array<string | null> =>
    upstream.requestsTo(path).map((sent) => sent.url.searchParams.get(parameter));

  it('takes PT-BR as pt-BR and sends each provider its spelling of it', async () => {
    const response = await request(service.origin, '/v1/search/web?q=ola&providers=brave,searxng&language=PT-BR');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.providers.map((outcome: { status: string }) => outcome.status)).toEqual(['ok', 'ok']);
    expect(sentLanguages(SEARXNG_PATH, 'language')).toEqual(['pt-BR']);
    expect(sentLanguages(BRAVE_PATH, 'search_lang')).toEqual(['pt-br']);
  });

  it('takes EN as en, through the operation too', async () => {
    const response = await callOperation(service, 'web_search', { query: 'hello', providers: ['searxng'], language: 'EN' });
    expect(response.status).toBe(200);
    expect(sentLanguages(SEARXNG_PATH, 'language').at(-1)).toBe('en');
  });

  it('still refuses what is no language code, saying what is allowed', async () => {
    const response = await request(service.origin, '/v1/search/web?q=ola&providers=searxng&language=pt_BR');
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ statusCode: 400, code: 'QUERY_INVALID' });
    expect(body.message).toContain('language: not a language code; allowed: a code such as en or pt-BR');
  });
});
