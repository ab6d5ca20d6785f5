import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { ErrorCode } from '../domain/errors.js';
import type { ProviderOutcome, ProviderStatus } from '../domain/outcome.js';
import type { CacheLookup } from '../engine/search-service.js';
import { BucketHistogram, type HistogramSeries } from './bucket-histogram.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

/** Gauge values for a breaker: the higher, the less the provider is being asked. */
const CIRCUIT_STATE_VALUES: Record<CircuitState, number> = { closed: 0, 'half-open': 1, open: 2 };

const NOT_ASKED = new Set<ProviderStatus>(['not_configured', 'skipped', 'suspended', 'rate_limited']);

/** Provider latencies run from tens of milliseconds to the 30 s deadline ceiling. */
const LATENCY_BUCKETS_SECONDS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];

/** Waits for an outbound request slot run from a few milliseconds to a deadline's worth. */
const RATE_LIMIT_WAIT_BUCKETS_SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];

/** Tool calls run from a cached answer's milliseconds to a deep read's READ_TIMEOUT_MS (45 s). */
const TOOL_CALL_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];

/** Whole requests add our own few milliseconds (probes, cache hits, rejections) below the provider range. */
const REQUEST_BUCKETS_SECONDS = [0.005, 0.01, ...LATENCY_BUCKETS_SECONDS];

/** State read at scrape time rather than pushed: it exists from the start and is never stale. */
export interface MetricSources {
  /**
   * Every provider's breaker, asked or not; with `host`, that of one host of its upstream with a breaker of its own
   * (a Wikipedia edition in another language that a search has asked).
   */
  circuitStates(): Array<{ provider: string; host?: string; state: CircuitState }>;
  /** Open MCP sessions per transport. */
  mcpSessions(): Record<string, number>;
  /**
   * The process-wide slots for lookups of hosts callers name (fetch_url, paper_read, downloads): callers queued for
   * one, lookups holding one, and fetches that ran out of time queued (a total since the process started).
   */
  fetchLookups?(): { waiting: number; running: number; timedOutWaiting: number };
}

/** One answered HTTP request: `route` is the route's pattern (`/v1/ops/web_search`, `/docs/*`), never the raw URL. */
export interface HttpRequestRecord {
  method: string;
  route: string;
  statusCode: number;
  seconds: number;
}

/**
 * How an MCP tool call ended: answered with a result (`ok`), answered with `isError` set (`error`), or `cancelled`:
 * its client cancelled it (notifications/cancelled), dropped the stream it would have come on, or its session closed
 * first, so no answer was sent at all. A cancelled call is not a failure of the tool, as a REST request whose client
 * left is not a 5xx: counted as `error`, every agent that gives up on a slow search would look like a broken tool.
 */
export type McpToolCallOutcome = 'ok' | 'error' | 'cancelled';

/**
 * One MCP tool call: `tool` is a registered tool's name (never what the caller sent), `operation` the registry's name
 * of the operation it ran (none when the call was refused before one ran: an unknown operation, stray fields), and
 * how it ended.
 */
export interface McpToolCallRecord {
  tool: string;
  operation: string | undefined;
  outcome: McpToolCallOutcome;
  seconds: number;
}

/**
 * The `operation` label of a tool call that ran none: what the caller named is left out, so a made-up operation name
 * makes no series of its own.
 */
export const NO_OPERATION_LABEL = 'none';

export interface Metrics {
  /** This app's own registry: several apps in one process (tests, benchmarks) never share series. */
  registry: Registry;
  /** One provider's outcome, whatever was asked of it (a search, a lookup, captions, …). */
  recordProviderAnswer(answer: { outcome: ProviderOutcome }): void;
  /** A search's answer cache lookup: a hit, a miss that asked the providers, or a miss that joined a search asking them. */
  recordCache(lookup: CacheLookup): void;
  /** One MCP tool call with how it ended and its duration; only for tools the server registered. */
  recordMcpToolCall(record: McpToolCallRecord): void;
  /** An idle MCP session was closed to make room for a new one (MCP_MAX_SESSIONS reached). */
  recordMcpSessionEvicted(): void;
  /** Counts a search as in flight; call the returned function once when it ends (a second call does nothing). */
  searchStarted(): () => void;
  recordHttpRequest(record: HttpRequestRecord): void;
  /** A request whose client went away before its answer: none was sent, so recordHttpRequest never hears of it. */
  recordAbortedRequest(request: { method: string; route: string }): void;
  /** Where the scrape-time gauges (circuit states, MCP sessions) read from. */
  watch(sources: MetricSources): void;
  /** An upstream request waited this long for its outbound rate-limit slot. */
  recordRateLimitWait(provider: string, waitMs: number): void;
  /** An upstream request was not made: its rate-limit slot lay past the deadline. */
  recordRateLimited(provider: string): void;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
}

