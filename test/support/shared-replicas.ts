import { Redis } from 'ioredis';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { providerEnv, startService, type RunningService } from './service.js';

/** Two replicas of the service sharing one real Redis and asking one fake upstream: a scaled-out deployment in small. */
export interface SharedReplicas {
  redis: RedisServer;
  /** A client of that Redis, to read what the replicas keep there. */
  raw: Redis;
  upstream: FakeUpstream;
  a: RunningService;
  b: RunningService;
  /** The answers the replicas keep in Redis, parsed. */
  sharedAnswers(): Promise<Array<Record<string, unknown>>>;
  stop(): Promise<void>;
}

/** Starts them with the answer cache on (300 s) and quiet logs; `env` adds to or overrides that. */
export async function startSharedReplicas(env: Record<string, string>): Promise<SharedReplicas> {
  const redis = await startRedisServer();
  const raw = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  const upstream = await startFakeUpstream();
  const settings = { ...providerEnv(upstream.origin), REDIS_URL: redis.url, CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent', ...env };
  const a = await startService(settings);
  const b = await startService(settings);
  return {
    redis,
    raw,
    upstream,
    a,
    b,
    sharedAnswers: async () => Promise.all((await raw.keys('fedsearch:answer:*')).map(async (key) => JSON.parse((await raw.get(key)) ?? '{}'))),
    stop: async () => {
      raw.disconnect();
      await a.stop();
      await b.stop();
      await upstream.stop();
      await redis.stop();
    },
  };
}
