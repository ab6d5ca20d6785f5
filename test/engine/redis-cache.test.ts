import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createMemoryCache, type AnswerCache } from '../../src/engine/answer-cache.js';
import { createRedisCache, type RedisCache } from '../../src/engine/redis-cache.js';
import { describeWithRedis, freePort, startRedisServer, type RedisServer } from '../support/redis-server.js';

interface Answer {
  results: Array<{ url: string }>;
}

interface LogLine {
  level: number;
  msg: string;
}

const WARN = 40;
const DEBUG = 20;
/**
 * The caches' command timeout, and the line between a call that waited for Redis and one that skipped it: a wait
 * lasts about COMMAND_TIMEOUT_MS (less 50 ms for where the two clocks start), a skip well under a millisecond.
 * At 500 ms (the inbound limiter's own), a skipped call has room for a busy 2-core CI machine's stalls.
 */
const COMMAND_TIMEOUT_MS = 500;
const WAITED_MS = COMMAND_TIMEOUT_MS - 50;

function answer(url: string): Answer {
  return { results: [{ url }] };
}

/** An answer asked `depth` deep, as a search's kept list is (keepsKept reads it). */
function deepAnswer(url: string, depth: number): Answer {
  return Object.assign(answer(url), { depth });
}

/** The test's answers' shape: what the cache may serve from Redis. */
function isAnswer(value: unknown): value is Answer {
  return typeof value === 'object' && value !== null && Array.isArray((value as Answer).results);
}

