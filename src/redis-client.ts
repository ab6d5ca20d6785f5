import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/**
 * A Redis client that fails fast instead of queueing while Redis is down, so a shared-state feature (rate
 * limits) degrades at once; it reconnects in the background and logs one warning per outage.
 */
export function createRedisClient(url: string, logger: FastifyBaseLogger, purpose: string): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ purpose, err: { message: error.message } }, `redis unavailable for ${purpose}; degrading`);
  });
  client.on('ready', () => {
    if (down) logger.info({ purpose }, `redis back for ${purpose}`);
    down = false;
  });
  return client;
}
