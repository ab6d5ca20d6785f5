import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/fake-upstream.js';
import { describeWithRedis } from '../support/redis-server.js';
import { request } from '../support/service.js';
import { startSharedReplicas, type SharedReplicas } from '../support/shared-replicas.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
/** CACHE_PARTIAL_TTL_SECONDS' default, in ms: the longest an answer in which a provider failed may be kept. */
const PARTIAL_TTL_MS = 15_000;

/** Brave's answer of `count` results from `host`, saying it has more. */
function bravePage(response: ServerResponse, host: string, count: number, offset: number): void {
  const results = Array.from({ length: count }, (_, index) => ({ title: `Result ${offset}-${index}`, url: `https://${host}/${offset}/${index}`, description: 'a page' }));
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: { more_results_available: true }, web: { results } }));
}

/** The 503 of an upstream that is busy for a moment, without a Retry-After (a 503 with one would suspend the provider). */
function busy(response: ServerResponse): void {
  response.writeHead(503, { 'content-type': 'application/json' }).end('{"type":"ErrorResponse","error":{"code":"BUSY","detail":"busy"}}');
}

/**
 * A provider reports `ok` when a request for more of its results fails (a later page, a deeper round of a filter the
 * engine applies): it keeps what it read. The answer still lacks what that request would have brought, as one with a
 * failed provider lacks that provider's results: it must not be kept, and served by every replica, for the full TTL.
 */
describeWithRedis('an answer cut short by a request for more results that failed, in the shared cache', () => {
  let replicas: SharedReplicas;

  beforeAll(async () => {
    replicas = await startSharedReplicas({ BRAVE_API_KEY: 'brave-later-page-key-0123456789' });
  });
  afterAll(() => replicas.stop());

  /** Redis' remaining lifetime of the one answer a search left there (ms), once it is there. */
  async function lifetimeOfNewAnswer(before: ReadonlySet<string>): Promise<number> {
    await expect.poll(async () => (await replicas.raw.keys('fedsearch:answer:*')).filter((key) => !before.has(key)).length).toBe(1);
    const [key] = (await replicas.raw.keys('fedsearch:answer:*')).filter((candidate) => !before.has(candidate));
    return replicas.raw.pttl(key!);
  }

  it('keeps it no longer than an answer in which a provider failed, when a later page fails', async () => {
    // Page 1 of 20 asks Brave 21 deep: offset 0 gives its 20, offset 1 (for the look-ahead result) fails.
    replicas.upstream.on(BRAVE_PATH, {
      kind: 'handler',
      handle: (recorded: RecordedRequest, response) => (recorded.url.searchParams.get('offset') === '0' ? bravePage(response, 'later.example', 20, 0) : busy(response)),
    });
    const before = new Set(await replicas.raw.keys('fedsearch:answer:*'));
    const path = '/v1/search/web?q=later+page+busy&providers=brave&limit=20';
    const first = await (await request(replicas.a.origin, path)).json();
    expect(replicas.upstream.requestsTo(BRAVE_PATH).map((recorded) => recorded.url.searchParams.get('offset'))).toContain('1');
    expect(first.providers).toMatchObject([{ provider: 'brave', status: 'ok', count: 20 }]);

    const lifetime = await lifetimeOfNewAnswer(before);
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(PARTIAL_TTL_MS);
    // Still worth its few seconds: the other replica is answered from it.
    const fromB = await (await request(replicas.b.origin, path)).json();
    expect(fromB.cached).toBe(true);
    expect(fromB.results).toEqual(first.results);
  });

  it('keeps it no longer than an answer in which a provider failed, when a deeper round of the engine\'s own filter fails', async () => {
    // Brave cannot filter by domain: the engine keeps the results from kept.example. The first round (11 deep) keeps
    // 2 of 11, so a deeper round is asked for (from the first result again, 20 a request); it fails.
    replicas.upstream.on(BRAVE_PATH, {
      kind: 'handler',
      handle: (recorded: RecordedRequest, response) => {
        if (recorded.url.searchParams.get('count') !== '11') return busy(response);
        const results = Array.from({ length: 11 }, (_, index) => ({
          title: `Round ${index}`,
          url: `https://${index < 2 ? 'kept.example' : 'other.example'}/${index}`,
          description: 'a page',
        }));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: { more_results_available: true }, web: { results } }));
      },
    });
    const before = new Set(await replicas.raw.keys('fedsearch:answer:*'));
    const asked = replicas.upstream.requestsTo(BRAVE_PATH).length;
    const first = await (await request(replicas.a.origin, '/v1/search/web?q=deeper+round+busy&providers=brave&include_domains=kept.example')).json();
    // The deeper round's request (tried once more: a 503 without Retry-After is retried) came after the first round's.
    const counts = replicas.upstream.requestsTo(BRAVE_PATH).slice(asked).map((recorded) => recorded.url.searchParams.get('count'));
    expect(counts[0]).toBe('11');
    expect(counts.slice(1)).toContain('20');
    expect(first.providers).toMatchObject([{ provider: 'brave', status: 'ok', count: 2 }]);

    const lifetime = await lifetimeOfNewAnswer(before);
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(PARTIAL_TTL_MS);
  });

  it('keeps a complete answer of several pages for CACHE_TTL_SECONDS', async () => {
    // Every page answers: nothing failed, and the answer is kept as long as any complete one.
    replicas.upstream.on(BRAVE_PATH, {
      kind: 'handler',
      handle: (recorded: RecordedRequest, response) => bravePage(response, 'whole.example', 20, Number(recorded.url.searchParams.get('offset'))),
    });
    const before = new Set(await replicas.raw.keys('fedsearch:answer:*'));
    const first = await (await request(replicas.a.origin, '/v1/search/web?q=every+page+answers&providers=brave&limit=20')).json();
    expect(first.providers).toMatchObject([{ provider: 'brave', status: 'ok', count: 21 }]);
    expect(await lifetimeOfNewAnswer(before)).toBeGreaterThan(PARTIAL_TTL_MS);
  });
});
