import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
const SEARXNG_PATH = '/searxng/search';
const HACKERNEWS_PATH = '/hackernews/api/v1/search';
const WIKIPEDIA_PATH = '/wikipedia/w/api.php';
const TAVILY_PATH = '/tavily/search';
const EXA_PATH = '/exa/search';
const ALL = 'brave,searxng,tavily,exa,hackernews,wikipedia';

type Outcome = { provider: string; status: string; message?: string };

/**
 * `safesearch=off` asks for no adult-content filtering. A provider without the setting never filters (Hacker News,
 * Wikipedia) or filters only when asked (Tavily, Exa), so it satisfies `off` and is asked; Brave and SearXNG are
 * sent `off`, since left unset they filter by their default. `moderate` and `strict` still skip what cannot apply
 * them.
 */
describe('safesearch=off, over real HTTP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Each API's answer with only the fields its adapter reads.
    upstream
      .json(BRAVE_PATH, { type: 'search', query: { more_results_available: false }, web: { results: [{ title: 'Brave result', url: 'https://brave.example/1' }] } })
      .json(SEARXNG_PATH, { results: [{ title: 'SearXNG result', url: 'https://searxng.example/1' }] })
      .json(`POST ${TAVILY_PATH}`, { query: 'q', results: [{ title: 'Tavily result', url: 'https://tavily.example/1', content: 'text', score: 0.9 }] })
      .json(`POST ${EXA_PATH}`, { results: [{ title: 'Exa result', url: 'https://exa.example/1' }] })
      .json(HACKERNEWS_PATH, { hits: [{ objectID: '1', title: 'HN result', url: 'https://hn.example/1', created_at_i: 1_700_000_000 }], nbPages: 1, page: 0 })
      .json(WIKIPEDIA_PATH, { query: { search: [{ title: 'Wiki result', snippet: 'text' }] } });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-safe-key-0123456789',
      TAVILY_API_KEY: 'tvly-safe-key-0123456789',
      EXA_API_KEY: 'exa-safe-key-0123456789',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  /** Each provider's status and message, by provider: answers list providers in their configured order, not as asked. */
  const outcomes = (providers: Outcome[]): Record<string, string> =>
    Object.fromEntries(providers.map((outcome) => [outcome.provider, outcome.message ? `${outcome.status}: ${outcome.message}` : outcome.status]));

  it('asks every provider, those without a safe-search setting included, and sends off to those with one', async () => {
    const response = await request(service.origin, `/v1/search/web?q=kittens&providers=${ALL}&safesearch=off`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(outcomes(body.providers)).toEqual({ brave: 'ok', searxng: 'ok', tavily: 'ok', exa: 'ok', hackernews: 'ok', wikipedia: 'ok' });
    expect(upstream.requestsTo(BRAVE_PATH).at(-1)?.url.searchParams.get('safesearch')).toBe('off');
    expect(upstream.requestsTo(SEARXNG_PATH).at(-1)?.url.searchParams.get('safesearch')).toBe('0');
    expect(upstream.requestsTo(HACKERNEWS_PATH)).toHaveLength(1);
    expect(upstream.requestsTo(WIKIPEDIA_PATH)).toHaveLength(1);
  });

  it('asks them through the operation too', async () => {
    const response = await callOperation(service, 'web_search', { query: 'kittens', providers: ['hackernews', 'wikipedia'], safesearch: 'off' });
    expect(response.status).toBe(200);
    expect(outcomes((await response.json()).providers)).toEqual({ hackernews: 'ok', wikipedia: 'ok' });
  });

  it.each(['moderate', 'strict'])('still skips the providers that cannot filter by safesearch=%s, and sends it to the others', async (level) => {
    const asked = upstream.requestsTo(HACKERNEWS_PATH).length;
    const body = await (await request(service.origin, `/v1/search/web?q=kittens&providers=${ALL}&safesearch=${level}`)).json();
    const skipped = 'skipped: cannot filter by safesearch';
    expect(outcomes(body.providers)).toEqual({ brave: 'ok', searxng: 'ok', tavily: skipped, exa: skipped, hackernews: skipped, wikipedia: skipped });
    expect(upstream.requestsTo(BRAVE_PATH).at(-1)?.url.searchParams.get('safesearch')).toBe(level);
    expect(upstream.requestsTo(HACKERNEWS_PATH)).toHaveLength(asked);
  });

  it('sends Brave no safesearch when it is left out: its own default then applies, so off is another search', async () => {
    const response = await request(service.origin, '/v1/search/web?q=kittens&providers=brave');
    expect(response.status).toBe(200);
    expect(upstream.requestsTo(BRAVE_PATH).at(-1)?.url.searchParams.has('safesearch')).toBe(false);
  });
});
