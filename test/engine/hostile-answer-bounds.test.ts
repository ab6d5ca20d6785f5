import { Redis } from 'ioredis';
import pino from 'pino';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { MAX_DEPTH } from '../../src/domain/query.js';
import { RESULT_BOUNDS } from '../../src/domain/result-bounds.js';
import { ANSWER_KEYS, isStoredAnswer } from '../../src/engine/cached-answer.js';
import type { RedisCache } from '../../src/engine/redis-cache.js';
import { SearchService, type CachedAnswer } from '../../src/engine/search-service.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, replicasConnected, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { sharedAnswerCache } from '../support/shared-answer-cache.js';
import { TestProvider } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });
const LIMIT = 10;
/** The longest entry the replicas write to Redis: CACHE_SHARED_MAX_BYTES' default. Their own answers here are far shorter. */
const MAX_ENTRY_BYTES = 8 * 1024 * 1024;

/** One result of another writer's, otherwise as this service keeps them: a page served from it shows other.example. */
function foreignResult(index: number): CachedAnswer['results'][number] {
  return { title: `Another writer's result ${index}`, url: `https://other.example/${index}`, score: 1, sources: [{ provider: 'a', rank: 1 }] };
}

/** Ways another writer may change the entry this service kept; each makes it an entry no replica of it writes. */
/** Each gives a value, written as JSON, or the text to write. */
const HOSTILE_ENTRIES: Array<[string, (kept: CachedAnswer) => unknown]> = [
  // More than MAX_DEPTH results for each provider asked, each one of a shape this service keeps: places a short page
  // showed empty, small enough for 100,000 of them to stay within CACHE_SHARED_MAX_BYTES.
  ['100,000 results', (kept) => ({ ...kept, results: Array.from({ length: 100_000 }, () => ({ title: '', url: '', score: 0, sources: [] })) })],
  ['a depth past the deepest page', (kept) => ({ ...kept, depth: 1e300, results: [foreignResult(1)] })],
  // Read by Redis' own decoder (which judges depth when a replica writes) as infinitely deep; no JSON to JSON.parse.
  ['a depth of Infinity', (kept) => JSON.stringify({ ...kept, depth: 0, results: [foreignResult(1)] }).replace('"depth":0', '"depth":Infinity')],
  ['a negative depth', (kept) => ({ ...kept, depth: -5, results: [foreignResult(1)] })],
  ['a URL longer than any kept', (kept) => ({ ...kept, results: [{ ...foreignResult(1), url: `https://other.example/${'a'.repeat(RESULT_BOUNDS.url)}` }] })],
  ['a snippet of a megabyte', (kept) => ({ ...kept, results: [{ ...foreignResult(1), snippet: 'word '.repeat(200_000) }] })],
  ['an abstract past its bound', (kept) => ({ ...kept, results: [{ ...foreignResult(1), abstract: 'x'.repeat(RESULT_BOUNDS.abstract + 1) }] })],
  ['ten thousand authors', (kept) => ({ ...kept, results: [{ ...foreignResult(1), authors: Array.from({ length: 10_000 }, (_, index) => `Author ${index}`) }] })],
  ['a source ranked past the deepest page', (kept) => ({ ...kept, results: [{ ...foreignResult(1), sources: [{ provider: 'a', rank: MAX_DEPTH + 1 }] }] })],
  ['a time gathered before 1970', (kept) => ({ ...kept, cached_at: -1e15, results: [foreignResult(1)] })],
  ['a negative count', (kept) => ({ ...kept, providers: kept.providers.map((outcome) => ({ ...outcome, count: -5 })), results: [foreignResult(1)] })],
  ['a wait shown as negative', (kept) => ({ ...kept, providers: kept.providers.map((outcome) => ({ ...outcome, retry_after_ms: -9e18 })), results: [foreignResult(1)] })],
  ['a provider message of a megabyte', (kept) => ({ ...kept, providers: kept.providers.map((outcome) => ({ ...outcome, message: 'spam '.repeat(200_000) })), results: [foreignResult(1)] })],
  ['more providers than are configured', (kept) => ({ ...kept, providers: Array.from({ length: 200 }, () => kept.providers[0]), results: [foreignResult(1)] })],
  // Within every bound of the shape, but longer than any entry a replica writes (CACHE_SHARED_MAX_BYTES).
  [
    'an entry longer than CACHE_SHARED_MAX_BYTES',
    (kept) => ({ ...kept, results: Array.from({ length: 900 }, (_, index) => ({ ...foreignResult(index), abstract: 'y'.repeat(RESULT_BOUNDS.abstract) })) }),
  ],
];

