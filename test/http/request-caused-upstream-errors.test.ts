import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const FAILURES = 3;

type Outcome = { provider: string; status: string; code?: string; message?: string; count?: number };

/**
 * A service whose `provider` asks a fake upstream, for the enclosing describe, its breaker opening after FAILURES
 * failures: a search of that provider alone (a new text each time, so nothing is shared or cached), its health as
 * /v1/providers reports it, and how many requests reached `path`.
 */
function serviceFor(provider: string, path: string) {
  const running = {} as { upstream: FakeUpstream; service: RunningService };
  let query = 0;
  beforeAll(async () => {
    running.upstream = await startFakeUpstream();
    running.service = await startService({
      ...providerEnv(running.upstream.origin),
      BREAKER_FAILURES: String(FAILURES),
      BREAKER_COOLDOWN_MS: '60000',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await running.service.stop();
    await running.upstream.stop();
  });
  return {
    upstream: () => running.upstream,
    search: async (text: string): Promise<Outcome> => {
      query += 1;
      const response = await request(running.service.origin, `/v1/search/web?q=${encodeURIComponent(`${text} ${query}`)}&providers=${provider}`);
      expect(response.status).toBe(200);
      return ((await response.json()).providers as Outcome[])[0]!;
    },
    health: async () => {
      const body = await (await request(running.service.origin, '/v1/providers')).json();
      return body.providers.find((listed: { name: string }) => listed.name === provider).health;
    },
    asked: () => running.upstream.requestsTo(path).length,
  };
}

/** MediaWiki's error body in its default errorformat, sent with HTTP 200 (https://www.mediawiki.org/wiki/API:Errors_and_warnings). */
const mediawikiError = (code: string, info: string) => ({ error: { code, info, '*': 'See https://en.wikipedia.org/w/api.php for API usage.' } });

/**
 * CirrusSearch refuses a search for its own text with HTTP 200 and an error body: a regular expression it cannot
 * parse (`insource:/[/`), or one too complex to run. One caller sending such queries must not suspend Wikipedia for
 * every other caller of the replica; the wiki's own failures, in the same kind of body, still must.
 */
describe('a MediaWiki error caused by the search itself is not counted by the breaker', () => {
  const API_PATH = '/wikipedia/w/api.php';
  const { upstream, search, health, asked } = serviceFor('wikipedia', API_PATH);

  it(`reports ${FAILURES + 1} refused searches to their callers and leaves the provider admitted for the next`, async () => {
    const refusals = [
      mediawikiError('cirrussearch-regex-syntax-error', "Regular expression syntax error at 1: expected ']'"),
      mediawikiError('cirrussearch-regex-too-complex-error', 'Regular expression is too complex.'),
      mediawikiError('cirrussearch-parse-error', 'Query was not understood. Please make it simpler.'),
      // No fault of the text: the wiki-wide pool of regular expression searches is full, which only such a search meets.
      mediawikiError('cirrussearch-regex-too-busy-error', 'Too many regular expression searches are running. Please try again later.'),
    ];
    for (const refusal of refusals) {
      upstream().json(API_PATH, refusal);
      expect(await search('insource:/[/')).toMatchObject({
        status: 'error',
        code: 'PROVIDER_UPSTREAM',
        message: `${refusal.error.info} (${refusal.error.code})`,
      });
    }
    expect(await health()).toMatchObject({ state: 'closed', consecutive_failures: 0 });

    upstream().json(API_PATH, { query: { search: [{ title: 'Regular expression', snippet: 'text' }] } });
    const before = asked();
    expect(await search('regular expression')).toMatchObject({ status: 'ok', count: 1 });
    expect(asked()).toBe(before + 1);
  });

  it(`counts the wiki's own failures in the same body: ${FAILURES} suspend it`, async () => {
    const failures = [
      mediawikiError('internal_api_error_DBQueryError', '[a1b2c3] Database query error.'),
      mediawikiError('maxlag', 'Waiting for 10.64.0.1: 7 seconds lagged.'),
      mediawikiError('readonly', 'The wiki is currently in read-only mode.'),
    ];
    for (const failure of failures) {
      upstream().json(API_PATH, failure);
      expect(await search('regular expression')).toMatchObject({ status: 'error', code: 'PROVIDER_UPSTREAM' });
    }
    const before = asked();
    expect(await search('regular expression')).toMatchObject({ status: 'suspended', code: 'PROVIDER_SUSPENDED' });
    expect(asked()).toBe(before);
    expect(await health()).toMatchObject({ state: 'open', consecutive_failures: FAILURES, last_error: { message: 'the upstream answered with an error' } });
  });
});

/**
 * SearXNG reads `!name` (only that engine or category) and `<N` (its engines' timeout, `<100` = 100 ms) in any word of
 * the query, and answers `!!name` with a redirect to another site. A caller who picks a failing engine, or a timeout no
 * engine meets, must not suspend the instance for everyone; nor must a redirect it was bound to get.
 */
describe("a SearXNG failure the query's own syntax chose is not counted by the breaker", () => {
  const SEARCH_PATH = '/searxng/search';
  const { upstream, search, health, asked } = serviceFor('searxng', SEARCH_PATH);
  /** SearXNG's JSON answer when every engine it asked failed (searx/webapp.py: unresponsive_engines). */
  const allFailed = { query: 'q', number_of_results: 0, results: [], answers: [], infoboxes: [], unresponsive_engines: [['duckduckgo', 'timeout']] };

  it(`reports ${FAILURES} searches whose engines or timeout the query chose, and leaves the instance admitted`, async () => {
    upstream().json(SEARCH_PATH, allFailed);
    for (const text of ['rank fusion <100', '!ddg rank fusion', 'rank fusion <1']) {
      expect(await search(text)).toMatchObject({ status: 'error', code: 'PROVIDER_UPSTREAM', message: expect.stringContaining('duckduckgo (timeout)') });
    }
    expect(await health()).toMatchObject({ state: 'closed', consecutive_failures: 0 });

    upstream().json(SEARCH_PATH, { query: 'q', results: [{ title: 'Rank fusion', url: 'https://example.org/rrf' }], unresponsive_engines: [] });
    const before = asked();
    expect(await search('rank fusion')).toMatchObject({ status: 'ok', count: 1 });
    // A page with fewer results than asked for has its next page read too: at least one request went.
    expect(asked()).toBeGreaterThan(before);
  });

  it('does not send an external bang, which SearXNG answers with a redirect', async () => {
    const before = asked();
    expect(await search('!!g rank fusion')).toMatchObject({ status: 'skipped', message: expect.stringContaining('!!') });
    expect(asked()).toBe(before);
  });

  it(`counts every engine failing for a plain query: ${FAILURES} suspend the instance`, async () => {
    upstream().json(SEARCH_PATH, allFailed);
    for (let attempt = 0; attempt < FAILURES; attempt += 1) {
      expect(await search('rank fusion')).toMatchObject({ status: 'error', code: 'PROVIDER_UPSTREAM' });
    }
    expect(await search('rank fusion')).toMatchObject({ status: 'suspended', code: 'PROVIDER_SUSPENDED' });
  });
});

/**
 * A SearXNG instance as searx/query.py reads a query, with two engines (shortcuts `ddg`, `wp`) in one category, every
 * engine it asks failing with `reason`: `!shortcut`, `!name` and `!category` choose engines and `<N` a timeout (N
 * seconds below 100, else ms), each left out of the words the answer says it searched for; any other `!word` stays
 * there and chose nothing, so the instance's own engines were asked.
 */
function fakeSearxng(reason: string) {
  const shortcuts: Record<string, string> = { ddg: 'duckduckgo', wp: 'wikipedia' };
  const categories: Record<string, string[]> = { general: ['duckduckgo', 'wikipedia'] };
  const bangEngines = (name: string): string[] => {
    const engine = shortcuts[name] ?? name;
    return categories[name] ?? (categories.general!.includes(engine) ? [engine] : []);
  };
  return {
    kind: 'handler' as const,
    handle: (request: RecordedRequest, response: ServerResponse) => {
      const searched: string[] = [];
      const chosen = new Set<string>();
      for (const word of (request.url.searchParams.get('q') ?? '').split(/\s+/).filter((part) => part !== '')) {
        const engines = word.startsWith('!') && !word.startsWith('!!') ? bangEngines(word.slice(1).replace(/[-_]/g, ' ')) : [];
        for (const engine of engines) chosen.add(engine);
        if (engines.length === 0 && !/^<\d+$/.test(word)) searched.push(word);
      }
      const asked = chosen.size > 0 ? [...chosen] : categories.general!;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ query: searched.join(' '), results: [], unresponsive_engines: asked.sort().map((engine) => [engine, reason]) }));
    },
  };
}

