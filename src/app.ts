import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import type { AppConfig } from './config.js';
import { listFromEnv } from './config/env-values.js';
import type { SearchService } from './engine/search-service.js';
import type { HostResolver } from './fetch/fetch-target.js';
import { callerLookups } from './fetch/lookup-slots.js';
import { createReadCache } from './fetch/read-cache.js';
import { createUpstreamAgent } from './transport/dispatchers.js';
import { closeStalledResponses } from './transport/stalled-responses.js';
import { endUnusedConnectionsOnShutdown } from './transport/unused-connections.js';
import { registerAccessControl } from './http/access-control.js';
import { registerCompression } from './http/compression.js';
import { registerCrossSiteCheck } from './http/cross-site.js';
import { answerClientErrors, answeredPastTheApp, endArrivingRequest, SHUTTING_DOWN_MESSAGE } from './http/client-error.js';
import { answerRequestsNodeRefuses } from './http/requests-node-answers.js';
import { routePatterns } from './http/route-patterns.js';
import { errorAnswer, registerErrorHandler } from './http/error-handler.js';
import { registerNotFoundHandler } from './http/not-found-handler.js';
import { answerRefusedBeforeRouting } from './http/framework-errors.js';
import { registerHealthRoutes, type Readiness } from './http/health-routes.js';
import { registerHostCheck } from './http/host-check.js';
import { registerOpenApi } from './http/openapi-document.js';
import { registerOperationRoutes } from './http/operation-routes.js';
import { registerPaperRoutes } from './http/paper-routes.js';
import { registerProtection } from './http/protection.js';
import { registerProviderRoutes } from './http/provider-routes.js';
import { registerRequestParsing } from './http/request-parsing.js';
import { registerSearchRoutes } from './http/search-routes.js';
import { registerStreamRoutes } from './http/stream-routes.js';
import { registerWebPage } from './http/web-routes.js';
import { pathOf } from './http/url-path.js';
import { useZodValidation } from './http/zod-schemas.js';
import { secretValues } from './engine/redact.js';
import { logAbortedRequests, loggerOptions, writeRequestLine } from './logger.js';
import { mcpSessionCounts, registerMcp } from './mcp/register.js';
import { mcpErrorHandler, mcpRawRefusalBody, sendMcpRefusal } from './mcp/replies.js';
import { MESSAGES_PATH, SSE_PATH } from './mcp/sse-transport-routes.js';
import { MCP_PATH } from './mcp/streamable-routes.js';
import { createMetrics, registerMetricsRoute } from './observability/metrics.js';
import { observeRequests, recordAnswer } from './observability/request-observation.js';
import { createProviders } from './providers/registry.js';
import { createSearchService } from './search-setup.js';
import { OPERATIONS } from './operations/registry.js';
import { cutCallsBeforeGraceEnds } from './shutdown-cut.js';
import { FedsearchError } from './domain/errors.js';
import { createRedisClient } from './transport/redis-connection.js';

declare module 'fastify' {
  interface FastifyInstance {
    searchService: SearchService;
    readiness: Readiness;
  }
}

export interface BuildOptions {
  /** Share one upstream connection pool across app instances (tests, benchmarks). */
  dispatcher?: Dispatcher;
  /** Where log lines go instead of stdout (tests read them to prove secrets never appear). */
  logStream?: { write(line: string): void };
  /** Replaces the system resolver of the address checks of fetch_url and paper_read (tests); see OperationContext. */
  resolveHost?: HostResolver;
  /**
   * Longest waits for one Redis command, in place of the defaults (tests): a stall then costs a wait long enough to
   * tell from the noise of a busy machine, so a test can prove a request pays it once at most, within its deadline.
   */
  redisCommandTimeoutMs?: { answerCache?: number; rateLimits?: number };
}

/** The service's own secrets, which callers send to it: the API keys and the metrics token. */
function serviceSecrets(config: AppConfig): string[] {
  return config.METRICS_TOKEN === undefined ? [...config.apiKeys] : [...config.apiKeys, config.METRICS_TOKEN];
}

