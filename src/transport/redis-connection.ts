import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { isReplyError, RefusalReport } from './redis-refusals.js';

/** A client that carries its fail-fast gate, for a plugin that must be handed the client itself (@fastify/rate-limit). */
export type FailFastClient = Redis & Pick<FailFastRedis, 'attempt'>;

/** The inbound rate limiter's longest wait for one Redis command (createRedisClient's default). */
const RATE_LIMIT_COMMAND_TIMEOUT_MS = 500;

/**
 * A Redis client that fails fast instead of queueing while Redis is down, so a shared-state feature (rate
 * limits) degrades at once. Its `attempt` is `openFailFastRedis`'s: after a failed or late command Redis is
 * left alone until it answers a background PING, so a stalled Redis costs one command timeout per stall, not one
 * per request (nor one per pause).
 */
export function createRedisClient(
  url: string,
  logger: FastifyBaseLogger,
  purpose: string,
  commandTimeoutMs = RATE_LIMIT_COMMAND_TIMEOUT_MS,
): FailFastClient {
  const redis = openFailFastRedis({ url, logger, purpose, whileDown: 'going on without it', commandTimeoutMs });
  return Object.assign(redis.client, { attempt: redis.attempt });
}

/** Redis' reply to SELECT of a database number past its `databases` setting (ERR DB index is out of range). */
function isMissingDatabase(reason: string): boolean {
  return /\bDB index is out of range\b/i.test(reason);
}

/** The database number a redis:// URL names: its path, else its `db` parameter (as ioredis reads it). */
function databaseOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname.replace(/^\//, '') || (parsed.searchParams.get('db') ?? '0');
  } catch {
    return 'of REDIS_URL';
  }
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

export interface FailFastRedisOptions {
  url: string;
  logger: FastifyBaseLogger;
  /** What the connection is for, as log lines name it: `shared cache`, `outbound rate limits`. */
  purpose: string;
  /** What the service does while Redis is away, for the one warning: `answering from the local cache`. */
  whileDown: string;
  /** Longest wait for one command before the caller goes on without Redis. */
  commandTimeoutMs: number;
  /** Shown by CLIENT LIST, so operators (and tests) can tell the connections apart. */
  connectionName?: string;
}

export interface FailFastRedis<Client extends Redis = Redis> {
  readonly client: Client;
  /** Runs one command if Redis can take it now; any failure means "no answer from Redis", never an error. */
  attempt<Result>(command: (client: Client) => Promise<Result>): Promise<Result | undefined>;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 1000;
/** Reconnect pauses grow 100, 200, 400 … ms up to this. */
const MAX_RECONNECT_DELAY_MS = 2000;
/**
 * After a failed command on a live connection (Redis slow or stalled, not gone), commands skip Redis until a PING
 * sent this often answers: a stalled Redis is waited out once, by the commands already sent, not once per pause.
 */
const PROBE_INTERVAL_MS = 1000;

/**
 * A Redis connection for state replicas share but can do without (answers, outbound buckets): commands fail
 * fast (no offline queue, a short timeout) so callers fall back to their local state at once, a slow or stalled
 * Redis is left alone until it answers a PING again, and one warning is logged per outage rather than one per command.
 * A command Redis refuses (RefusalReport) falls back the same way, but is no outage: the next command is sent.
 */
export function openFailFastRedis<Client extends Redis = Redis>(
  options: FailFastRedisOptions,
  prepare: (client: Redis) => Client = (client) => client as Client,
): FailFastRedis<Client> {
  const { logger, purpose } = options;
  const where = describeRedisUrl(options.url);
  const client = prepare(
    new Redis(options.url, {
      enableOfflineQueue: false,
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: CONNECT_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(100 * 2 ** (attempt - 1), MAX_RECONNECT_DELAY_MS),
      ...(options.connectionName ? { connectionName: options.connectionName } : {}),
    }),
  );
  let available = true;
  /** Redis failed a command on a live connection and has not answered a probe since: commands skip it. */
  let stalled = false;
  let probeTimer: ReturnType<typeof setTimeout> | undefined;
  let refused = false;
  const refusals = new RefusalReport(logger, purpose, options.whileDown, where);
  const reportFailure = (error: unknown): void => {
    const reason = error instanceof Error ? error.message : String(error);
    if (isMissingDatabase(reason)) {
      refuseMissingDatabase(reason);
      return;
    }
    if (available) {
      available = false;
      logger.warn({ redis: where, reason }, `${purpose}: Redis unavailable; ${options.whileDown} until it returns`);
    } else {
      logger.debug({ redis: where, reason }, `${purpose}: Redis still unavailable`);
    }
  };
  /**
   * The server has fewer databases than REDIS_URL's number. ioredis reports the failed SELECT as an error and then
   * goes on, ready, on database 0: a replica wrote its keys where another application's may be, while the log said
   * Redis was unavailable, then back. This is a setting to fix, not an outage to wait out: one error naming it, and
   * no Redis for this connection (the service goes on as it does while Redis is down).
   */
  const refuseMissingDatabase = (reason: string): void => {
    if (refused) return;
    refused = true;
    client.disconnect();
    logger.error(
      { redis: where, reason },
      `${purpose}: REDIS_URL names database ${databaseOf(options.url)}, which the Redis server does not have (its \`databases\` setting is lower; ${reason}); ${options.whileDown} until REDIS_URL or the server is changed and the service restarted`,
    );
  };
  const reportSuccess = (): void => {
    if (available || refused) return;
    available = true;
    logger.info({ redis: where }, `${purpose}: Redis is back`);
  };
  /** Commands skip Redis from now on; a PING in the background (never a caller's command) finds when it answers again. */
  const markStalled = (): void => {
    if (stalled) return;
    stalled = true;
    scheduleProbe();
  };
  const endStall = (): void => {
    stalled = false;
    clearTimeout(probeTimer);
    probeTimer = undefined;
  };
  const scheduleProbe = (): void => {
    probeTimer = setTimeout(probe, PROBE_INTERVAL_MS);
    // A probe waiting for its turn must not keep the process alive on its own.
    probeTimer.unref();
  };
  const probe = (): void => {
    probeTimer = undefined;
    // A connection that is not ready reconnects by itself; its 'ready' ends the stall.
    if (!stalled || refused || client.status !== 'ready') return;
    client.ping().then(
      () => {
        if (!stalled) return;
        endStall();
        reportSuccess();
      },
      (error: unknown) => {
        if (!stalled) return;
        reportFailure(error);
        scheduleProbe();
      },
    );
  };
  // Without a listener ioredis prints every reconnect failure to the console.
  client.on('error', reportFailure);
  client.on('ready', () => {
    endStall();
    reportSuccess();
  });
  return {
    client,
    async attempt(command) {
      if (refused || stalled || client.status !== 'ready') return undefined;
      try {
        const result = await command(client);
        reportSuccess();
        return result;
      } catch (error) {
        // Answered, with a refusal: Redis is there (a missing database is the setting reportFailure names).
        if (isReplyError(error) && !isMissingDatabase(error.message)) {
          refusals.refused(error.message);
          return undefined;
        }
        markStalled();
        reportFailure(error);
        return undefined;
      }
    },
    close: () => {
      endStall();
      return closeRedisClient(client, reportFailure);
    },
  };
}
