import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const PAPER_PROVIDERS = ['arxiv', 'crossref', 'openalex', 'pubmed', 'semanticscholar'];

type Outcome = { provider: string; status: string; count: number };

describe('providers=auto chooses among providers that can answer now', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Wikipedia answers; every other upstream path is down (a 500, which the breaker counts: a 4xx refusal of
    // what was asked would not).
    upstream.json('*', { error: 'down' }, 500);
    upstream.json('/wikipedia/w/api.php', fixture('wikipedia/list-search.json'));
    service = await startService({ ...providerEnv(upstream.origin), BREAKER_FAILURES: '1', BREAKER_COOLDOWN_MS: '600000', LOG_LEVEL: 'silent' });
    // One failure each suspends the code-topic providers that are configured (no keys: brave and exa are not).
    const failing = await (await request(service.origin, '/v1/search/web?q=warm+up&providers=searxng,hackernews')).json();
    expect(failing.providers.map((outcome: Outcome) => outcome.status)).toEqual(['error', 'error']);
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('routes "what is rust" past its suspended code providers to ones that answer', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=what+is+rust&providers=auto')).json();
    expect(body.routing.providers).toEqual(['wikipedia', 'local']);
    expect(body.routing.reasons).toEqual([
      'definition query (score 0.35: what is): wikipedia, local',
      'suspended, not chosen: searxng, hackernews',
      'code query (score 0.35: rust): none of brave, exa, searxng, hackernews is configured and available',
    ]);
    const wikipedia = body.providers.find((outcome: Outcome) => outcome.provider === 'wikipedia');
    expect(wikipedia).toMatchObject({ status: 'ok' });
    expect(body.results.length).toBeGreaterThan(0);
  });

  it('takes "define entropy" as a definition query', async () => {
    const response = await request(service.origin, '/v1/ops/web_search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'define entropy', providers: 'auto' }),
    });
    const body = await response.json();
    expect(body.routing.providers).toEqual(['wikipedia', 'local']);
    expect(body.routing.reasons[0]).toBe('definition query (score 0.35: define): wikipedia, local');
  });

  it('falls back to the kind\'s defaults when no provider of it can answer, each saying why', async () => {
    await request(service.origin, '/v1/search/papers?q=warm+up');
    const body = await (await request(service.origin, '/v1/search/papers?q=attention+paper&providers=auto')).json();
    expect(body.routing.providers.sort()).toEqual(PAPER_PROVIDERS);
    expect(body.routing.reasons[0]).toBe('no papers provider is configured and available: the defaults, each reporting why');
    expect(body.providers.map((outcome: Outcome) => outcome.status)).toEqual(PAPER_PROVIDERS.map(() => 'suspended'));
  });
});