/** A logger whose lines the test can read. */
function captureLogs(): { logger: FastifyBaseLogger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger: FastifyBaseLogger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

function memoryFront(): AnswerCache<Answer> {
  return createMemoryCache<Answer>({ ttlMs: 60_000, maxEntries: 100, maxBytes: 1024 * 1024 });
}

/** How long `call` took, in ms, added to `times`; what it returned. */
async function timed<Result>(times: number[], call: () => Promise<Result>): Promise<Result> {
  const started = performance.now();
  try {
    return await call();
  } finally {
    times.push(performance.now() - started);
  }
}

/** The times as a failure message shows them. */
function listed(times: number[]): string {
  return `times: ${times.map(Math.round).join(', ')} ms`;
}

/** Polls `check` until it holds, at most `timeoutMs`: for things that happen on Redis' or the OS's clock. */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The bytes Redis has sent to all its clients so far (INFO stats). */
async function redisOutputBytes(client: Redis): Promise<number> {
  return Number(/total_net_output_bytes:(\d+)/.exec(await client.info('stats'))?.[1]);
}

describeWithRedis('Redis answer cache', () => {
  let server: RedisServer;
  let raw: Redis;
  const opened: Array<RedisCache<Answer>> = [];
  let prefixCounter = 0;

  function open(overrides: { url?: string; ttlMs?: number; keyPrefix?: string; front?: AnswerCache<Answer>; maxEntryBytes?: number } = {}) {
    const { logger, lines } = captureLogs();
    const front = overrides.front ?? memoryFront();
    const cache = createRedisCache<Answer>({
      url: overrides.url ?? server.url,
      ttlMs: overrides.ttlMs ?? 60_000,
      keyPrefix: overrides.keyPrefix ?? `test:${prefixCounter}:`,
      logger,
      front,
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      isServable: isAnswer,
      ...(overrides.maxEntryBytes === undefined ? {} : { maxEntryBytes: overrides.maxEntryBytes }),
    });
    opened.push(cache);
    return { cache, front, lines };
  }

  /** A cache whose connection is up: the first command of a fresh client must not race its handshake. */
  async function openConnected(overrides: Parameters<typeof open>[0] = {}, inspector: Redis = raw) {
    const opened = open(overrides);
    const probeUrl = `https://probe.example/${Math.random()}`;
    await eventually(async () => {
      await opened.cache.set(probeUrl, answer(probeUrl));
      const keys = await inspector.keys(`${overrides.keyPrefix ?? `test:${prefixCounter}:`}*`);
      const values = keys.length > 0 ? await inspector.mget(keys) : [];
      return values.some((value) => value?.includes(probeUrl));
    });
    return opened;
  }

  beforeAll(async () => {
    server = await startRedisServer();
    raw = new Redis(server.url, { maxRetriesPerRequest: 1 });
  });
  afterEach(async () => {
    prefixCounter += 1;
    await Promise.all(opened.splice(0).map((cache) => cache.close()));
  });
  afterAll(async () => {
    raw?.disconnect();
    await server?.stop();
  });

  it('keeps what another replica kept when an entry is set with keepExisting, and sets it when none is kept', async () => {
    const replicaA = await openConnected();
    const replicaB = await openConnected();
    await replicaA.cache.set('["web","kept first"]', answer('https://complete.example/'));
    await replicaB.cache.set('["web","kept first"]', answer('https://partial.example/'), 15_000, { keepExisting: true });
    // Neither Redis nor B's own copy took B's answer: B serves A's.
    expect(await replicaB.cache.get('["web","kept first"]')).toEqual(answer('https://complete.example/'));
    await replicaB.cache.set('["web","nothing kept"]', answer('https://partial.example/'), 15_000, { keepExisting: true });
    expect(await replicaA.cache.get('["web","nothing kept"]')).toEqual(answer('https://partial.example/'));
  });

  it('keeps an entry as deep as one set with keepAsDeep, in Redis and in the writer\'s own copy, and replaces a shallower one', async () => {
    const replicaA = await openConnected();
    const replicaB = await openConnected();
    const key = '["web","as deep"]';
    await replicaA.cache.set(key, deepAnswer('https://complete.example/', 9), undefined, { depth: 9 });
    await replicaB.cache.set(key, deepAnswer('https://partial.example/', 9), 15_000, { depth: 9, keepAsDeep: true });
    expect(await replicaB.cache.get(key)).toEqual(deepAnswer('https://complete.example/', 9));
    expect(await replicaA.cache.get(key)).toEqual(deepAnswer('https://complete.example/', 9));
    // Deeper, it replaces it: the list a later page was shown from.
    await replicaB.cache.set(key, deepAnswer('https://partial.example/', 12), 15_000, { depth: 12, keepAsDeep: true });
    const third = await openConnected();
    expect(await third.cache.get(key)).toEqual(deepAnswer('https://partial.example/', 12));
  });

  it('keeps a list as deep that a new answer does not extend, unless it is partial and the new one complete, on every replica', async () => {
    const replicaA = await openConnected();
    const replicaB = await openConnected();
    const key = '["web","as deep, ranked afresh"]';
    const kept = Object.assign(deepAnswer('https://shown.example/', 7), { cached_at: 2_000 });
    await replicaA.cache.set(key, kept, undefined, { depth: 7, extending: { cachedAt: 1_000, depth: 4, length: 1 } });
    // Ranked afresh on B: Redis keeps A's list, and B's own copy becomes it.
    await replicaB.cache.set(key, deepAnswer('https://afresh.example/', 7), undefined, { depth: 7 });
    expect(await replicaB.front.get(key)).toEqual(kept);
    // Extending the list before A's: not the one kept either.
    await replicaB.cache.set(key, deepAnswer('https://extends-page-one.example/', 7), undefined, { depth: 7, extending: { cachedAt: 1_000, depth: 4, length: 1 } });
    expect(await (await openConnected()).cache.get(key)).toEqual(kept);
    // Extending A's list, it replaces it.
    const extension = deepAnswer('https://extends-shown.example/', 7);
    await replicaB.cache.set(key, extension, undefined, { depth: 7, extending: { cachedAt: 2_000, depth: 7, length: 1 } });
    expect(await (await openConnected()).cache.get(key)).toEqual(extension);

    // A partial list as deep gives way to a complete answer ranked afresh; a partial one keeps it.
    const partialKey = '["web","as deep, partial"]';
    const partial = Object.assign(deepAnswer('https://partial.example/', 7), { partial: true });
    await replicaA.cache.set(partialKey, partial, 15_000, { depth: 7, keepAsDeep: true });
    await replicaB.cache.set(partialKey, Object.assign(deepAnswer('https://partial-again.example/', 7), { partial: true }), 15_000, { depth: 7, keepAsDeep: true });
    expect(await (await openConnected()).cache.get(partialKey)).toEqual(partial);
    await replicaB.cache.set(partialKey, deepAnswer('https://complete.example/', 7), undefined, { depth: 7 });
    expect(await (await openConnected()).cache.get(partialKey)).toEqual(deepAnswer('https://complete.example/', 7));
  });

  it('serves a local copy found shallow unless Redis holds a deeper entry, which then becomes the local copy', async () => {
    const replicaA = await openConnected();
    const replicaB = await openConnected();
    const key = '["web","shallow copy"]';
    const shallowUnlessDeep = (value: Answer) => ((value as Answer & { depth: number }).depth >= 10 ? true : 'shallow');
    await replicaB.cache.set(key, deepAnswer('https://page-one.example/', 4), undefined, { depth: 4 });
    // Redis holds nothing deeper: the shallow copy is served.
    expect(await replicaB.cache.get(key, shallowUnlessDeep)).toEqual(deepAnswer('https://page-one.example/', 4));
    await replicaA.cache.set(key, deepAnswer('https://page-three.example/', 10), undefined, { depth: 10 });
    expect(await replicaB.cache.get(key, shallowUnlessDeep)).toEqual(deepAnswer('https://page-three.example/', 10));
    expect(await replicaB.front.get(key)).toEqual(deepAnswer('https://page-three.example/', 10));
  });

  it('lets two replicas sharing one Redis see each other\'s answers, and fills the reader\'s local cache', async () => {
    const replicaA = await openConnected();
    const replicaB = await openConnected();
    await replicaA.cache.set('["web","rust async"]', answer('https://a.example/'));

    expect(await replicaB.front.get('["web","rust async"]')).toBeUndefined();
    expect(await replicaB.cache.get('["web","rust async"]')).toEqual(answer('https://a.example/'));
    expect(await replicaB.front.get('["web","rust async"]')).toEqual(answer('https://a.example/'));

    await replicaB.cache.set('["papers","graph"]', answer('https://b.example/'));
    expect(await replicaA.cache.get('["papers","graph"]')).toEqual(answer('https://b.example/'));
    expect(await replicaA.cache.get('["web","never stored"]')).toBeUndefined();
  });

  it('stores answers as JSON under the prefix with a PX expiry, and Redis forgets them after it', async () => {
    const prefix = `ttl:${prefixCounter}:`;
    const writer = await openConnected({ ttlMs: 400, keyPrefix: prefix });
    await writer.cache.set('short-lived', answer('https://ttl.example/'));
    const keys = await raw.keys(`${prefix}*`);
    const values = await Promise.all(keys.map((key) => raw.get(key)));
    expect(values).toContain(JSON.stringify(answer('https://ttl.example/')));
    for (const key of keys) {
      const remaining = await raw.pttl(key);
      expect(remaining).toBeGreaterThan(0);
      expect(remaining).toBeLessThanOrEqual(400);
    }

    // A replica with an empty local cache sees it while it lives, and not after.
    const reader = await openConnected({ ttlMs: 400, keyPrefix: prefix, front: createMemoryCache<Answer>({ ttlMs: 1, maxEntries: 10, maxBytes: 4096 }) });
    expect(await reader.cache.get('short-lived')).toEqual(answer('https://ttl.example/'));
    await eventually(async () => (await raw.keys(`${prefix}*`)).length === 0, 5000);
    expect(await reader.cache.get('short-lived')).toBeUndefined();
  });

  it('keeps an entry given a shorter life only that long, in Redis and in the reader\'s local copy', async () => {
    const prefix = `short:${prefixCounter}:`;
    const writer = await openConnected({ ttlMs: 60_000, keyPrefix: prefix });
    await writer.cache.set('partial', answer('https://partial.example/'), 2000);
    const keys = await raw.keys(`${prefix}*`);
    const values = await raw.mget(keys);
    const partialKey = keys[values.findIndex((value) => value?.includes('partial.example'))]!;
    const lifetime = await raw.pttl(partialKey);
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(2000);

    // The reader's front would keep it 60 s; it is given what Redis has left instead.
    const reader = open({ ttlMs: 60_000, keyPrefix: prefix });
    await eventually(async () => (await reader.cache.get('partial')) !== undefined);
    expect(await reader.cache.get('partial')).toEqual(answer('https://partial.example/'));
    expect(await reader.front.get('partial')).toEqual(answer('https://partial.example/'));
    await eventually(async () => (await reader.front.get('partial')) === undefined, 5000);
    expect(await reader.cache.get('partial')).toBeUndefined();
  });

  it('writes no answer longer than its bound to Redis, however it is set, and keeps it in the writer\'s own cache', async () => {
    const prefix = `bounded:${prefixCounter}:`;
    const small = answer('https://small.example/');
    const large = answer(`https://large.example/${'x'.repeat(400)}`);
    // Between the two: the bound is the answer's JSON length, as the local cache counts it (CACHE_MAX_BYTES).
    const maxEntryBytes = JSON.stringify(small).length + 100;
    expect(JSON.stringify(large).length).toBeGreaterThan(maxEntryBytes);
    const writer = await openConnected({ keyPrefix: prefix, maxEntryBytes });
    const keysBefore = (await raw.keys(`${prefix}*`)).length;
    await writer.cache.set('plain large', large);
    await writer.cache.set('kept large', large, 15_000, { keepExisting: true });
    await writer.cache.set('deep large', deepAnswer(large.results[0]!.url, 9), undefined, { depth: 9 });
    await writer.cache.set('plain small', small);
    // Only the small one reached Redis.
    const values = await raw.mget(await raw.keys(`${prefix}*`));
    expect(values).toHaveLength(keysBefore + 1);
    expect(values).toContain(JSON.stringify(small));
    expect(await writer.front.get('plain large')).toEqual(large);
    expect(await writer.front.get('kept large')).toEqual(large);
    expect(writer.lines.filter((line) => line.level === DEBUG && /not shared/.test(line.msg))).toHaveLength(3);
  });

  it('replaces a foreign entry longer than its bound at once, without Redis sending it back for the writer to judge', async () => {
    const prefix = `foreign-long:${prefixCounter}:`;
    const maxEntryBytes = 2_000;
    const writer = await openConnected({ keyPrefix: prefix, maxEntryBytes });
    const key = '["web","a foreign entry past the bound"]';
    await writer.cache.set(key, deepAnswer('https://first.example/', 9), undefined, { depth: 9 });
    const keys = await raw.keys(`${prefix}*`);
    const values = await raw.mget(keys);
    const redisKey = keys[values.findIndex((value) => value?.includes('first.example'))]!;
    // As deep as the answer and not partial, so the rule of which list stays would keep it: no replica writes one so long.
    const foreign = JSON.stringify(Object.assign(deepAnswer(`https://foreign.example/${'f'.repeat(200_000)}`, 9), { cached_at: 1 }));
    await raw.set(redisKey, foreign, 'PX', 60_000);
    const sentBefore = await redisOutputBytes(raw);
    const own = deepAnswer('https://own.example/', 9);
    await writer.cache.set(key, own, undefined, { depth: 9 });
    expect(await raw.get(redisKey)).toBe(JSON.stringify(own));
    // Redis sent no copy of the 200 KB entry to the writer (nor did the writer send it back to replace it).
    expect((await redisOutputBytes(raw)) - sentBefore).toBeLessThan(20_000);
  });

  it('replaces a foreign entry it read as unservable outright, without Redis sending it back to be judged again', async () => {
    const prefix = `foreign-read:${prefixCounter}:`;
    const writer = await openConnected({ keyPrefix: prefix });
    const key = '["web","a foreign entry read"]';
    await writer.cache.set(key, deepAnswer('https://first.example/', 9), undefined, { depth: 9 });
    const keys = await raw.keys(`${prefix}*`);
    const values = await raw.mget(keys);
    const redisKey = keys[values.findIndex((value) => value?.includes('first.example'))]!;
    // As deep as the answer and not partial, within every size bound, but no answer: the test's replicas serve none.
    const foreign = JSON.stringify({ results: 'none', depth: 9, cached_at: 1, filler: 'f'.repeat(200_000) });
    await raw.set(redisKey, foreign, 'PX', 60_000);
    const { cache: reader } = await openConnected({ keyPrefix: prefix });
    expect(await reader.get(key)).toBeUndefined();
    const sentBefore = await redisOutputBytes(raw);
    const own = deepAnswer('https://own.example/', 9);
    await reader.set(key, own, undefined, { depth: 9 });
    expect(await raw.get(redisKey)).toBe(JSON.stringify(own));
    // The write sent no copy of the 200 KB entry back to the reader, which had judged it already.
    expect((await redisOutputBytes(raw)) - sentBefore).toBeLessThan(20_000);
  });

  it('caches nothing in Redis when the TTL is 0', async () => {
    const prefix = `zero:${prefixCounter}:`;
    const { cache } = open({ ttlMs: 0, keyPrefix: prefix, front: createMemoryCache<Answer>({ ttlMs: 0, maxEntries: 10, maxBytes: 4096 }) });
    await cache.set('anything', answer('https://zero.example/'));
    expect(await raw.keys(`${prefix}*`)).toEqual([]);
    expect(await cache.get('anything')).toBeUndefined();
  });

  it('treats an entry that is not JSON as a miss', async () => {
    const prefix = `garbage:${prefixCounter}:`;
    const { cache } = await openConnected({ keyPrefix: prefix });
    await cache.set('mangled', answer('https://mangled.example/'));
    const keys = await raw.keys(`${prefix}*`);
    for (const key of keys) await raw.set(key, '{not json');
    const { cache: fresh } = await openConnected({ keyPrefix: prefix });
    expect(await fresh.get('mangled')).toBeUndefined();
  });

  it('treats an entry it cannot serve as a miss, and keeps no local copy of it', async () => {
    const prefix = `foreign:${prefixCounter}:`;
    const { cache } = await openConnected({ keyPrefix: prefix });
    await cache.set('foreign', answer('https://foreign.example/'));
    const keys = await raw.keys(`${prefix}*`);
    for (const key of keys) await raw.set(key, JSON.stringify({ results: 'not a list' }), 'PX', 60_000);
    const { cache: fresh, front, lines } = await openConnected({ keyPrefix: prefix });
    expect(await fresh.get('foreign')).toBeUndefined();
    expect(await front.get('foreign')).toBeUndefined();
    expect(lines.some((line) => line.level === DEBUG && line.msg === 'shared cache entry is not an answer this service can serve; ignored')).toBe(true);
  });

  it('never waits on a Redis that is not there, and warns once', async () => {
    const nobody = await freePort();
    const { cache, lines } = open({ url: `redis://127.0.0.1:${nobody}` });
    await eventually(() => lines.some((line) => line.level === WARN));
    const times: number[] = [];
    for (let index = 0; index < 50; index += 1) {
      await timed(times, () => cache.set(`key-${index}`, answer(`https://local.example/${index}`)));
      expect(await timed(times, () => cache.get(`key-${index}`))).toEqual(answer(`https://local.example/${index}`));
      expect(await timed(times, () => cache.get(`missing-${index}`))).toBeUndefined();
    }
    // Not one of the 150 calls waited for a command timeout (or the longer connect timeout): each is timed on its
    // own, so a single wait fails this, where 150 calls' total under a fixed bound let several through.
    expect(times).toHaveLength(150);
    expect(Math.max(...times), listed(times)).toBeLessThan(WAITED_MS);
    // Reconnect attempts keep failing (logged at debug), yet the outage is one warning.
    await eventually(() => lines.filter((line) => line.level === DEBUG).length >= 3);
    expect(lines.filter((line) => line.level === WARN)).toHaveLength(1);
    expect(lines.find((line) => line.level === WARN)?.msg).toMatch(/Redis.*unavailable.*local cache/);
  });

  it('keeps answering from the local cache when Redis dies mid-way, warns once, and shares again once it is back', async () => {
    const own = await startRedisServer();
    const ownRaw = new Redis(own.url, { maxRetriesPerRequest: 1 });
    try {
      const replicaA = await openConnected({ url: own.url, keyPrefix: 'outage:' }, ownRaw);
      const replicaB = await openConnected({ url: own.url, keyPrefix: 'outage:' }, ownRaw);
      ownRaw.disconnect();
      await replicaA.cache.set('before', answer('https://before.example/'));
      expect(await replicaB.cache.get('before')).toEqual(answer('https://before.example/'));

      await own.kill();
      for (let index = 0; index < 30; index += 1) {
        await replicaA.cache.set(`during-${index}`, answer(`https://during.example/${index}`));
        expect(await replicaA.cache.get(`during-${index}`)).toEqual(answer(`https://during.example/${index}`));
      }
      expect(await replicaA.cache.get('before')).toEqual(answer('https://before.example/'));
      expect(await replicaB.cache.get('during-0')).toBeUndefined();
      await eventually(() => replicaA.lines.filter((line) => line.level === DEBUG).length >= 3);
      await eventually(() => replicaB.lines.some((line) => line.level === WARN));
      expect(replicaA.lines.filter((line) => line.level === WARN)).toHaveLength(1);
      expect(replicaB.lines.filter((line) => line.level === WARN)).toHaveLength(1);

      const revived = await startRedisServer({ port: own.port });
      try {
        await eventually(async () => {
          await replicaA.cache.set('after', answer('https://after.example/'));
          return (await replicaB.cache.get('after')) !== undefined;
        });
        expect(await replicaB.cache.get('after')).toEqual(answer('https://after.example/'));
        expect(replicaA.lines.some((line) => line.msg.includes('is back'))).toBe(true);
        expect(replicaA.lines.filter((line) => line.level === WARN)).toHaveLength(1);
      } finally {
        await Promise.all(opened.splice(0).map((cache) => cache.close()));
        await revived.stop();
      }
    } finally {
      ownRaw.disconnect();
      await own.stop();
    }
  });

  it('answers from the local cache when Redis is slow, without waiting past the command timeout', async () => {
    const { cache, lines } = await openConnected({ keyPrefix: 'slow:' });
    // Redis stopped (SIGSTOP), its connections open: commands from the cache hang until their timeout. Not CLIENT
    // PAUSE: its UNPAUSE waits out the pause like any other command, so every run of this test lasted the whole pause.
    server.stall();
    try {
      const first: number[] = [];
      const later: number[] = [];
      expect(await timed(first, () => cache.get('slow-miss'))).toBeUndefined();
      await timed(later, () => cache.set('slow-write', answer('https://slow.example/')));
      expect(await timed(later, () => cache.get('slow-write'))).toEqual(answer('https://slow.example/'));
      for (let index = 0; index < 20; index += 1) expect(await timed(later, () => cache.get(`slow-${index}`))).toBeUndefined();
      // The first command pays the command timeout (so Redis was indeed stalled); the rest skip Redis while it is,
      // each too quick to have waited for a timeout of its own.
      expect(first[0]).toBeGreaterThanOrEqual(WAITED_MS);
      expect(later).toHaveLength(22);
      expect(Math.max(...later), listed(later)).toBeLessThan(WAITED_MS);
      expect(lines.filter((line) => line.level === WARN)).toHaveLength(1);
      expect(lines.find((line) => line.level === WARN)).toMatchObject({ reason: expect.stringMatching(/timed out/i) });
    } finally {
      server.resume();
    }
  });

  it('never writes the Redis password to a log line', async () => {
    const nobody = await freePort();
    const { lines } = open({ url: `redis://:sekret-password-123@127.0.0.1:${nobody}` });
    await eventually(() => lines.some((line) => line.level === WARN));
    expect(JSON.stringify(lines)).not.toContain('sekret-password-123');
    expect(JSON.stringify(lines)).toContain(`127.0.0.1:${nobody}`);
  });
});