/** Builds the whole service: plugins, then routes, then MCP. Listening is server.ts's job. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const providers = createProviders(config.providers);
  const metrics = createMetrics();
  // The per-client count of what the limiter's own hook never sees (registered with it, in registerProtection below):
  // a request refused for its key or token, one no route serves, one refused before routing.
  let countRefusal: ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined;
  const countRefused = (request: FastifyRequest, reply: FastifyReply): Promise<void> => countRefusal?.(request, reply) ?? Promise.resolve();
  const app = Fastify({
    // The keys' values too: an error's text may quote one an upstream echoed, where no field path can find it,
    // and a client may send its own key to us in a URL. A scraper may put METRICS_TOKEN there as well (a
    // Prometheus job's `params`), under a name no parameter list knows: it is redacted by value like the keys.
    ...loggerOptions(config.LOG_LEVEL, options.logStream, secretValues(providers, serviceSecrets(config))),
    // As many hops as there are proxies, not every hop: each proxy appends the address it saw to whatever
    // X-Forwarded-For the caller sent, so trusting every hop took the caller's own first entry as its address,
    // and a new one per request escaped the per-address rate limit and MCP session cap. (Fastify's types
    // leave out the hop count it takes, so this is that count's test: hop 0 is the socket's peer, the proxy.)
    trustProxy: config.TRUST_PROXY > 0 ? (_address: string, hop: number) => hop < config.TRUST_PROXY : false,
    bodyLimit: config.BODY_LIMIT_BYTES,
    // Fastify's default is no limit at all: a client that sends headers and then trickles (or withholds) its body
    // held its connection open for ever, and a few thousand such held the server's sockets and its shutdown.
    // Node checks for late requests every connectionsCheckingInterval (30 s by default), so a short timeout is
    // checked as often as it is long; headers must arrive within it too.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    http: {
      headersTimeout: Math.min(60_000, config.REQUEST_TIMEOUT_MS),
      connectionsCheckingInterval: Math.min(30_000, config.REQUEST_TIMEOUT_MS),
    },
    // Fastify's own 503 for a request that arrives while closing was a bare body past every hook: no code, no request
    // id, no count. The hook below answers it instead, as every other refusal is answered.
    return503OnClosing: false,
    // Counted under the labels client-error.ts finds: a request's own, or fixed ones for bytes that made no request.
    clientErrorHandler: answerClientErrors((labels, statusCode) => metrics.recordHttpRequest({ ...labels, statusCode, seconds: 0 }), rawBodyShapes),
    frameworkErrors: answerRefusedBeforeRouting((request, reply) => {
      recordAnswer(metrics, request, reply);
      writeRequestLine(null, request, reply);
    }, countRefused),
    // Fastify's own Ajv never sees our schemas: validation is zod (http/zod-schemas.ts).
    ajv: { customOptions: { strict: false } },
  });
  closeStalledResponses(app.server, config.RESPONSE_STALL_TIMEOUT_MS);
  // Made before any route is added: it gathers their patterns as they are.
  const routeOf = routePatterns(app);
  answerRequestsNodeRefuses(app.server, app.log, (labels, statusCode) => metrics.recordHttpRequest({ ...labels, statusCode, seconds: 0 }), routeOf);
  const dispatcher = options.dispatcher ?? createUpstreamAgent();
  const { search, close: closeSearch } = await createSearchService(config, {
    providers,
    logger: app.log,
    dispatcher,
    metrics,
    answerCacheCommandTimeoutMs: options.redisCommandTimeoutMs?.answerCache,
  });
  // One process's lookups of fetched hosts share libuv's threads, as many as its UV_THREADPOOL_SIZE lets them.
  callerLookups.resize(config.fetch.callerLookupSlots);
  metrics.watch({
    circuitStates: () => search.circuitStates(),
    mcpSessions: () => mcpSessionCounts(app),
    fetchLookups: () => callerLookups.counts(),
  });
  const readiness: Readiness = { ready: false };
  app.decorate('searchService', search);
  app.decorate('readiness', readiness);

  // Remembered query validation pays off for searches the answer cache serves; with no cache there are none.
  useZodValidation(app, { rememberQueries: config.CACHE_TTL_SECONDS > 0 });
  registerRequestParsing(app);
  // The MCP routes check Host and Origin by MCP's own rules (mcp/host-guard.ts), and answer in JSON-RPC.
  const mcpRoutes = MCP_ROUTES;
  // What the service-wide hooks refuse there (a Host, a missing key, a method) is answered in JSON-RPC too: MCP clients parse no other body.
  const refusalShapes = new Map(mcpRoutes.map((path) => [path, sendMcpRefusal]));
  // A request no route serves there whose body cannot be read is answered by the app's error handler: in JSON-RPC too.
  const answerInJsonRpc = mcpErrorHandler(errorAnswer);
  registerErrorHandler(app, countRefused, new Map(mcpRoutes.map((path) => [path, answerInJsonRpc])));
  registerNotFoundHandler(app, refusalShapes, countRefused);
  // A request whose body came too late (or malformed) is answered, logged and counted by answerClientErrors, which
  // closes its connection: not a client that left.
  const answeredElsewhere = (request: FastifyRequest): boolean => answeredPastTheApp(request.raw);
  logAbortedRequests(app, answeredElsewhere);
  observeRequests(app, metrics, answeredElsewhere);
  // Set once close() begins (preClose below): a request on a connection still open is turned away, its connection closed.
  let closing = false;
  app.addHook('onRequest', (_request, _reply, done) => done(closing ? shuttingDown() : undefined));
  // Before anything else is done for a request: a page re-bound to this address gets nothing, not even a 401.
  registerHostCheck(app, { allowedHosts: config.ALLOWED_HOSTS, keysRequired: config.apiKeys.length > 0, refusalShapes });
  // A page on another site gets nothing either, unless CORS_ORIGINS lists it (see http/cross-site.ts).
  registerCrossSiteCheck(app, listFromEnv(config.CORS_ORIGINS), new Set(mcpRoutes));
  // Access first: the rate limiter counts per API key, which access control identifies; a refused key is
  // counted by address before its 401 (countRefusal), so keys cannot be guessed past RATE_LIMIT_MAX.
  // The count is the limiter's, registered after access control: it is looked up when a refusal comes.
  registerAccessControl(app, config.apiKeys, { metricsToken: config.METRICS_TOKEN !== undefined, countRefusal: countRefused, refusalShapes });
  const rateLimitRedis = config.REDIS_URL ? createRedisClient(config.REDIS_URL, app.log, 'rate limits', options.redisCommandTimeoutMs?.rateLimits) : undefined;
  countRefusal = await registerProtection(app, config, rateLimitRedis);
  // Before the first route: the plugin adds its hook to each route as it is made.
  if (config.COMPRESS_RESPONSES) await registerCompression(app);
  await registerOpenApi(app, config.apiKeys.length > 0);

  registerHealthRoutes(app, readiness);
  registerMetricsRoute(app, metrics, { token: config.METRICS_TOKEN, countRefusal: countRefused });
  registerProviderRoutes(app, search);
  registerSearchRoutes(app, search);
  registerStreamRoutes(app, search, config);
  await registerWebPage(app);
  const reads = createReadCache({ ttlMs: config.READ_CACHE_TTL_SECONDS * 1000, maxBytes: config.READ_CACHE_MAX_BYTES });
  const operationContext = { search, config, operations: () => OPERATIONS, reads, resolveHost: options.resolveHost };
  registerOperationRoutes(app, OPERATIONS, operationContext);
  registerPaperRoutes(app, operationContext);
  await registerMcp(app, {
    config,
    operations: OPERATIONS,
    context: operationContext,
    answerError: errorAnswer,
    onToolCall: (call) => metrics.recordMcpToolCall(call),
    onSessionEvicted: () => metrics.recordMcpSessionEvicted(),
  });

  app.addHook('onReady', async () => {
    readiness.ready = true;
  });
  const endUnusedConnections = endUnusedConnectionsOnShutdown(app.server, (socket) =>
    endArrivingRequest(socket, app.log, (labels, statusCode) => metrics.recordHttpRequest({ ...labels, statusCode, seconds: 0 }), rawBodyShapes),
  );
  app.addHook('preClose', async () => {
    readiness.ready = false;
    closing = true;
    endUnusedConnections();
  });
  cutCallsBeforeGraceEnds(app, search, config.SHUTDOWN_GRACE_MS);
  // While closing, answers still in flight end their keep-alive connection, so close() need not wait
  // for idle sockets to time out.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onClose', async () => {
    if (!options.dispatcher) await dispatcher.close();
    rateLimitRedis?.disconnect();
    await closeSearch();
  });
  return app;
}

const MCP_ROUTES = [MCP_PATH, SSE_PATH, MESSAGES_PATH];

/**
 * The body of a refusal written raw to a request the app holds (client-error.ts): JSON-RPC on the MCP routes, as the
 * app's own refusals there are, since MCP clients parse no other body. Matched by path, as Fastify routes them.
 */
function rawBodyShapes(target: string | undefined): typeof mcpRawRefusalBody | undefined {
  return MCP_ROUTES.includes(pathOf(target ?? '')) ? mcpRawRefusalBody : undefined;
}

function shuttingDown(): FedsearchError {
  return new FedsearchError('SHUTTING_DOWN', SHUTTING_DOWN_MESSAGE);
}