describeWithRedis('an answer another writer changed in the shared cache, past what this service keeps', () => {
  let redis: RedisServer;
  let upstream: FakeUpstream;
  let raw: Redis;
  const caches: RedisCache<CachedAnswer>[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = new Redis(redis.url);
    upstream = await startFakeUpstream();
    const results = Array.from({ length: 2 * LIMIT + 1 }, (_, index) => ({ title: `Plasma study ${index + 1}`, url: `https://papers.example/${index + 1}` }));
    upstream.on('/a/search', { kind: 'respond', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ results }) });
  });
  // Each case starts from an empty Redis: one whose entry stayed would be the next case's only key.
  afterEach(async () => {
    await raw.flushdb();
  });
  afterAll(async () => {
    await Promise.all(caches.map((cache) => cache.close()));
    raw.disconnect();
    await upstream.stop();
    await redis.stop();
  });

  /** A replica with one provider, its answer cache in front of the shared Redis as search-setup.ts makes it. */
  const replica = (): SearchService => {
    const cache = sharedAnswerCache(redis.url, {
      frontMaxBytes: 10_000_000,
      isServable: (value): value is CachedAnswer => isStoredAnswer(value, 1),
      maxEntryBytes: MAX_ENTRY_BYTES,
    });
    caches.push(cache);
    return new SearchService({
      providers: [new TestProvider('a', `${upstream.origin}/a`)],
      cache,
      dispatcher: agent,
      logger: pino({ level: 'silent' }),
      rrfK: 60,
      maxUpstreamBytes: 1024 * 1024,
      breaker: { failureThreshold: 5, cooldownMs: 1000, maxCooldownMs: 10_000 },
    });
  };

  /** How many clients Redis counts besides the test's own connection. */
  const replicaClients = async (): Promise<number> => Number(/connected_clients:(\d+)/.exec(await raw.info('clients'))?.[1] ?? 1) - 1;

  /** Resolves once the replicas closed before are gone from Redis: their connections may still be counted for a moment. */
  async function noReplicaConnected(): Promise<void> {
    while ((await replicaClients()) !== 0) await raw.ping();
  }

  /**
   * The answer the key holds once `holds` is true of it, polled with a deadline: the search does not wait for its
   * write, and the test waits for it a round trip to Redis at a time.
   */
  async function keptAnswer(key: string, holds: (value: Partial<CachedAnswer>) => boolean): Promise<Partial<CachedAnswer>> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const stored = await raw.get(key);
      const value = stored === null ? undefined : jsonOf(stored);
      if (value !== undefined && holds(value)) return value;
      if (Date.now() > deadline) throw new Error(`${key} holds no such answer within 10 s: ${stored?.slice(0, 200)}`);
    }
  }

  /** An entry's JSON value; undefined for another writer's text that is none. */
  function jsonOf(stored: string): Partial<CachedAnswer> | undefined {
    try {
      return JSON.parse(stored) as Partial<CachedAnswer>;
    } catch {
      return undefined;
    }
  }

  /** Whether an entry is the replicas' own answer, from the upstream's results. */
  const ownAnswer = (value: Partial<CachedAnswer>): boolean => value.depth === LIMIT + 1 && value.results?.[0]?.url === 'https://papers.example/1';

  it.each(HOSTILE_ENTRIES)('reads an entry with %s as a miss, and replaces it with its own answer', async (name, change) => {
    await Promise.all(caches.splice(0).map((cache) => cache.close()));
    await noReplicaConnected();
    const [first, second] = [replica(), replica()];
    await replicasConnected(raw, 2);
    const query = `plasma confinement, ${name}`;
    await first.search({ kind: 'web', query, limit: LIMIT, page: 1 });
    let keys: string[] = [];
    while (keys.length === 0) keys = await raw.keys(`*${ANSWER_KEYS}*`);
    const [key] = keys;
    const kept = (await keptAnswer(key!, ownAnswer)) as CachedAnswer;
    const entry = change(kept);
    await raw.set(key!, typeof entry === 'string' ? entry : JSON.stringify(entry), 'PX', 60_000);

    // Another replica, whose memory holds nothing of the search, reads the entry.
    const answer = await second.search({ kind: 'web', query, limit: LIMIT, page: 1 });
    expect(answer.cached).toBe(false);
    expect(answer.results.map((result) => result.url)).toEqual(Array.from({ length: LIMIT }, (_, index) => `https://papers.example/${index + 1}`));
    expect(answer.cache_age_ms).toBe(0);
    // Its own answer takes the entry's place: the key is no miss for every replica for as long as the entry lives.
    expect(ownAnswer(await keptAnswer(key!, ownAnswer))).toBe(true);
  }, 60_000);
});
