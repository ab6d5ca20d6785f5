import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openFailFastRedis } from '../../src/transport/redis-connection.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';

interface LogLine {
  level: number;
  msg: string;
}

const ERROR = 50;

describeWithRedis('a REDIS_URL naming a database the server does not have', () => {
  let server: RedisServer;
  let databaseZero: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    databaseZero = new Redis(`${server.url}/0`);
  });
  afterAll(async () => {
    databaseZero.disconnect();
    await server.stop();
  });

  it('is named in one error line at first connect, and nothing is written to database 0 in its place', async () => {
    const lines: LogLine[] = [];
    const logger: FastifyBaseLogger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
    // A default redis-server has 16 databases (0–15).
    const redis = openFailFastRedis({ url: `${server.url}/99`, logger, purpose: 'shared cache', whileDown: 'answering from the local cache', commandTimeoutMs: 500 });
    try {
      await expect.poll(() => lines.filter((line) => line.level === ERROR).length).toBe(1);
      expect(lines.find((line) => line.level === ERROR)!.msg).toMatch(
        /^shared cache: REDIS_URL names database 99, which the Redis server does not have \(its `databases` setting is lower; .*DB index is out of range\); answering from the local cache/,
      );
      expect(await redis.attempt((client) => client.set('fedsearch-test-key', 'written'))).toBeUndefined();
      expect(await databaseZero.dbsize()).toBe(0);
      // Not an outage that ends: no "Redis is back", and no reconnecting to try the same again.
      expect(lines.map((line) => line.msg)).not.toContain('shared cache: Redis is back');
      expect(redis.client.status).toBe('end');
    } finally {
      await redis.close();
    }
  });
});

describeWithRedis('a Redis that stalls (SIGSTOP) on a live connection', () => {
  const COMMAND_TIMEOUT_MS = 500;
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('is waited out by one command, then skipped at once until it answers again, however long it stays stalled', async () => {
    const lines: LogLine[] = [];
    const logger: FastifyBaseLogger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
    const redis = openFailFastRedis({ url: server.url, logger, purpose: 'shared cache', whileDown: 'answering from the local cache', commandTimeoutMs: COMMAND_TIMEOUT_MS });
    const timedPing = async (): Promise<{ reply: string | undefined; tookMs: number }> => {
      const started = performance.now();
      const reply = await redis.attempt((client) => client.ping());
      return { reply, tookMs: performance.now() - started };
    };
    try {
      await expect.poll(async () => (await timedPing()).reply).toBe('PONG');
      server.stall();
      const first = await timedPing();
      const later: number[] = [];
      try {
        expect(first.reply).toBeUndefined();
        expect(first.tookMs).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 50);
        // Commands spread over 3.5 s: longer than the old 2 s pause after which the next command waited out the
        // timeout again (the spacing is the scenario, a caller every 100 ms, not a wait for something to happen).
        const until = performance.now() + 3500;
        while (performance.now() < until) {
          const attempt = await timedPing();
          expect(attempt.reply).toBeUndefined();
          later.push(attempt.tookMs);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        server.resume();
      }
      // Not one of them waited for Redis: waiting out the command timeout takes at least COMMAND_TIMEOUT_MS - 50
      // (the bound the first command is held to above), so anything under it was skipped; a tighter bound only
      // measures how busy a shared 2-core CI machine is.
      expect(Math.max(...later), `times: ${later.map(Math.round).join(', ')} ms`).toBeLessThan(COMMAND_TIMEOUT_MS - 50);
      // Back without a caller's command paying for the check: a background PING finds it answering again.
      await expect.poll(async () => (await timedPing()).reply, { timeout: 10_000, interval: 100 }).toBe('PONG');
      expect(lines.filter((line) => line.msg === 'shared cache: Redis unavailable; answering from the local cache until it returns').length).toBe(1);
      expect(lines.map((line) => line.msg)).toContain('shared cache: Redis is back');
    } finally {
      await redis.close();
    }
  }, 30_000);
});

describeWithRedis('a Redis whose memory is full (maxmemory reached, noeviction): writes refused, reads and PING answered', () => {
  const WARN = 40;
  let server: RedisServer;
  let admin: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url);
    await admin.set('kept-before', 'readable');
    // Any used memory is past a limit of one byte: every command that may grow the data set is refused with OOM.
    await admin.config('SET', 'maxmemory', '1');
  });
  afterAll(async () => {
    admin.disconnect();
    await server.stop();
  });

  it('is one warning naming the full memory, not an outage and a return every second, and its reads still answer', async () => {
    const lines: LogLine[] = [];
    const logger: FastifyBaseLogger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
    const redis = openFailFastRedis({ url: server.url, logger, purpose: 'shared cache', whileDown: 'answering from the local cache', commandTimeoutMs: 500 });
    try {
      await expect.poll(async () => redis.attempt((client) => client.get('kept-before'))).toBe('readable');
      for (let write = 0; write < 3; write += 1) {
        expect(await redis.attempt((client) => client.set(`refused-${write}`, 'x'))).toBeUndefined();
        // Redis answered (it refused the write): the next read is not kept from it while a PING is awaited.
        await expect.poll(async () => redis.attempt((client) => client.get('kept-before')), { timeout: 5000, interval: 100 }).toBe('readable');
      }
      const warnings = lines.filter((line) => line.level === WARN);
      expect(warnings.map((line) => line.msg)).toHaveLength(1);
      expect(warnings[0]!.msg).toMatch(/^shared cache: Redis refuses commands \(OOM .*\); answering from the local cache for what it refuses; its memory is full: raise its maxmemory/);
      expect(lines.map((line) => line.msg)).not.toContain('shared cache: Redis is back');
      expect(lines.map((line) => line.msg).filter((message) => /Redis unavailable/.test(message))).toEqual([]);

      // Room again: the write goes through, and nothing more is said.
      await admin.config('SET', 'maxmemory', '0');
      expect(await redis.attempt((client) => client.set('written-after', 'x'))).toBe('OK');
      expect(lines.filter((line) => line.level === WARN)).toHaveLength(1);
    } finally {
      await redis.close();
    }
  }, 30_000);
});
