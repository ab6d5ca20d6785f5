import type { ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache, type AnswerCache } from '../../src/engine/answer-cache.js';
import type { RedisCache } from '../../src/engine/redis-cache.js';
import { SearchService, type CachedAnswer, type SearchRequest, type SearchResponse } from '../../src/engine/search-service.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, replicasConnected, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { notingWrites, sharedAnswerCache } from '../support/shared-answer-cache.js';
import { CountingProvider } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });
const LIMIT = 3;

/** u1 … u20. The upstream's first answer to a query lists them from the last; every later answer from the first. */
const corpus = Array.from({ length: 20 }, (_, index) => `https://a.example/${index + 1}`);
const u = (...numbers: number[]): string[] => numbers.map((number) => `https://a.example/${number}`);

interface Held {
  count: number;
  send(): void;
}

const urls = (answer: SearchResponse): string[] => answer.results.map((result) => result.url);

/**
 * Two fan-outs of one search that rank differently (the upstream's order changed between them), the one that
 * finishes last not extending the list the other kept: what a caller was shown from the list kept first must stay
 * what its later pages go on from. `replicas` gives the cache of the replica of the caller who pages on, then of the
 * one whose fan-out finishes last.
 */
function fanOutAfterKeptList(name: string, replicas: () => Promise<[AnswerCache<CachedAnswer>, AnswerCache<CachedAnswer>]>): void {
  let upstream: FakeUpstream;
  const held: Held[] = [];
  const calls = new Map<string, number>();
  let heldChanged: () => void = () => undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/a/search', {
      kind: 'handler',
      handle: (recorded, response: ServerResponse) => {
        const query = recorded.url.searchParams.get('q') ?? '';
        const call = (calls.get(query) ?? 0) + 1;
        calls.set(query, call);
        const order = call === 1 ? [...corpus].reverse() : corpus;
        const results = order.slice(0, Number(recorded.url.searchParams.get('count'))).map((url, index) => ({ title: `a ${index + 1}`, url }));
        held.push({ count: results.length, send: () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results })) });
        heldChanged();
      },
    });
  });
  afterAll(() => upstream.stop());

  /** Resolves once `count` answers are held since the test began. */
  const heldReach = (count: number): Promise<void> =>
    new Promise((resolve) => {
      heldChanged = () => {
        if (held.length >= count) resolve();
      };
      heldChanged();
    });

  const services = async (writes: Promise<void>[]): Promise<[SearchService, SearchService]> => {
    const [pagingOn, finishingLast] = (await replicas()).map(
      (cache) =>
        new SearchService({
          providers: [new CountingProvider('a', `${upstream.origin}/a`)],
          cache: notingWrites(cache, writes),
          dispatcher: agent,
          logger: pino({ level: 'silent' }),
          rrfK: 60,
          maxUpstreamBytes: 64 * 1024,
          breaker: { failureThreshold: 5, cooldownMs: 1000, maxCooldownMs: 10_000 },
        }),
    );
    return [pagingOn!, finishingLast!];
  };

  it(`a later page ranked afresh does not replace the list a caller paged on from (${name})`, async () => {
    held.length = 0;
    const writes: Promise<void>[] = [];
    const [pagingOn, finishingLast] = await services(writes);
    const query = `ranked afresh ${name}`;
    const search = (service: SearchService, page: number): Promise<SearchResponse> => service.search({ kind: 'web', query, limit: LIMIT, page });

    // Caller A asks page 2 with nothing kept: its fan-out (the upstream's first answer, from u20) is held.
    const pageTwoAfresh = search(finishingLast, 2);
    await heldReach(1);
    // Caller B is shown page 1, then page 2 from the list page 1 was kept in (the upstream's later answers, from u1).
    const firstPage = search(pagingOn, 1);
    await heldReach(2);
    held[1]!.send();
    expect(urls(await firstPage)).toEqual(u(1, 2, 3));
    await Promise.all(writes);
    const secondPage = search(pagingOn, 2);
    await heldReach(3);
    held[2]!.send();
    expect(urls(await secondPage)).toEqual(u(4, 5, 6));
    await Promise.all(writes);
    // A's fan-out ends last, as deep as B's page 2, ranked from another order.
    held[0]!.send();
    expect(urls(await pageTwoAfresh)).toEqual(u(17, 16, 15));
    await Promise.all(writes);

    // B's pages go on from the list they were shown from, on either replica.
    const again = await search(finishingLast, 2);
    expect(again.cached).toBe(true);
    expect(urls(again)).toEqual(u(4, 5, 6));
    const thirdPage = search(finishingLast, 3);
    await heldReach(4);
    held[3]!.send();
    expect(urls(await thirdPage)).toEqual(u(7, 8, 9));
  });

  it(`a first page gathered twice keeps the list served first (${name})`, async () => {
    held.length = 0;
    const writes: Promise<void>[] = [];
    const [pagingOn, finishingLast] = await services(writes);
    const query = `twice ${name}`;
    const search = (service: SearchService, page: number, timeoutMs?: number): Promise<SearchResponse> => {
      const request: SearchRequest = { kind: 'web', query, limit: LIMIT, page };
      if (timeoutMs !== undefined) request.timeoutMs = timeoutMs;
      return service.search(request);
    };

    // Two callers of page 1 with different timeouts: two fan-outs. The first asked (from u20) finishes last.
    const slower = search(finishingLast, 1, 5_000);
    await heldReach(1);
    const shownFirst = search(pagingOn, 1);
    await heldReach(2);
    held[1]!.send();
    expect(urls(await shownFirst)).toEqual(u(1, 2, 3));
    await Promise.all(writes);
    held[0]!.send();
    expect(urls(await slower)).toEqual(u(20, 19, 18));
    await Promise.all(writes);

    // The caller shown u1 to u3 pages on from that list.
    const again = await search(finishingLast, 1);
    expect(again.cached).toBe(true);
    expect(urls(again)).toEqual(u(1, 2, 3));
    const secondPage = search(finishingLast, 2);
    await heldReach(3);
    held[2]!.send();
    expect(urls(await secondPage)).toEqual(u(4, 5, 6));
  });
}

describe('a fan-out finishing after another of the same search was kept, in process', () => {
  fanOutAfterKeptList('memory', async () => {
    const cache = createMemoryCache<CachedAnswer>({ ttlMs: 60_000, maxEntries: 100, maxBytes: 1_000_000 });
    return [cache, cache];
  });
});

describeWithRedis('a fan-out finishing after another of the same search was kept, on another replica', () => {
  let redis: RedisServer;
  const caches: RedisCache<CachedAnswer>[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(caches.map((cache) => cache.close()));
    await redis.stop();
  });

  // The fan-out finishing last is another replica's: only Redis' script decides whether its answer replaces the kept one.
  fanOutAfterKeptList('redis', async () => {
    const before = caches.length;
    caches.push(sharedAnswerCache(redis.url), sharedAnswerCache(redis.url));
    // A replica whose client is not ready yet writes nothing (no offline queue): wait until they all are.
    const raw = new Redis(redis.url);
    await replicasConnected(raw, caches.length);
    raw.disconnect();
    return [caches[before]!, caches[before + 1]!];
  });
});
