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

/** One page of list=search (https://www.mediawiki.org/wiki/API:Search), with only what the adapter reads. */
const page = (title: string) => ({ query: { search: [{ title, snippet: 'text' }] } });

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
    // The built-in instance on its default edition, https://en.wikipedia.org.
    const { WIKIPEDIA_BASE_URL: _onTheFake, ...env } = providerEnv(upstream.origin);
    service = await startService(
      { ...env, BREAKER_FAILURES: '2', BREAKER_COOLDOWN_MS: '60000', CACHE_TTL_SECONDS: '0', METRICS_TOKEN, LOG_LEVEL: 'silent' },
      undefined,
      { dispatcher: toFake(agent, upstream) },
    );
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

  it("holds every edition for one edition's Retry-After, as Wikimedia counts one client across its wikis", async () => {
    expect(await search('fr')).toMatchObject({ status: 'error', code: 'PROVIDER_RATE_LIMITED', retry_after_ms: 120_000 });
    const enAsked = asked('en.wikipedia.org');
    const held = await search();
    expect(held).toMatchObject({ status: 'suspended', message: 'suspended: the upstream asked to wait (Retry-After)' });
    expect(held.retry_after_ms).toBeGreaterThan(100_000);
    expect(asked('en.wikipedia.org')).toBe(enAsked);
  });
});
