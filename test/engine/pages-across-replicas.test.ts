import type { ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RedisCache } from '../../src/engine/redis-cache.js';
import { SearchService, type CachedAnswer, type SearchResponse } from '../../src/engine/search-service.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, replicasConnected, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { notingWrites, sharedAnswerCache } from '../support/shared-answer-cache.js';
import { CountingProvider } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });
const LIMIT = 3;

/**
 * Two upstreams whose deeper answers reorder the fused list: b's results 11 to 13 are a's 10, 9 and 8, so a list
 * ranked 13 deep lifts them above a's 5th, where a list ranked 10 deep has a's 5th next.
 */
const corpus: Record<string, string[]> = {
  a: Array.from({ length: 20 }, (_, index) => `https://a.example/${index + 1}`),
  b: [...Array.from({ length: 10 }, (_, index) => `https://b.example/${index + 1}`), 'https://a.example/10', 'https://a.example/9', 'https://a.example/8'],
};

/**
 * Replicas behind a load balancer share the answers in Redis, each with its own copy in memory of those it read.
 * A caller paging on may be answered by either: page 4 by a replica whose own copy is the list of page 1, when the
 * other replica has kept in Redis the deeper list page 3 was shown from. Page 4 must go on from that list.
 */
describeWithRedis('pages of one search answered by two replicas sharing Redis', () => {
  let redis: RedisServer;
  let upstream: FakeUpstream;
  const caches: RedisCache<CachedAnswer>[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    upstream = await startFakeUpstream();
    for (const name of Object.keys(corpus)) {
      upstream.on(`/${name}/search`, {
        kind: 'handler',
        handle: (recorded, response: ServerResponse) => {
          const results = corpus[name]!.slice(0, Number(recorded.url.searchParams.get('count'))).map((url, index) => ({ title: `${name} ${index + 1}`, url }));
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
        },
      });
    }
  });
  afterAll(async () => {
    await Promise.all(caches.map((cache) => cache.close()));
    await upstream.stop();
    await redis.stop();
  });

  it('goes on from the deepest list either replica kept, never repeating nor skipping a result', async () => {
    const writes: Promise<void>[] = [];
    const replica = (): SearchService => {
      const cache = sharedAnswerCache(redis.url);
      caches.push(cache);
      return new SearchService({
        providers: [new CountingProvider('a', `${upstream.origin}/a`), new CountingProvider('b', `${upstream.origin}/b`)],
        cache: notingWrites(cache, writes),
        dispatcher: agent,
        logger: pino({ level: 'silent' }),
        rrfK: 60,
        maxUpstreamBytes: 64 * 1024,
        breaker: { failureThreshold: 5, cooldownMs: 1000, maxCooldownMs: 10_000 },
      });
    };
    const [one, two] = [replica(), replica()];
    // A replica whose client is not ready yet writes nothing (no offline queue): wait until both are.
    const raw = new Redis(redis.url);
    await replicasConnected(raw, 2);
    raw.disconnect();

    const search = async (service: SearchService, page: number): Promise<SearchResponse> => {
      const answer = await service.search({ kind: 'web', query: 'across replicas', limit: LIMIT, page });
      await Promise.all(writes);
      return answer;
    };
    // Page 1 (asked 4 deep) on one replica; page 2 on the other, from that list through Redis (it keeps a copy);
    // page 3 on the first, asked 10 deep; page 4 on the second.
    const pages = [await search(one, 1), await search(two, 2), await search(one, 3), await search(two, 4)];
    expect(pages.slice(0, 3).map((answer) => answer.cached)).toEqual([false, true, false]);
    const shown = pages.flatMap((answer) => answer.results.map((result) => result.url));
    expect(shown).toHaveLength(4 * LIMIT);
    expect(shown.filter((url, index) => shown.indexOf(url) !== index)).toEqual([]);
    // Page 3 again, on the second replica, is the page 3 that was shown.
    expect((await search(two, 3)).results.map((result) => result.url)).toEqual(pages[2]!.results.map((result) => result.url));
  });
});
