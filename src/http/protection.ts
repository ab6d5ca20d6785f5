import fastifyCors from '@fastify/cors';
import fastifyRateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor, type RateLimitOptions } from '@fastify/rate-limit';
import fastifyUnderPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequire } from 'node:module';
import type { AppConfig } from '../config.js';
import { listFromEnv } from '../config/env-values.js';
import { clientKeyOf } from '../domain/client-key.js';
import { FedsearchError } from '../domain/errors.js';
import { retryAfterWords } from '../domain/retry-advice.js';
import { isOpenPath, markRefused, wasRefused } from './access-control.js';
import type { FailFastClient } from '../transport/redis-connection.js';
import { API_HELMET_OPTIONS, sendSecurityHeaders } from './security-headers.js';
import { pathOf } from './url-path.js';

/**
 * The search page's CSP (http/web-routes.ts): its own scripts, styles and API calls only; no inline code, no
 * framing, no HTML from strings. The global helmet setting below leaves CSP off: the API's answers are JSON, which
 * runs nothing, and Swagger UI at /docs has a policy of its own (http/openapi-document.ts).
 */
export const PAGE_CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // The page writes no HTML from strings (textContent and setAttribute only): with Trusted Types required, a script
  // that tried (innerHTML, document.write, a javascript: URL) is refused by the browser instead of run.
  requireTrustedTypesFor: ["'script'"],
};

/**
 * Headers, CORS, rate limits and load shedding. Rate limits count per API key (per IP without keys) and are
 * shared across replicas through Redis when one is configured; while Redis is down, or left alone after a failed
 * command until it answers again, each replica counts on its own (per-replica limits) rather than every caller getting an error.
 * Returns the limiter's count of a request its hook does not see: a refused key or token (AccessControlOptions.countRefusal),
 * a path no route serves (http/not-found-handler.ts) or one refused before routing (http/framework-errors.ts); it marks
 * the request refused, so that the allow list counts it.
 */
