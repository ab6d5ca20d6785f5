import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

function searxBody(...results: Array<{ url: string; title: string }>): unknown {
  return { query: 'rank fusion', results: results.map((result) => ({ ...result, content: `about ${result.title}` })), unresponsive_engines: [] };
}

const TEAM_BRAVE_KEY = 'team-brave-secret-0123456789';

const mediawikiBody = {
  batchcomplete: true,
  query: { search: [{ ns: 0, title: 'Rank fusion', pageid: 7, snippet: 'merging ranked lists', timestamp: '2024-03-01T12:00:00Z' }] },
};

interface Outcome {
  provider: string;
  status: string;
  count: number;
}

interface Result {
  url: string;
  sources: Array<{ provider: string }>;
  explain?: Array<{ provider: string; weight: number }>;
}

describe('providers configured as instances in PROVIDERS_FILE', () => {
  let searxA: FakeUpstream;
  let searxB: FakeUpstream;
  let wiki: FakeUpstream;
  let elsewhere: FakeUpstream;
  let service: RunningService;
  /** Holds the providers file; removed after the service that read it stops. */
  let folder: string | undefined;

  beforeAll(async () => {
    [searxA, searxB, wiki, elsewhere] = await Promise.all([startFakeUpstream(), startFakeUpstream(), startFakeUpstream(), startFakeUpstream()]);
    searxA.json('/search', searxBody({ url: 'https://shared.example/fusion', title: 'Shared' }, { url: 'https://a.example/only', title: 'Only A' }));
    searxB.json('/search', searxBody({ url: 'https://b.example/only', title: 'Only B' }, { url: 'https://shared.example/fusion', title: 'Shared' }));
    wiki.json('/w/api.php', mediawikiBody);
    folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-instances-'));
    const file = path.join(folder, 'providers.yaml');
    writeFileSync(
      file,
      [
        'providers:',
        '  - name: searx-a',
        '    use: searxng',
        `    base_url: ${searxA.origin}`,
        '    weight: 2',
        '  - name: searx-b',
        '    use: searxng',
        '    base_url: ${SEARX_B_URL}',
        '  - name: mywiki',
        '    use: mediawiki',
        `    base_url: ${wiki.origin}`,
        '  - name: brave-team',
        '    use: brave',
        `    base_url: ${elsewhere.origin}/team-brave`,
        '    api_key: ${TEAM_BRAVE_KEY}',
        '',
      ].join('\n'),
    );
    // The built-in instances point at a fourth fake that knows no route: nothing leaves the machine.
    service = await startService({ ...providerEnv(elsewhere.origin), PROVIDERS_FILE: file, SEARX_B_URL: searxB.origin, TEAM_BRAVE_KEY });
  });
  afterAll(async () => {
    await service?.stop();
    await Promise.all([searxA, searxB, wiki, elsewhere].map((upstream) => upstream?.stop()));
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('asks every named instance in one search, and merges what two instances of one definition share', async () => {
    const response = await request(service.origin, '/v1/search/web?q=rank+fusion&providers=searx-a,searx-b,mywiki&explain=true');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { providers: Outcome[]; results: Result[] };
    const outcomes = Object.fromEntries(body.providers.map((outcome) => [outcome.provider, outcome]));
    expect(Object.keys(outcomes).sort()).toEqual(['mywiki', 'searx-a', 'searx-b']);
    expect(outcomes['searx-a']).toMatchObject({ status: 'ok', count: 2 });
    expect(outcomes['searx-b']).toMatchObject({ status: 'ok', count: 2 });
    expect(outcomes.mywiki).toMatchObject({ status: 'ok', count: 1 });
    // Each instance is asked on its own server; its first page held 2 of the 11 wanted, so page 2 was asked
    // too, and answering the same results again it ended the search.
    const pagenos = (server: typeof searxA) => server.requestsTo('/search').map((recorded) => recorded.url.searchParams.get('pageno'));
    expect(pagenos(searxA)).toEqual(['1', '2']);
    expect(pagenos(searxB)).toEqual(['1', '2']);

    const shared = body.results.filter((result) => result.url === 'https://shared.example/fusion');
    expect(shared).toHaveLength(1);
    expect(shared[0]!.sources.map((source) => source.provider).sort()).toEqual(['searx-a', 'searx-b']);
    // Each instance keeps its own weight.
    expect(Object.fromEntries(shared[0]!.explain!.map((entry) => [entry.provider, entry.weight]))).toEqual({ 'searx-a': 2, 'searx-b': 1 });
    // The MediaWiki instance builds article URLs on its own site, not on Wikipedia.
    expect(body.results.map((result) => result.url)).toContain(`${wiki.origin}/wiki/Rank_fusion`);
  });

  it('lists every instance with its definition in /v1/providers, beside the built-in ones', async () => {
    const body = await (await request(service.origin, '/v1/providers')).json();
    const byName = Object.fromEntries(body.providers.map((provider: { name: string }) => [provider.name, provider]));
    expect(byName['searx-a']).toMatchObject({ definition: 'searxng', kind: 'web', configured: true, weight: 2 });
    expect(byName['searx-b']).toMatchObject({ definition: 'searxng', kind: 'web', configured: true, weight: 1 });
    expect(byName.mywiki).toMatchObject({ definition: 'mediawiki', kind: 'web', configured: true });
    expect(byName.wikipedia).toMatchObject({ definition: 'mediawiki' });
    expect(byName.brave).toMatchObject({ definition: 'brave' });
  });

  it('keeps health apart per instance: one failing SearXNG instance does not mark the other', async () => {
    searxB.json('/search', { error: 'down' }, 500);
    const body = await (await request(service.origin, '/v1/search/web?q=health+apart&providers=searx-a,searx-b')).json();
    const statuses = Object.fromEntries(body.providers.map((outcome: Outcome) => [outcome.provider, outcome.status]));
    expect(statuses).toEqual({ 'searx-a': 'ok', 'searx-b': 'error' });
    const providers = (await (await request(service.origin, '/v1/providers')).json()).providers;
    const health = Object.fromEntries(providers.map((provider: { name: string; health: unknown }) => [provider.name, provider.health]));
    expect(health['searx-b']).toMatchObject({ consecutive_failures: 1, last_error: { message: expect.any(String) } });
    expect(health['searx-a']).toMatchObject({ consecutive_failures: 0 });
    expect(health['searx-a']).not.toHaveProperty('last_error');
  });

  it('routes providers=auto to every configured instance of a suited definition', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=what+is+reciprocal+rank+fusion&providers=auto')).json();
    // A definition query suits MediaWiki first, then SearXNG: Wikipedia and mywiki, then the configured Brave
    // instance (brave-team; the built-in brave has no key), then every SearXNG instance
    // (the built-in one is configured too, by providerEnv's SEARXNG_URL).
    expect(body.routing.providers).toEqual(['wikipedia', 'mywiki', 'brave-team', 'searxng', 'searx-a', 'searx-b', 'local']);
  });

  it('sends a file instance its credential from the environment, and never shows it in an answer or a log', async () => {
    // An upstream that repeats the key in its error must not get it into the outcome message.
    elsewhere.json('/team-brave/res/v1/web/search', { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION', detail: `token ${TEAM_BRAVE_KEY} is not valid` } }, 401);
    const answer = await (await request(service.origin, '/v1/search/web?q=quota&providers=brave-team')).text();
    expect(elsewhere.requestsTo('/team-brave/res/v1/web/search').at(-1)!.headers['x-subscription-token']).toBe(TEAM_BRAVE_KEY);
    // The upstream's words reach the caller, with the key taken out.
    expect(JSON.parse(answer).providers[0]).toMatchObject({ provider: 'brave-team', status: 'error', message: expect.stringContaining('is not valid') });
    const listing = await (await request(service.origin, '/v1/providers')).text();
    for (const text of [answer, listing, service.logs.join('\n')]) expect(text).not.toContain(TEAM_BRAVE_KEY);
  });
});
