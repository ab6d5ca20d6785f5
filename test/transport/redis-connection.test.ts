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
