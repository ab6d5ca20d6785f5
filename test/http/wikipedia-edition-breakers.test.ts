import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type Dispatcher } from 'undici';
import { callTool, connect, textOf } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const METRICS_TOKEN = 'metrics-token-for-editions';

type Outcome = { provider: string; status: string; code?: string; message?: string; retry_after_ms?: number };

/**
 * Carries every provider request to the fake upstream, under `/<host>` of the host it was sent to: the Wikipedia
 * editions are https://xx.wikipedia.org and nothing else (a base URL elsewhere is no edition), so this is how a test
 * answers for them on 127.0.0.1, as a resolver pointing their names at a local server would.
 */
function toFake(agent: Agent, fake: FakeUpstream): Dispatcher {
  return agent.compose((dispatch) => (options, handler) => {
    const host = new URL(String(options.origin)).hostname;
    return dispatch({ ...options, origin: fake.origin, path: `/${host}${options.path}` }, handler);
  });
}

/** A `providers=auto` search of the web, in `language` when given, with the routing its answer explains. */
async function routed(service: RunningService, query: string, language?: string) {
  const response = await request(service.origin, `/v1/search/web?q=${encodeURIComponent(query)}&providers=auto${language ? `&language=${language}` : ''}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { routing: { providers: string[]; reasons: string[] }; providers: Outcome[] };
}

/** One page of list=search (https://www.mediawiki.org/wiki/API:Search), with only what the adapter reads. */
const page = (title: string) => ({ query: { search: [{ title, snippet: 'text' }] } });

/**
 * The service with its built-in Wikipedia instance on its default edition (https://en.wikipedia.org), every edition's
 * requests carried to `upstream`, breakers opening after two failures and no cache.
 */
function startOnEditions(upstream: FakeUpstream, agent: Agent, more: Record<string, string> = {}): Promise<RunningService> {
  const { WIKIPEDIA_BASE_URL: _onTheFake, ...env } = providerEnv(upstream.origin);
  return startService(
    { ...env, BREAKER_FAILURES: '2', BREAKER_COOLDOWN_MS: '60000', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent', ...more },
    undefined,
    { dispatcher: toFake(agent, upstream) },
  );
}

/**
 * Each Wikipedia edition is its own wiki, database and search index: one failing must not suspend the others. With
 * one breaker for the instance, de.wikipedia.org's failures suspended English searches too. A Retry-After is another
 * matter: Wikimedia counts one client across its wikis, so it holds every edition.
 */
describe('Wikipedia editions and their circuit breakers, over real HTTP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const agent = new Agent({ keepAliveTimeout: 1000 });

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .json('/en.wikipedia.org/w/api.php', page('Rank fusion'))
      .json('/de.wikipedia.org/w/api.php', { error: 'the wiki is down' }, 500)
      .json('/fr.wikipedia.org/w/api.php', { error: 'too many requests' }, 429, { 'retry-after': '120' });
    service = await startOnEditions(upstream, agent, { METRICS_TOKEN });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
    await agent.close();
  });

  const search = async (language?: string): Promise<Outcome> => {
    const response = await request(service.origin, `/v1/search/web?q=rank+fusion&providers=wikipedia${language ? `&language=${language}` : ''}`);
    expect(response.status).toBe(200);
    return ((await response.json()).providers as Outcome[])[0]!;
  };
  const asked = (host: string) => upstream.requestsTo(`/${host}/w/api.php`).length;
  const circuitLines = async () =>
    (await (await request(service.origin, '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text())
      .split('\n')
      .filter((line) => line.startsWith('fedsearch_provider_circuit_state{provider="wikipedia"'));

  it('suspends the failing edition alone: English searches still go to en.wikipedia.org', async () => {
    expect(await search('de')).toMatchObject({ status: 'error' });
    expect(await search('de')).toMatchObject({ status: 'error' });
    const deAsked = asked('de.wikipedia.org');
    const suspended = await search('de-AT');
    expect(suspended).toMatchObject({ status: 'suspended', message: 'suspended after 2 consecutive failures at de.wikipedia.org' });
    expect(suspended.retry_after_ms).toBeGreaterThan(0);
    expect(asked('de.wikipedia.org')).toBe(deAsked);

    const enAsked = asked('en.wikipedia.org');
    expect(await search()).toMatchObject({ status: 'ok', count: 1 });
    expect(await search('en')).toMatchObject({ status: 'ok', count: 1 });
    expect(asked('en.wikipedia.org')).toBe(enAsked + 2);

    // The instance's own edition is closed; the German one is open, under its host, on /v1/providers and /metrics.
    const listed = (await (await request(service.origin, '/v1/providers')).json()).providers.find((provider: { name: string }) => provider.name === 'wikipedia');
    expect(listed.health).toMatchObject({ state: 'closed', consecutive_failures: 0 });
    expect(listed.host_health).toEqual({ 'de.wikipedia.org': expect.objectContaining({ state: 'open', consecutive_failures: 2 }) });
    expect(await circuitLines()).toEqual(
      expect.arrayContaining(['fedsearch_provider_circuit_state{provider="wikipedia"} 0', 'fedsearch_provider_circuit_state{provider="wikipedia",host="de.wikipedia.org"} 2']),
    );
    // A model picking providers reads that German searches will not be answered for now, and English ones will.
    const connected = await connect(service.origin, 'streamable');
    try {
      const text = textOf(await callTool(connected.client, 'research', { operation: 'list_providers', params: { kind: 'web' } }));
      expect(text).toMatch(/^- wikipedia \(mediawiki, web\): configured, suspended at de\.wikipedia\.org \(retry after \d+ s; last error: HTTP 500[^)]*\)$/m);
    } finally {
      await connected.close();
    }
  });

  it('routes providers=auto past Wikipedia for a German search while de.wikipedia.org is suspended, and to it for others', async () => {
    const deAsked = asked('de.wikipedia.org');
    const german = await routed(service, 'what is rank fusion', 'de');
    expect(german.routing.providers.length).toBeGreaterThan(0);
    expect(german.routing.providers).not.toContain('wikipedia');
    expect(german.routing.reasons).toContain('suspended, not chosen: wikipedia (at de.wikipedia.org)');
    expect(german.providers.map((outcome) => outcome.provider)).not.toContain('wikipedia');
    expect(asked('de.wikipedia.org')).toBe(deAsked);
    // English searches meet the instance's own breaker, which is closed: a definition question goes to Wikipedia first.
    const english = await routed(service, 'what is rank fusion');
    expect(english.routing.providers[0]).toBe('wikipedia');
    expect(english.providers.find((outcome) => outcome.provider === 'wikipedia')).toMatchObject({ status: 'ok', count: 1 });
  });

  it("holds every edition for one edition's Retry-After, as Wikimedia counts one client across its wikis", async () => {
    expect(await search('fr')).toMatchObject({ status: 'error', code: 'PROVIDER_RATE_LIMITED', retry_after_ms: 120_000 });
    const enAsked = asked('en.wikipedia.org');
    const held = await search();
    expect(held).toMatchObject({ status: 'suspended', message: 'suspended: the upstream asked to wait (Retry-After)' });
    expect(held.retry_after_ms).toBeGreaterThan(100_000);
    expect(asked('en.wikipedia.org')).toBe(enAsked);
    // An edition no search has asked yet is held as well: auto routing passes Wikipedia over for it, and makes no
    // breaker for it by looking (host_health lists the editions searches reached).
    const italian = await routed(service, 'what is rank fusion', 'it');
    expect(italian.routing.reasons).toContain('suspended, not chosen: wikipedia (at it.wikipedia.org)');
    expect(asked('it.wikipedia.org')).toBe(0);
    const listed = (await (await request(service.origin, '/v1/providers')).json()).providers.find((provider: { name: string }) => provider.name === 'wikipedia');
    expect(Object.keys(listed.host_health)).not.toContain('it.wikipedia.org');
  });
});

/**
 * The other way round: the instance's own edition suspended says nothing of another edition's, which the pipeline
 * admits a search in its language to. Routing passed Wikipedia over for every language while en.wikipedia.org was out.
 */
describe('providers=auto and an instance whose own edition is suspended, over real HTTP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const agent = new Agent({ keepAliveTimeout: 1000 });

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/en.wikipedia.org/w/api.php', { error: 'the wiki is down' }, 500).json('/de.wikipedia.org/w/api.php', page('Rangfusion'));
    service = await startOnEditions(upstream, agent);
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
    await agent.close();
  });

  it('routes a German definition question to Wikipedia, which de.wikipedia.org answers, and an English one past it', async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await request(service.origin, `/v1/search/web?q=rank+fusion+${attempt}&providers=wikipedia`);
      expect(((await response.json()).providers as Outcome[])[0]).toMatchObject({ provider: 'wikipedia', status: 'error' });
    }
    const english = await routed(service, 'what is rank fusion');
    expect(english.routing.providers).not.toContain('wikipedia');
    expect(english.routing.reasons).toContain('suspended, not chosen: wikipedia');

    const german = await routed(service, 'what is rank fusion', 'de');
    expect(german.routing.providers[0]).toBe('wikipedia');
    expect(german.providers.find((outcome) => outcome.provider === 'wikipedia')).toMatchObject({ status: 'ok', count: 1 });
    expect(upstream.requestsTo('/de.wikipedia.org/w/api.php')).toHaveLength(1);
  });
});