describe('a SearXNG failure the query did not choose counts against the breaker, !word or <N in it or not', () => {
  const SEARCH_PATH = '/searxng/search';

  describe('a !word that names none of the engines', () => {
    const { upstream, search, health } = serviceFor('searxng', SEARCH_PATH);

    it(`counts its engines failing: ${FAILURES} such searches suspend the instance`, async () => {
      upstream().on(SEARCH_PATH, fakeSearxng('CAPTCHA'));
      for (let attempt = 0; attempt < FAILURES; attempt += 1) {
        expect(await search('!foo rank fusion')).toMatchObject({ status: 'error', code: 'PROVIDER_UPSTREAM', message: expect.stringContaining('duckduckgo (CAPTCHA)') });
      }
      expect(await search('rank fusion')).toMatchObject({ status: 'suspended', code: 'PROVIDER_SUSPENDED' });
      expect(await health()).toMatchObject({ state: 'open', consecutive_failures: FAILURES });
    });
  });

  describe('engines chosen by a bang, or timed out under a short timeout, and then a timeout as long as their own', () => {
    const { upstream, search, health } = serviceFor('searxng', SEARCH_PATH);

    it('does not count the engines a bang chose (by shortcut, name or category) failing', async () => {
      upstream().on(SEARCH_PATH, fakeSearxng('timeout'));
      for (const text of ['!wp rank fusion', 'rank fusion !duckduckgo', '!general rank fusion', 'rank fusion <500']) {
        expect(await search(text), text).toMatchObject({ status: 'error', code: 'PROVIDER_UPSTREAM', message: expect.stringContaining('(timeout)') });
      }
      expect(await health()).toMatchObject({ state: 'closed', consecutive_failures: 0 });
    });

    it(`counts every engine timing out under <5 (5 s, longer than their own 3 s): ${FAILURES} suspend the instance`, async () => {
      for (let attempt = 0; attempt < FAILURES; attempt += 1) {
        expect(await search('rank fusion <5')).toMatchObject({ status: 'error', code: 'PROVIDER_UPSTREAM' });
      }
      expect(await search('rank fusion')).toMatchObject({ status: 'suspended', code: 'PROVIDER_SUSPENDED' });
    });
  });
});
