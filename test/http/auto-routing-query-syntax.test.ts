import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

type Routing = { providers: string[]; reasons: string[] };

/** Which providers providers=auto chooses for a web search, and why. */
async function routingOf(origin: string, query: string): Promise<Routing> {
  const response = await request(origin, `/v1/search/web?q=${encodeURIComponent(query)}&providers=auto`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { routing: Routing }).routing;
}

describe('providers=auto reads what a query is about, not what it excludes or where it looks', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // What the providers answer does not matter here: only whom the routing chose.
    upstream.json('*', {});
    // Configured without keys: searxng, hackernews, wikipedia and the local index (no brave, tavily or exa).
    service = await startService({ ...providerEnv(upstream.origin), BREAKER_FAILURES: '1000', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('chooses for the words asked for: a definition question that excludes forums is no discussion', async () => {
    const routing = await routingOf(service.origin, 'define monad -reddit -reviews -opinions');
    expect(routing.providers).toEqual(['wikipedia', 'searxng', 'local']);
    expect(routing.reasons[0]).toBe('definition query (score 0.35: define): wikipedia, searxng, local');
  });

  it('lets no excluded word pull a topic in', async () => {
    const routing = await routingOf(service.origin, 'snakes -python -"rust"');
    expect(routing.reasons[0]).toBe('no topic stands out: every available web provider');
    expect([...routing.providers].sort()).toEqual(['hackernews', 'local', 'searxng', 'wikipedia']);
  });

  it('lets no word after an upper-case NOT pull a topic in, as a -word would not', async () => {
    const routing = await routingOf(service.origin, 'snakes NOT python AND NOT "rust"');
    expect(routing.reasons[0]).toBe('no topic stands out: every available web provider');
    expect([...routing.providers].sort()).toEqual(['hackernews', 'local', 'searxng', 'wikipedia']);
  });

  it.each([
    // Read without closing, the NOT that opens a group was a word, and rust and compiler code words.
    'snakes (NOT (rust OR compiler))',
    // Five groups deep, past what the readers of excluded terms read: python was a code word.
    'snakes -(cobra OR (viper OR (boa OR (mamba OR (python)))))',
  ])('reads %j as the providers do, closed first: no excluded word pulls a topic in', async (query) => {
    const routing = await routingOf(service.origin, query);
    expect(routing.reasons[0]).toBe('no topic stands out: every available web provider');
    expect([...routing.providers].sort()).toEqual(['hackernews', 'local', 'searxng', 'wikipedia']);
  });

  it('reads a NOT before alternatives in a group as without the group: NOT binds to its one term', async () => {
    // With parentheses the group was read as excluded whole: rust and compiler, asked for, named no topic.
    const grouped = await routingOf(service.origin, 'snakes (NOT python OR rust OR compiler)');
    const flat = await routingOf(service.origin, 'snakes NOT python OR rust OR compiler');
    expect(grouped.reasons[0]).toMatch(/^code query .*rust, compiler/);
    expect(grouped.reasons[0]).not.toMatch(/python/);
    expect(grouped).toEqual(flat);
  });

  it('lets no site: term pull a topic in', async () => {
    const routing = await routingOf(service.origin, 'tokio site:github.com -site:news.ycombinator.com');
    expect(routing.reasons[0]).toBe('no topic stands out: every available web provider');
    expect([...routing.providers].sort()).toEqual(['hackernews', 'local', 'searxng', 'wikipedia']);
  });

  it('still reads the words beside them', async () => {
    const routing = await routingOf(service.origin, 'rust compiler bug site:github.com -python');
    expect(routing.providers).toEqual(['searxng', 'hackernews']);
    expect(routing.reasons[0]).toBe('code query (score 1.00: rust, compiler, bug): searxng, hackernews');
  });
});
