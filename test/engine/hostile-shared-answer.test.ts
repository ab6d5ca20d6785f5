import { Redis } from 'ioredis';
import pino from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RESULT_BOUNDS } from '../../src/domain/result-bounds.js';
import { ANSWER_KEYS } from '../../src/engine/cached-answer.js';
import type { RedisCache } from '../../src/engine/redis-cache.js';
import { SearchService, type CachedAnswer } from '../../src/engine/search-service.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, replicasConnected, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { sharedAnswerCache } from '../support/shared-answer-cache.js';
import { TestProvider } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });
const LIMIT = 10;
const QUERY = 'a kept list another writer changed';
/** Far above what a later page takes (a few ms here), far below what comparing the titles below took (about 9 s). */
const IN_PROPORTION_MS = 3000;

/** A word of letters only (no number a title could hold, no Roman numeral), one per index. */
function word(index: number): string {
  const consonants = 'bcdfghjklmnpqrstwz';
  let stem = '';
  for (let rest = index; stem === '' || rest > 0; rest = Math.floor(rest / consonants.length)) stem += consonants[rest % consonants.length];
  return `${stem}ou${stem}`;
}

/**
 * Titles of 25,000 words each, every one the others' words moved round between the same first and last words:
 * near-identical by their bigrams and in one block, so each is compared with the others, and every word of each is
 * found in the other, which the rules of opposite and replaced words check word by word. No answer this service
 * keeps holds such a title (RESULT_BOUNDS.title); another writer of the shared Redis may.
 */
function movedWordTitles(count: number): string[] {
  const words = Array.from({ length: 25_000 }, (_, index) => word(index));
  return Array.from({ length: count }, (_, turn) => `plasma edge confinement ${[...words.slice(turn + 1), ...words.slice(0, turn + 1)].join(' ')} in tokamaks`);
}

describeWithRedis('a later page extending an answer another writer left in the shared cache', () => {
  let redis: RedisServer;
  let upstream: FakeUpstream;
  const caches: RedisCache<CachedAnswer>[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    upstream = await startFakeUpstream();
    const results = Array.from({ length: 2 * LIMIT + 1 }, (_, index) => ({ title: `Tokamak confinement study ${index + 1}`, url: `https://papers.example/${index + 1}` }));
    upstream.on('/a/search', { kind: 'respond', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ results }) });
  });
  afterAll(async () => {
    await Promise.all(caches.map((cache) => cache.close()));
    await upstream.stop();
    await redis.stop();
  });

  const replica = (): SearchService => {
    const cache = sharedAnswerCache(redis.url);
    caches.push(cache);
    return new SearchService({
      providers: [new TestProvider('a', `${upstream.origin}/a`, { kind: 'papers' })],
      cache,
      dispatcher: agent,
      logger: pino({ level: 'silent' }),
      rrfK: 60,
      maxUpstreamBytes: 1024 * 1024,
      breaker: { failureThreshold: 5, cooldownMs: 1000, maxCooldownMs: 10_000 },
    });
  };

  it('is answered in proportion, the entry with titles longer than any answer holds read as a miss', async () => {
    const raw = new Redis(redis.url);
    try {
      const [first, second] = [replica(), replica()];
      // A replica whose client is not ready yet writes nothing (no offline queue): wait until both are.
      await replicasConnected(raw, 2);
      await first.search({ kind: 'papers', query: QUERY, limit: LIMIT, page: 1 });
      // The write is not waited for by the search: the test waits for the key, a round trip to Redis at a time.
      let keys: string[] = [];
      while (keys.length === 0) keys = await raw.keys(`*${ANSWER_KEYS}*`);
      const [key] = keys;
      const kept = JSON.parse((await raw.get(key!))!) as CachedAnswer;
      // Shorter than page 2, from a provider that gave all it was asked for: page 2 extends it with a deeper list.
      const changed: CachedAnswer = {
        ...kept,
        results: movedWordTitles(6).map((title, index) => ({ title, url: `https://other.example/${index}`, score: 1, sources: [{ provider: 'a', rank: index + 1 }] })),
      };
      expect(changed.results[0]!.title.length).toBeGreaterThan(RESULT_BOUNDS.title);
      await raw.set(key!, JSON.stringify(changed), 'PX', 60_000);

      // Another replica, whose memory holds nothing of the search, reads the entry.
      const started = performance.now();
      const page = await second.search({ kind: 'papers', query: QUERY, limit: LIMIT, page: 2 });
      expect(performance.now() - started).toBeLessThan(IN_PROPORTION_MS);
      // Page 2 of the providers' own list: none of the other writer's results, nor places it made page 1 show empty.
      expect(page.results.map((result) => result.url)).toEqual(Array.from({ length: LIMIT }, (_, index) => `https://papers.example/${LIMIT + index + 1}`));
    } finally {
      raw.disconnect();
    }
  }, 120_000);
});
