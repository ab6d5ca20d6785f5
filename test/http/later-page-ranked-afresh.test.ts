import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
const EXA = '/exa/search';

type Outcome = { provider: string; status: string; count: number; message?: string };
type Answer = { results: Array<{ url: string }>; page: number; has_more: boolean; cached: boolean; providers: Outcome[] };

/** What a later page's report says of a provider it was ranked without, when no earlier page was kept. */
const RANKED_WITHOUT = /no earlier page of this search was kept, so page \d+ was ranked without what it did not give/;

/** A service asking Brave and Exa, each with results numbered by rank for any query; Brave answers 503 while `down`. */
async function startBraveAndExa(ttl: string): Promise<{ upstream: FakeUpstream; service: RunningService; state: { down: boolean } }> {
  const state = { down: false };
  const upstream = await startFakeUpstream();
  upstream.on(BRAVE, {
    kind: 'handler',
    handle: (recorded: RecordedRequest, response: ServerResponse) => {
      if (state.down) {
        response.writeHead(503, { 'content-type': 'application/json' }).end('{"type":"ErrorResponse","error":{"code":"X","detail":"busy"}}');
        return;
      }
      const count = Number(recorded.url.searchParams.get('count'));
      const start = Number(recorded.url.searchParams.get('offset') ?? 0) * count;
      const query = recorded.url.searchParams.get('q')!.replace(/\W+/g, '-');
      const results = Array.from({ length: count }, (_, index) => ({ title: `Brave ${start + index + 1}`, url: `https://brave.example/${query}/${start + index + 1}`, description: 'a page' }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ web: { results } }));
    },
  });
  upstream.on(EXA, {
    kind: 'handler',
    handle: (recorded: RecordedRequest, response: ServerResponse) => {
      const { numResults, query } = JSON.parse(recorded.body) as { numResults: number; query: string };
      const slug = query.replace(/\W+/g, '-');
      const results = Array.from({ length: numResults }, (_, index) => ({ title: `Exa ${index + 1}`, url: `https://exa.example/${slug}/${index + 1}` }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    },
  });
  const service = await startService({
    ...providerEnv(upstream.origin),
    BRAVE_API_KEY: 'brave-afresh-key-0123456789',
    EXA_API_KEY: 'exa-afresh-key-0123456789',
    CACHE_TTL_SECONDS: ttl,
    LOG_LEVEL: 'silent',
  });
  return { upstream, service, state };
}

/** Page `page` of five results for `query` from Brave and Exa, with Brave answering 503 (its breaker trips only after more failures than these tests give it) when `down`. */
async function search(running: { service: RunningService; state: { down: boolean } }, query: string, page: number, down: boolean): Promise<Answer> {
  running.state.down = down;
  try {
    const response = await request(running.service.origin, `/v1/search/web?q=${query}&providers=brave,exa&limit=5&page=${page}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  } finally {
    running.state.down = false;
  }
}

const report = (answer: Answer, provider: string): Outcome => answer.providers.find((outcome) => outcome.provider === provider)!;

describe.each([
  ['with the answer cache off', '0'],
  ['with the answer cache on', '300'],
])('a later page ranked afresh while a provider fails (%s)', (_name, ttl) => {
  let running: Awaited<ReturnType<typeof startBraveAndExa>>;

  beforeAll(async () => {
    running = await startBraveAndExa(ttl);
  });
  afterAll(async () => {
    await running.service.stop();
    await running.upstream.stop();
  });

  it('says it was ranked without the provider that failed, which keeps its own cause; the providers that answered say nothing more', async () => {
    const third = await search(running, 'fails+on+three', 3, true);
    expect(report(third, 'brave').status).toBe('error');
    expect(report(third, 'brave').message).toMatch(/^HTTP 503/);
    expect(report(third, 'brave').message).toMatch(RANKED_WITHOUT);
    expect(report(third, 'exa')).toMatchObject({ status: 'ok' });
    expect(report(third, 'exa')).not.toHaveProperty('message');
  });

  it('says nothing of the kind on page 1, which has no page before it to differ from', async () => {
    const first = await search(running, 'fails+on+one', 1, true);
    expect(report(first, 'brave').status).toBe('error');
    expect(report(first, 'brave').message).not.toMatch(RANKED_WITHOUT);
  });
});

describe('a later page on which a provider fails, paged from page 1', () => {
  let cacheOff: Awaited<ReturnType<typeof startBraveAndExa>>;
  let cacheOn: Awaited<ReturnType<typeof startBraveAndExa>>;

  beforeAll(async () => {
    [cacheOff, cacheOn] = await Promise.all([startBraveAndExa('0'), startBraveAndExa('300')]);
  });
  afterAll(async () => {
    for (const running of [cacheOff, cacheOn]) {
      await running.service.stop();
      await running.upstream.stop();
    }
  });

  it('with the cache off, page 2 is ranked afresh and says so of the provider that failed', async () => {
    await search(cacheOff, 'fails+on+two', 1, false);
    const second = await search(cacheOff, 'fails+on+two', 2, true);
    expect(report(second, 'brave').status).toBe('error');
    expect(report(second, 'brave').message).toMatch(RANKED_WITHOUT);
  });

  it('with the cache on, page 1 served from the list a later page was ranked afresh into says nothing of that page', async () => {
    const third = await search(cacheOn, 'afresh+then+one', 3, true);
    expect(report(third, 'brave').message).toMatch(RANKED_WITHOUT);
    const first = await search(cacheOn, 'afresh+then+one', 1, false);
    expect(first.cached).toBe(true);
    expect(report(first, 'brave').status).toBe('error');
    expect(report(first, 'brave').message).toMatch(/^HTTP 503/);
    expect(report(first, 'brave').message).not.toMatch(RANKED_WITHOUT);
  });

  it('with the cache on, a page that extends the kept list says nothing of the kind, and no result comes twice', async () => {
    const pages = [await search(cacheOn, 'kept+list', 1, false), await search(cacheOn, 'kept+list', 2, false), await search(cacheOn, 'kept+list', 3, true)];
    expect(report(pages[2]!, 'brave').status).toBe('error');
    expect(report(pages[2]!, 'brave').message).not.toMatch(RANKED_WITHOUT);
    const shown = pages.flatMap((answer) => answer.results.map((result) => result.url));
    expect(shown).toHaveLength(15);
    expect(new Set(shown).size).toBe(15);
  });
});