/**
 * Prometheus metrics for one app instance: HTTP requests by route and status, provider latency and outcomes,
 * cache, in-flight searches, breakers, MCP sessions and tool calls.
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  let sources: MetricSources | undefined;

  // Every request is counted here, in a series found by three map lookups; the counter is brought up to date
  // when scraped. (prom-client builds and hashes a label object per inc(), the dearest part of a cached answer's metrics.)
  const httpSeries = new Map<string, Map<string, Map<number, HttpSeries>>>();
  const httpRequests: Counter<'method' | 'route' | 'status_code'> = new Counter({
    name: 'fedsearch_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code (alert on 5xx and 429 rates).',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
    collect() {
      for (const byMethod of httpSeries.values()) for (const byStatus of byMethod.values()) flushUnscraped(httpRequests, byStatus.values());
    },
  });
  // Histograms observed into series kept beside the counters' (bucket-histogram.ts says why).
  const httpDuration = new BucketHistogram(
    'fedsearch_http_request_duration_seconds',
    'Time from receiving an HTTP request to sending its answer, by method, route pattern and status code.',
    REQUEST_BUCKETS_SECONDS,
    registry,
  );

  const providerLatency = new BucketHistogram(
    'fedsearch_provider_latency_seconds',
    'Time from asking a provider to its answer, error or timeout.',
    LATENCY_BUCKETS_SECONDS,
    registry,
  );
  // Counted like HTTP requests: in a series found by two map lookups, brought into the counter when scraped.
  const outcomeSeries = new Map<string, Map<string, OutcomeSeries>>();
  const providerOutcomes: Counter<'provider' | 'status'> = new Counter({
    name: 'fedsearch_provider_outcomes_total',
    help: 'Provider answers by outcome (ok, error, timeout, not_configured, skipped, suspended, rate_limited).',
    labelNames: ['provider', 'status'] as const,
    registers: [registry],
    collect() {
      for (const byStatus of outcomeSeries.values()) flushUnscraped(providerOutcomes, byStatus.values());
    },
  });
  // `error` outcomes again, by code: an upstream's own 429 (its quota used up) is told from its 5xx. Not a label of
  // the outcomes counter, whose series dashboards already sum; counted under the provider's `error` series, so an
  // answer that succeeded pays nothing for it. A limit of our own is status rate_limited, not counted here.
  const providerErrors: Counter<'provider' | 'code'> = new Counter({
    name: 'fedsearch_provider_errors_total',
    help: 'Provider answers with status error, by error code (PROVIDER_RATE_LIMITED: the upstream\'s own 429 or quota, credits or plan refusal (402, GitHub\'s 403 with no requests remaining, YouTube\'s quotaExceeded, Tavily\'s 432 and 433); PROVIDER_AUTH: a refused key (401, 403, or the 400 or 422 some APIs answer one with); PROVIDER_HTTP: another HTTP status; PROVIDER_UPSTREAM: an error in the body; PROVIDER_NETWORK, PROVIDER_PARSE; QUERY_INVALID: a request the API cannot be asked, refused before sending; PROVIDER_NOT_CONFIGURED: a call that needs a setting the provider lacks; REQUEST_CANCELLED: its client went away; INTERNAL: cut short by its search failing on a fault of the service).',
    labelNames: ['provider', 'code'] as const,
    registers: [registry],
    collect() {
      for (const byStatus of outcomeSeries.values()) flushUnscraped(providerErrors, byStatus.get('error')?.byCode?.values() ?? []);
    },
  });
  // A miss and a shared search are told apart so that misses count fan-outs: an identical search already asking the
  // providers answers the ones that join it, which cost the upstreams nothing more.
  const cacheLookups: Record<CacheLookup, Counter> = {
    hit: new Counter({
      name: 'fedsearch_cache_hits_total',
      help: 'Searches answered from the answer cache.',
      registers: [registry],
    }),
    miss: new Counter({
      name: 'fedsearch_cache_misses_total',
      help: 'Searches not in the answer cache that asked the providers (one fan-out each).',
      registers: [registry],
    }),
    shared: new Counter({
      name: 'fedsearch_cache_shared_total',
      help: 'Searches not in the answer cache that joined an identical search already asking the providers (no fan-out of their own).',
      registers: [registry],
    }),
  };
  const toolCalls = new Map<string, Record<McpToolCallOutcome, ToolCallSeries>>();
  const mcpToolCalls: Counter<'tool' | 'operation' | 'outcome'> = new Counter({
    name: 'fedsearch_mcp_tool_calls_total',
    help: 'MCP tool calls by tool, operation run (none: refused before one ran) and outcome (error: the result the client got has isError set; cancelled: the client cancelled the call or went away, and no answer was sent).',
    labelNames: ['tool', 'operation', 'outcome'] as const,
    registers: [registry],
    collect() {
      for (const byOutcome of toolCalls.values()) flushUnscraped(mcpToolCalls, Object.values(byOutcome));
    },
  });
  const toolCallDuration = new BucketHistogram(
    'fedsearch_mcp_tool_call_duration_seconds',
    'Time from an MCP tool call reaching its tool to its result, by tool, operation and outcome.',
    TOOL_CALL_BUCKETS_SECONDS,
    registry,
  );
  // Read when scraped, like the circuit states: a search pays a number's increment, not a gauge update.
  let searchesInFlight = 0;
  const inFlight: Gauge = new Gauge({
    name: 'fedsearch_searches_in_flight',
    help: 'Searches being answered right now.',
    registers: [registry],
    collect() {
      inFlight.set(searchesInFlight);
    },
  });
  const circuitState: Gauge<'provider' | 'host'> = new Gauge({
    name: 'fedsearch_provider_circuit_state',
    help: 'Circuit breaker state per provider, and per host of one with a breaker for each (host): 0 closed, 1 half-open, 2 open.',
    labelNames: ['provider', 'host'] as const,
    registers: [registry],
    collect() {
      if (!sources) return;
      for (const { provider, host, state } of sources.circuitStates()) {
        circuitState.set(host === undefined ? { provider } : { provider, host }, CIRCUIT_STATE_VALUES[state]);
      }
    },
  });
  const mcpSessions: Gauge<'transport'> = new Gauge({
    name: 'fedsearch_mcp_sessions',
    help: 'Open MCP sessions per transport (sse, streamable; stateless Streamable HTTP: exchanges in flight).',
    labelNames: ['transport'] as const,
    registers: [registry],
    collect() {
      if (!sources) return;
      for (const [transport, count] of Object.entries(sources.mcpSessions())) mcpSessions.set({ transport }, count);
    },
  });
  const fetchLookups: Gauge<'state'> = new Gauge({
    name: 'fedsearch_fetch_dns_lookups',
    help: 'DNS lookups of hosts callers name (fetch_url, paper_read, downloads, their redirects) by state: waiting (for one of the few process-wide slots) or running (holding a slot and a thread of Node\'s pool until the resolver answers, even when its fetch gave up).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const counts = sources?.fetchLookups?.();
      if (!counts) return;
      fetchLookups.set({ state: 'waiting' }, counts.waiting);
      fetchLookups.set({ state: 'running' }, counts.running);
    },
  });
  // The slots, and so this total, are the process's: the counter catches up with it when scraped.
  let lookupTimeoutsCounted = 0;
  const fetchLookupTimeouts: Counter = new Counter({
    name: 'fedsearch_fetch_dns_slot_timeouts_total',
    help: 'Fetches that ran out of time (FETCH_TIMEOUT) while waiting for a DNS lookup slot: other fetches\' lookups held every slot.',
    registers: [registry],
    collect() {
      const total = sources?.fetchLookups?.().timedOutWaiting;
      if (total === undefined || total <= lookupTimeoutsCounted) return;
      fetchLookupTimeouts.inc(total - lookupTimeoutsCounted);
      lookupTimeoutsCounted = total;
    },
  });
  const mcpSessionsEvicted = new Counter({
    name: 'fedsearch_mcp_sessions_evicted_total',
    help: 'Idle MCP sessions closed to make room for a new one once MCP_MAX_SESSIONS were open (their clients get 404 and open a new session).',
    registers: [registry],
  });
  const rateLimitWaits = new BucketHistogram(
    'fedsearch_provider_rate_limit_wait_seconds',
    'Time upstream requests waited for their outbound rate-limit slot (count: requests that waited).',
    RATE_LIMIT_WAIT_BUCKETS_SECONDS,
    registry,
  );
  const waitSeries = new Map<string, HistogramSeries>();
  const abortedRequests = new Counter({
    name: 'fedsearch_http_requests_aborted_total',
    help: 'HTTP requests whose client went away before the answer, by method and route pattern (not in fedsearch_http_requests_total: nothing was answered).',
    labelNames: ['method', 'route'] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'fedsearch_provider_rate_limited_total',
    help: 'Upstream requests not made because their outbound rate-limit slot lay past the deadline.',
    labelNames: ['provider'] as const,
    registers: [registry],
  });

  return {
    registry,
    recordProviderAnswer({ outcome }) {
      const series = outcomeSeriesOf(outcomeSeries, outcome.provider, outcome.status);
      series.unscraped += 1;
      if (outcome.status === 'error') countError(series, outcome.provider, outcome.code);
      // A provider that was never asked (unconfigured, skipped, suspended by its breaker) has no latency worth a bucket.
      if (!NOT_ASKED.has(outcome.status)) {
        series.latency ??= providerLatency.series(series.labels);
        series.latency.observe(outcome.latency_ms / 1000);
      }
    },
    recordCache(lookup) {
      cacheLookups[lookup].inc();
    },
    recordMcpToolCall({ tool, operation = NO_OPERATION_LABEL, outcome, seconds }) {
      // With MCP_TOOLS=compact every call is tool "research": the operation tells a search from a read.
      const key = `${tool} ${operation}`;
      let byOutcome = toolCalls.get(key);
      if (!byOutcome) {
        const seriesOf = (ended: McpToolCallOutcome) => toolCallSeries(toolCallDuration, tool, operation, ended);
        toolCalls.set(key, (byOutcome = { ok: seriesOf('ok'), error: seriesOf('error'), cancelled: seriesOf('cancelled') }));
      }
      const series = byOutcome[outcome];
      series.unscraped += 1;
      series.duration.observe(seconds);
    },
    recordMcpSessionEvicted() {
      // Rare (only at the session cap): prom-client's own inc() is no cost here.
      mcpSessionsEvicted.inc();
    },
    searchStarted() {
      searchesInFlight += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        searchesInFlight -= 1;
      };
    },
    recordHttpRequest({ method, route, statusCode, seconds }) {
      const series = seriesOf(httpSeries, httpDuration, method, route, statusCode);
      series.unscraped += 1;
      series.duration.observe(seconds);
    },
    recordAbortedRequest({ method, route }) {
      // Rare (a client that gave up): a label object per count is no cost here.
      abortedRequests.inc({ method, route });
    },
    watch(watched) {
      sources = watched;
    },
    recordRateLimitWait(provider, waitMs) {
      let series = waitSeries.get(provider);
      if (!series) waitSeries.set(provider, (series = rateLimitWaits.series({ provider })));
      series.observe(waitMs / 1000);
    },
    recordRateLimited(provider) {
      rateLimited.inc({ provider });
    },
    render: () => registry.metrics(),
  };
}

/** One method, route and status: its labels, made once, and the requests answered since the last scrape. */
interface HttpSeries {
  readonly labels: Readonly<Record<'method' | 'route' | 'status_code', string>>;
  unscraped: number;
  /** Its answers' durations. */
  readonly duration: HistogramSeries;
}