export async function registerProtection(
  app: FastifyInstance,
  config: AppConfig,
  redis: FailFastClient | undefined,
): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<void>> {
  // helmet's headers, worked out once at start-up (the search page adds its own CSP: http/web-routes.ts).
  sendSecurityHeaders(app, API_HELMET_OPTIONS);

  // Written as the Origin header carries them: an entry with a trailing slash (checked at start-up) matched nothing.
  const origins = listFromEnv(config.CORS_ORIGINS).map((entry) => (entry === '*' ? entry : new URL(entry).origin));
  // Without CORS_ORIGINS no origin is allowed: the plugin would add nothing to any answer (its OPTIONS route
  // answers 404, as no route does), yet run a hook on every request.
  if (origins.length > 0) {
    const corsOptions = {
      origin: origins.includes('*') ? true : origins,
      methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['authorization', 'content-type', 'x-api-key', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'],
      exposedHeaders: ['mcp-session-id', 'x-request-id', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
    };
    // An OPTIONS that is no preflight (no Origin or no Access-Control-Request-Method) got the plugin's own
    // text/plain 400 "Invalid Preflight Request"; without CORS for it, it is answered as any method a route does
    // not take (http/error-handler.ts): a 405 listing the path's methods, or a 404, in the error envelope. So is a
    // preflight for a request no route would serve: the plugin's OPTIONS route answered every path 204, uncounted by
    // the rate limit (its route comes before the limiter's hook), each logged as long as its URL.
    await app.register(fastifyCors, {
      delegator: (request, callback) => callback(null, request.method !== 'OPTIONS' || isServedPreflight(app, request) ? corsOptions : { origin: false }),
    });
  }

  await app.register(fastifyRateLimit, {
    max: config.RATE_LIMIT_MAX,
    timeWindow: config.RATE_LIMIT_WINDOW_MS,
    keyGenerator: (request) => clientKeyOf(request),
    // An open path is not counted, unless its request was refused for its key (/metrics guarded by the API keys).
    allowList: (request) => isOpenPath(request.url) && !wasRefused(request),
    ...(redis ? { store: failFastRedisStore(redis, `${config.REDIS_KEY_PREFIX}${CLIENT_LIMIT_KEYS}`), skipOnError: true } : {}),
    // The plugin has set Retry-After (the window's rest, in whole seconds); the error handler puts the same wait in the body.
    errorResponseBuilder: (_request, context) => rateLimited(context.max, context.ttl, context.statusCode),
  });

  await app.register(fastifyUnderPressure, {
    maxEventLoopDelay: config.PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes: config.PRESSURE_MAX_HEAP_BYTES,
    maxRssBytes: config.PRESSURE_MAX_RSS_BYTES,
    exposeStatusRoute: false,
    // The plugin's own answer is an error without our code: the envelope said INTERNAL and hid the reason, and
    // the log recorded every request turned away as a failure, stack and all, just when the service is busiest.
    pressureHandler: (_request, _reply, type) => Promise.reject(overloaded(type)),
  });

  // The limiter's count with the global settings, taken even when its hook already let the request pass (an open
  // path such as /metrics, whose token is checked later): one more for the address, answered 429 past RATE_LIMIT_MAX.
  // The request is marked refused first, so that the allow list, which spares open paths, counts it. A request is
  // counted once: one no route serves may come here from the not-found handler, then from the error handler with its 429.
  const count = app.createRateLimit();
  return async (request, reply) => {
    if (wasRefused(request)) return;
    markRefused(request);
    const counted = await count(request);
    if (counted.isAllowed || !counted.isExceeded) return;
    throw rateLimited(counted.max, counted.ttl);
  };

  /**
   * What a caller past RATE_LIMIT_MAX is told, by the limiter's hook and by a refusal's count alike: the wait as
   * retryAfterMs, which the error handler sends as Retry-After and as the body's retry_after_ms (the body said
   * only "retry in 12 seconds", in words, while other refusals that ask for a wait carry it as a number).
   */
  function rateLimited(max: number, ttlMs: number, statusCode = 429): Error {
    const retryAfterMs = Math.max(0, Math.ceil(ttlMs));
    const message = `rate limit exceeded: at most ${max} requests per ${Math.round(config.RATE_LIMIT_WINDOW_MS / 1000)} s; ${retryAfterWords(retryAfterMs)}`;
    return Object.assign(new Error(message), { statusCode, retryAfterMs });
  }
}

/** A preflight (an Origin and the method to come) for a request a route serves: that method at that path. */
function isServedPreflight(app: FastifyInstance, request: FastifyRequest): boolean {
  const method = request.headers['access-control-request-method'];
  if (request.headers.origin === undefined || method === undefined) return false;
  return app.findRoute({ method, url: pathOf(request.url) }) !== null;
}

/** Per-client counter keys after the service's REDIS_KEY_PREFIX. */
const CLIENT_LIMIT_KEYS = 'client-limit:v1:';

/** The plugin's own Redis store (its Lua counter), reached by path: the package exports only its plugin. */
interface RedisCounter {
  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void;
  child(routeOptions: object): RedisCounter;
}
type RedisCounterCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: FailFastClient, key: string) => RedisCounter;
type LocalCounterCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => RedisCounter;
const requireFromHere = createRequire(import.meta.url);
const RedisStore = requireFromHere('@fastify/rate-limit/store/RedisStore.js') as RedisCounterCtor;
const LocalStore = requireFromHere('@fastify/rate-limit/store/LocalStore.js') as LocalCounterCtor;

/**
 * The plugin's Redis store, run through the client's fail-fast gate: after a failed or late command, requests
 * skip Redis at once until it answers a PING again, instead of each waiting out the command timeout. Meanwhile (and while
 * Redis is down) they are counted in this replica, as the plugin's own in-memory store counts them: letting them
 * pass uncounted lifted RATE_LIMIT_MAX for every caller for as long as Redis was away.
 */
function failFastRedisStore(redis: FailFastClient, keyPrefix: string): FastifyRateLimitStoreCtor {
  class FailFastRedisStore implements FastifyRateLimitStore {
    private readonly counter: RedisCounter;
    private readonly local: RedisCounter;

    constructor(options: RateLimitOptions, counters?: { shared: RedisCounter; local: RedisCounter }) {
      const continueExceeding = options.continueExceeding ?? false;
      const exponentialBackoff = options.exponentialBackoff ?? false;
      this.counter = counters?.shared ?? new RedisStore(continueExceeding, exponentialBackoff, redis, keyPrefix);
      this.local = counters?.local ?? new LocalStore(continueExceeding, exponentialBackoff, options.cache);
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow?: number, max?: number): void {
      const counted = redis.attempt(
        () =>
          new Promise<{ current: number; ttl: number }>((resolve, reject) =>
            this.counter.incr(key, (error, result) => (error || !result ? reject(error) : resolve(result)), timeWindow ?? 0, max ?? 0),
          ),
      );
      void counted.then((result) => (result ? callback(null, result) : this.local.incr(key, callback, timeWindow ?? 0, max ?? 0)));
    }

    // The plugin passes the route's merged rate-limit settings; its types name the route options instead.
    child(routeOptions: object): FastifyRateLimitStore {
      return new FailFastRedisStore(routeOptions as RateLimitOptions, { shared: this.counter.child(routeOptions), local: this.local.child(routeOptions) });
    }
  }
  return FailFastRedisStore;
}

const SHEDDING_RETRY_AFTER_MS = 10_000;

/** What a caller turned away by load shedding is told: which limit was passed, and when to try again. */
function overloaded(type: string): FedsearchError {
  const limit = PRESSURE_LIMITS[type] ?? 'a load limit';
  return new FedsearchError(
    'OVERLOADED',
    `the service is overloaded (${limit} is past its limit) and turns requests away for now; ${retryAfterWords(SHEDDING_RETRY_AFTER_MS)}`,
    { retryAfterMs: SHEDDING_RETRY_AFTER_MS },
  );
}

/** under-pressure's names for the limits it checks, as a caller reads them. */
const PRESSURE_LIMITS: Readonly<Record<string, string>> = {
  eventLoopDelay: 'its event loop delay',
  eventLoopUtilization: 'its event loop utilisation',
  heapUsedBytes: 'its heap in use',
  rssBytes: 'its resident memory',
};
