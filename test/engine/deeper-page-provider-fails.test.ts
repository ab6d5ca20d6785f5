import type { ServerResponse } from 'node:http';
import pino from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache, type AnswerCache } from '../../src/engine/answer-cache.js';
import type { RedisCache } from '../../src/engine/redis-cache.js';
import { SearchService, type CachedAnswer, type SearchResponse } from '../../src/engine/search-service.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { notingWrites, sharedAnswerCache } from '../support/shared-answer-cache.js';
import { CountingProvider } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });
const LIMIT = 2;
const PAGES = 6;

/**
 * Two upstreams of 30 results each (a.example/1…30, b.example/1…30), answering as many as asked for; `b` answers 503
 * while `failing.b` is set. Page 1 asks 3 deep and its list of six serves pages 2 and 3; page 4 asks both again, 9
 * deep, while `b` fails; page 5 and 6 come after `b` is back. Pages already shown must not move: page 5 goes on from
 * the list page 4 was shown from, never repeating what it showed nor skipping what it did not.
 */
function pagesAcrossAFailure(name: string, makeCache: () => Promise<AnswerCache<CachedAnswer>>): void {
  let upstream: FakeUpstream;
  const failing = { b: false };

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    for (const provider of ['a', 'b'] as const) {
      upstream.on(`/${provider}/search`, {
        kind: 'handler',
        handle: (recorded, response: ServerResponse) => {
          if (provider === 'b' && failing.b) {
            response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"busy"}');
            return;
          }
          const count = Number(recorded.url.searchParams.get('count'));
          const results = Array.from({ length: Math.min(count, 30) }, (_, index) => ({ title: `${provider} ${index + 1}`, url: `https://${provider}.example/${index + 1}` }));
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
        },
      });
    }
  });
  afterAll(() => upstream.stop());

  it(`shows every result once when a provider that answered page 1 fails for a deeper page (${name})`, async () => {
    const writes: Promise<void>[] = [];
    const service = new SearchService({
      providers: [new CountingProvider('a', `${upstream.origin}/a`), new CountingProvider('b', `${upstream.origin}/b`)],
      cache: notingWrites(await makeCache(), writes),
      dispatcher: agent,
      logger: pino({ level: 'silent' }),
      rrfK: 60,
      maxUpstreamBytes: 64 * 1024,
      breaker: { failureThreshold: 5, cooldownMs: 1000, maxCooldownMs: 10_000 },
    });
    const search = async (page: number): Promise<SearchResponse> => {
      const answer = await service.search({ kind: 'web', query: `across a failure ${name}`, limit: LIMIT, page });
      await Promise.all(writes);
      return answer;
    };
    const asked = (): number => upstream.requestsTo('/b/search').length;

    const pages: SearchResponse[] = [];
    for (let page = 1; page <= 3; page += 1) pages.push(await search(page));
    failing.b = true;
    const beforeFourth = asked();
    pages.push(await search(4));
    // Page 4 did ask b (and b failed): the list page 4 was shown from has none of b's deeper results.
    expect(asked()).toBeGreaterThan(beforeFourth);
    expect(pages[3]!.providers.find((outcome) => outcome.provider === 'b')).toMatchObject({ status: 'error' });
    failing.b = false;
    for (let page = 5; page <= PAGES; page += 1) pages.push(await search(page));

    const shown = pages.flatMap((answer) => answer.results.map((result) => result.url));
    expect(pages.map((answer) => answer.results.length)).toEqual(Array.from({ length: PAGES }, () => LIMIT));
    expect(shown.filter((url, index) => shown.indexOf(url) !== index)).toEqual([]);
    // Page 4 again is the page 4 that was shown: the list it came from is the one later pages go on from.
    expect((await search(4)).results.map((result) => result.url)).toEqual(pages[3]!.results.map((result) => result.url));
  });
}

describe('a later page whose deeper list one provider failed, in process', () => {
  pagesAcrossAFailure('memory', async () => createMemoryCache<CachedAnswer>({ ttlMs: 60_000, maxEntries: 100, maxBytes: 1_000_000 }));
});

describeWithRedis('a later page whose deeper list one provider failed, through the shared cache', () => {
  let redis: RedisServer;
  let cache: RedisCache<CachedAnswer> | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await cache?.close();
    await redis.stop();
  });
  pagesAcrossAFailure('redis', async () => {
    cache = sharedAnswerCache(redis.url);
    return cache;
  });
});
