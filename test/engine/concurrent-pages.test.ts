import type { ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache, type AnswerCache } from '../../src/engine/answer-cache.js';
import type { RedisCache } from '../../src/engine/redis-cache.js';
import { SearchService, type CachedAnswer } from '../../src/engine/search-service.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, replicasConnected, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { notingWrites, sharedAnswerCache } from '../support/shared-answer-cache.js';
import { CountingProvider } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });
const LIMIT = 3;

/**
 * Two upstreams whose deeper answers reorder the fused list: b's results 11 to 13 are a's 10, 9 and 8, so a list
 * ranked 13 deep lifts them above a's 5th. Each answer is held until the test releases every answer `count` deep.
 */
const corpus: Record<string, string[]> = {
  a: Array.from({ length: 20 }, (_, index) => `https://a.example/${index + 1}`),
  b: [...Array.from({ length: 10 }, (_, index) => `https://b.example/${index + 1}`), 'https://a.example/10', 'https://a.example/9', 'https://a.example/8'],
};

interface Held {
  count: number;
  send(): void;
}

function holdingUpstream(upstream: FakeUpstream, held: Held[], onHeld: () => void): void {
  for (const name of Object.keys(corpus)) {
    upstream.on(`/${name}/search`, {
      kind: 'handler',
      handle: (recorded, response: ServerResponse) => {
        const count = Number(recorded.url.searchParams.get('count'));
        const results = corpus[name]!.slice(0, count).map((url, index) => ({ title: `${name} ${index + 1}`, url }));
        held.push({ count, send: () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results })) });
        onHeld();
      },
    });
  }
}

/** `replicas` gives the cache of the replica that answers page 1 (and every later page), then of the one that answers page 3. */
function pagesFetchedTogether(name: string, replicas: () => Promise<[AnswerCache<CachedAnswer>, AnswerCache<CachedAnswer>]>): void {
  let upstream: FakeUpstream;
  const held: Held[] = [];
  let heldChanged: () => void = () => undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    holdingUpstream(upstream, held, () => heldChanged());
  });
  afterAll(() => upstream.stop());

  /** Resolves once `count` answers are held. */
  const heldReach = (count: number): Promise<void> =>
    new Promise((resolve) => {
      heldChanged = () => {
        if (held.length >= count) resolve();
      };
      heldChanged();
    });

  /** Lets the held answers `count` deep go. */
  const release = (count: number): void => {
    for (const answer of held.filter((entry) => entry.count === count)) answer.send();
  };

  it(`keeps the deeper list when page 1 of the same search finishes after page 3 (${name})`, async () => {
    const writes: Promise<void>[] = [];
    const [pageOneReplica, pageThreeReplica] = (await replicas()).map(
      (cache) =>
        new SearchService({
          providers: [new CountingProvider('a', `${upstream.origin}/a`), new CountingProvider('b', `${upstream.origin}/b`)],
          cache: notingWrites(cache, writes),
          dispatcher: agent,
          logger: pino({ level: 'silent' }),
          rrfK: 60,
          maxUpstreamBytes: 64 * 1024,
          breaker: { failureThreshold: 5, cooldownMs: 1000, maxCooldownMs: 10_000 },
        }),
    );
    const search = (page: number, service = pageOneReplica!) => service.search({ kind: 'web', query: `together ${name}`, limit: LIMIT, page });
    const urls = (answer: { results: Array<{ url: string }> }) => answer.results.map((result) => result.url);

    // Page 1 (4 deep) and page 3 (10 deep) asked at once: both miss the cache and ask both upstreams.
    const first = search(1);
    const third = search(3, pageThreeReplica);
    await heldReach(4);
    // Page 3's answers come back first, and its list is kept; then page 1's.
    release(10);
    const thirdAnswer = await third;
    await Promise.all(writes);
    release(4);
    const firstAnswer = await first;
    await Promise.all(writes);
    const asked = upstream.requests.length;

    // Pages 2 and 4 come from the list page 3 showed: no upstream asked again, no result shown twice or skipped.
    const second = await search(2);
    const fourth = await search(4);
    expect(upstream.requests.length).toBe(asked);
    const shown = [firstAnswer, second, thirdAnswer, fourth].flatMap(urls);
    expect(shown).toHaveLength(4 * LIMIT);
    expect(new Set(shown).size).toBe(shown.length);
    expect(urls(await search(3))).toEqual(urls(thirdAnswer));
    // The page after page 3 starts where a ranking 10 deep goes on: a's 5th, not the 8th to 10th that only a deeper ranking lifts.
    expect(urls(fourth)).not.toContain('https://a.example/10');
  });
}

describe('pages of one search fetched at the same moment, in process', () => {
  pagesFetchedTogether('memory', async () => {
    const cache = createMemoryCache<CachedAnswer>({ ttlMs: 60_000, maxEntries: 100, maxBytes: 1_000_000 });
    return [cache, cache];
  });
});

describeWithRedis('pages of one search fetched at the same moment, through the shared cache', () => {
  let redis: RedisServer;
  const caches: RedisCache<CachedAnswer>[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(caches.map((cache) => cache.close()));
    await redis.stop();
  });

  // Page 1 and page 3 on two replicas: page 1's cannot see page 3's list in its own memory, only in Redis.
  const replica = (): RedisCache<CachedAnswer> => {
    const cache = sharedAnswerCache(redis.url);
    caches.push(cache);
    return cache;
  };
  pagesFetchedTogether('redis', async () => {
    const both: [RedisCache<CachedAnswer>, RedisCache<CachedAnswer>] = [replica(), replica()];
    // A replica whose client is not ready yet writes nothing (no offline queue): wait until both are.
    const raw = new Redis(redis.url);
    await replicasConnected(raw, 2);
    raw.disconnect();
    return both;
  });
});