function seriesOf(
  all: Map<string, Map<string, Map<number, HttpSeries>>>,
  durations: BucketHistogram,
  method: string,
  route: string,
  statusCode: number,
): HttpSeries {
  let byMethod = all.get(route);
  if (!byMethod) all.set(route, (byMethod = new Map()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map()));
  let series = byStatus.get(statusCode);
  if (!series) {
    const labels = { method, route, status_code: String(statusCode) };
    byStatus.set(statusCode, (series = { labels, unscraped: 0, duration: durations.series(labels) }));
  }
  return series;
}

/** One provider and outcome status: its labels, made once, and the outcomes since the last scrape. */
interface OutcomeSeries {
  readonly labels: Readonly<Record<'provider' | 'status', string>>;
  unscraped: number;
  /** Latencies of its answers; none for a provider that was not asked (made at the first latency). */
  latency?: HistogramSeries;
  /** Of an `error` series: its failures by error code (made at the first failure). */
  byCode?: Map<ErrorCode, CountSeries>;
}

/** A counter's label set, made once, and what it counted since the last scrape. */
interface CountSeries {
  readonly labels: Readonly<Record<string, string>>;
  unscraped: number;
}

/** Adds to `counter` what each series counted since the last scrape, and starts their counts again. */
function flushUnscraped<Label extends string>(counter: Counter<Label>, series: Iterable<{ readonly labels: Readonly<Record<Label, string>>; unscraped: number }>): void {
  for (const one of series) {
    if (one.unscraped === 0) continue;
    counter.inc(one.labels as Partial<Record<Label, string>>, one.unscraped);
    one.unscraped = 0;
  }
}

