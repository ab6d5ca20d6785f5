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

/** Host and port only: a redis:// URL may carry a password, which must never reach a log line. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'redis';
  }
}

/**
 * Closes a client politely when it is connected, at once otherwise. `errorListener` (the owner's outage
 * reporting) is swapped for a quiet one: a socket error during quit must not surface as an unhandled event.
 */
export async function closeRedisClient(client: Redis, errorListener: (error: Error) => void): Promise<void> {
  client.off('error', errorListener);
  client.on('error', () => undefined);
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // Fall through to a hard disconnect.
    }
  }
  client.disconnect();
}
