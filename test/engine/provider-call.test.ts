import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { callCapability, ProviderCallFailed } from '../../src/engine/provider-call.js';
import { ProviderHealth } from '../../src/engine/provider-health.js';
import { createLimiters, type PipelineDependencies, type ProviderReport } from '../../src/engine/provider-pipeline.js';
import { createUpstreamTransport } from '../../src/engine/upstream-transport.js';
import type { ScrapedPage, ScrapeInput } from '../../src/providers/capabilities.js';
import type { Provider, ProviderConfig, UpstreamResponse, UpstreamTransport } from '../../src/providers/provider.js';
import { createOutboundRateLimiter } from '../../src/rate-limit/outbound-limiter.js';
import { parseRateLimit } from '../../src/rate-limit/rate-limit-setting.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { TestProvider } from '../support/test-provider.js';
import { asResponse } from '../support/upstream-read.js';

const agent = new Agent({ keepAliveTimeout: 500 });
const quiet: FastifyBaseLogger = pino({ level: 'silent' });
const SECRET = 'sk-scrape-secret-0123456789';
/** What the transport says of the `down` upstream's 500, whose body echoes the key. */
const FAILING_ON_ITS_SIDE = 'HTTP 500: the provider is failing on its side: rejected key [redacted]; retry later';

/** A provider serving `scrape`: GET <base>/page answers the page's Markdown; an error body says `{"error"}`. */
class ScrapingProvider extends TestProvider {
  override describeError(response: UpstreamResponse): string | undefined {
    return (JSON.parse(response.body) as { error?: string }).error;
  }

  override async scrape(input: ScrapeInput, transport: UpstreamTransport, signal: AbortSignal): Promise<ScrapedPage> {
    const url = this.endpoint('/page');
    url.searchParams.set('url', input.url);
    const response = await transport.send({ url: url.toString() }, signal, asResponse);
    return { markdown: response.body, url: input.url };
  }
}

/** The pipeline's real parts: transport, concurrency limits, a breaker per provider, the outbound rate limiter. */
function dependencies(reports: ProviderReport[] = [], failureThreshold = 5): PipelineDependencies {
  const health = new Map<string, ProviderHealth>();
  const healthOf = (provider: Provider) => {
    if (!health.has(provider.name)) health.set(provider.name, new ProviderHealth({ failureThreshold, cooldownMs: 60_000, maxCooldownMs: 60_000 }));
    return health.get(provider.name)!;
  };
  const limiter = createOutboundRateLimiter({ logger: quiet });
  return {
    transportFor: (provider) => createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 64 * 1024 }),
    limiterFor: createLimiters(),
    secrets: () => [SECRET],
    admit: (provider) => healthOf(provider).admit(),
    // One bucket per instance here: which instances share one is outbound-slots.ts's, tested on its own.
    rateLimitFor: (provider) => provider.config.rateLimit && ((deadline, signal) => limiter.acquire(provider.name, provider.config.rateLimit, deadline, signal)),
    onOutcome: (report) => {
      healthOf(report.provider).record(report.outcome);
      reports.push(report);
    },
  };
}