/** An outcome of status error counted by its code (ErrorCode, a fixed set; INTERNAL for an error without one). */
function countError(series: OutcomeSeries, provider: string, code: ErrorCode = 'INTERNAL'): void {
  series.byCode ??= new Map();
  let byCode = series.byCode.get(code);
  if (!byCode) series.byCode.set(code, (byCode = { labels: { provider, code }, unscraped: 0 }));
  byCode.unscraped += 1;
}

/** One tool, operation and outcome: its labels, made once, the calls since the last scrape and their durations. */
interface ToolCallSeries extends CountSeries {
  readonly duration: HistogramSeries;
}

function toolCallSeries(durations: BucketHistogram, tool: string, operation: string, outcome: McpToolCallOutcome): ToolCallSeries {
  const labels = { tool, operation, outcome };
  return { labels, unscraped: 0, duration: durations.series(labels) };
}

function outcomeSeriesOf(all: Map<string, Map<string, OutcomeSeries>>, provider: string, status: string): OutcomeSeries {
  let byStatus = all.get(provider);
  if (!byStatus) all.set(provider, (byStatus = new Map()));
  let series = byStatus.get(status);
  if (!series) byStatus.set(status, (series = { labels: { provider, status }, unscraped: 0 }));
  return series;
}

export interface MetricsRouteOptions {
  /** When set, scrapers must send `Authorization: Bearer <token>` (METRICS_TOKEN). */
  token?: string;
  /** Counts a wrong token against its address's rate limit (throws the 429 past it), so it cannot be guessed. */
  countRefusal?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

/** GET /metrics in Prometheus text format, kept out of the OpenAPI document. */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, options: MetricsRouteOptions = {}): void {
  const expected = options.token ? digest(options.token) : undefined;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (expected && !bearerMatches(request.headers.authorization, expected)) {
      await options.countRefusal?.(request, reply);
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        // The one error shape of every answer (http/error-handler.ts), request_id included, written out here
        // because this layer sits below http/.
        .send({ statusCode: 401, error: 'Unauthorized', code: 'UNAUTHORIZED', message: 'send Authorization: Bearer <METRICS_TOKEN>', request_id: request.id });
    }
    const body = await metrics.render();
    return reply.header('content-type', metrics.registry.contentType).send(body);
  });
}

/** Compares SHA-256 digests, so neither the token's content nor its length leaks through timing. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  const given = digest(match?.[1] ?? '');
  // Always compare, even without a token, so a missing header takes as long as a wrong one.
  return timingSafeEqual(given, expected) && match !== null;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