async function failure(promise: Promise<unknown>): Promise<ProviderCallFailed> {
  const error = await promise.then(() => undefined, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(ProviderCallFailed);
  return error as ProviderCallFailed;
}

describe('a single capability call through the provider pipeline', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .on('/ok/page', { kind: 'respond', headers: { 'content-type': 'text/markdown' }, body: '# A page' })
      .on('/limited/page', { kind: 'respond', body: '# Limited' })
      .on('/hang/page', { kind: 'hang' })
      .json('/down/page', { error: `rejected key ${SECRET}` }, 500);
  });
  afterAll(() => upstream.stop());

  const provider = (name: string, overrides: Partial<ProviderConfig> = {}) => new ScrapingProvider(name, `${upstream.origin}/${name}`, overrides);

  it("answers with the capability's value and reports one outcome for the task", async () => {
    const reports: ProviderReport[] = [];
    const page = await callCapability(provider('ok'), 'scrape', { url: 'https://example.org/' }, {}, dependencies(reports));
    expect(page).toEqual({ markdown: '# A page', url: 'https://example.org/' });
    expect(reports.map((report) => [report.task, report.outcome.status, report.outcome.count])).toEqual([['scrape', 'ok', 1]]);
  });

  it("is held to the smaller of the caller's deadline and the provider's timeout", async () => {
    const error = await failure(callCapability(provider('hang'), 'scrape', { url: 'https://example.org/' }, { timeoutMs: 150 }, dependencies()));
    expect(error).toMatchObject({ code: 'PROVIDER_TIMEOUT', message: 'hang: no answer within 150 ms', outcome: { status: 'timeout' } });
  });

  it('takes an outbound rate-limit slot: a call without one before the deadline is not sent', async () => {
    const limited = provider('limited', { rateLimit: parseRateLimit('1/min', 'LIMITED_RATE_LIMIT')! });
    const shared = dependencies();
    await callCapability(limited, 'scrape', { url: 'https://example.org/1' }, {}, shared);
    const error = await failure(callCapability(limited, 'scrape', { url: 'https://example.org/2' }, {}, shared));
    // Nothing was sent: ours to wait out (503), not the upstream's failure (a provider's own 429 is PROVIDER_RATE_LIMITED).
    expect(error.code).toBe('OUTBOUND_RATE_LIMITED');
    expect(error.httpStatus).toBe(503);
    expect(error.retryAfterMs).toBeGreaterThan(55_000);
    expect(error.outcome.status).toBe('rate_limited');
    expect(upstream.requestsTo('/limited/page')).toHaveLength(1);
  });

  it('passes the breaker: once suspended, the call fails at once with PROVIDER_SUSPENDED and retry_after_ms', async () => {
    const down = provider('down');
    const shared = dependencies([], 1);
    const first = await failure(callCapability(down, 'scrape', { url: 'https://example.org/' }, {}, shared));
    expect(first).toMatchObject({ code: 'PROVIDER_HTTP', upstreamStatus: 500, message: `down: ${FAILING_ON_ITS_SIDE}` });
    const second = await failure(callCapability(down, 'scrape', { url: 'https://example.org/' }, {}, shared));
    expect(second).toMatchObject({ code: 'PROVIDER_SUSPENDED', outcome: { status: 'suspended' } });
    expect(second.message).toMatch(/^down is suspended after 1 consecutive failures; retry after 60 s$/);
    expect(second.retryAfterMs).toBeGreaterThan(55_000);
    expect(upstream.requestsTo('/down/page')).toHaveLength(1);
  });

  it("carries only a redacted copy of the upstream's error as its cause, which is what a log line writes", async () => {
    // The adapter declares no credential, so only the engine's secrets can hide the key the body echoes.
    const error = await failure(callCapability(provider('down'), 'scrape', { url: 'https://example.org/' }, {}, dependencies()));
    expect(error.cause).toBeInstanceOf(FedsearchError);
    expect(error.cause).toMatchObject({ code: 'PROVIDER_HTTP', upstreamStatus: 500, message: FAILING_ON_ITS_SIDE });
    const logged = pino.stdSerializers.err(error);
    expect(logged.message).toBe(`down: ${FAILING_ON_ITS_SIDE}: ${FAILING_ON_ITS_SIDE}`);
    expect(JSON.stringify(logged)).not.toContain(SECRET);
  });

  it('does not ask a provider that is turned off (weight 0)', async () => {
    const before = upstream.requestsTo('/ok/page').length;
    const error = await failure(callCapability(provider('ok', { weight: 0 }), 'scrape', { url: 'https://example.org/' }, {}, dependencies()));
    expect(error).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED', message: 'ok is turned off: OK_WEIGHT=0', outcome: { status: 'skipped' } });
    expect(upstream.requestsTo('/ok/page')).toHaveLength(before);
  });

  it('refuses a capability the provider does not serve, before any request', async () => {
    const plain = new TestProvider('plain', `${upstream.origin}/plain`);
    const error = await callCapability(plain, 'captions', { videoId: 'abcDEF12345', language: 'en' }, {}, dependencies()).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(FedsearchError);
    expect(error).toMatchObject({ code: 'INTERNAL', message: 'plain does not serve captions' });
    expect(upstream.requests.filter((recorded) => recorded.path.startsWith('/plain'))).toEqual([]);
  });
});
