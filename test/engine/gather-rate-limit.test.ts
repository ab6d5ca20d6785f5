import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiters, gatherResults, type GatherDependencies } from '../../src/engine/gather.js';
import type { ProviderReport } from '../../src/engine/provider-pipeline.js';
import { ProviderHealth } from '../../src/engine/provider-health.js';
import { createUpstreamTransport } from '../../src/engine/upstream-transport.js';
import type { ParseOutcome, Provider, UpstreamResponse } from '../../src/providers/provider.js';
import { createOutboundRateLimiter, type OutboundLimiterOptions } from '../../src/rate-limit/outbound-limiter.js';
import { parseRateLimit, type RateLimit } from '../../src/rate-limit/rate-limit-setting.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { makeQuery } from '../support/run-provider.js';
import { TestProvider, resultsBody } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });
const quiet: FastifyBaseLogger = pino({ level: 'silent' });
const oncePerMinute = parseRateLimit('1/min', 'TEST_RATE_LIMIT')!;

/** Asks once for `<base>/search`, then follows up with `<base>/more` (as PubMed's esearch → efetch does). */
class TwoStepProvider extends TestProvider {
  override parseResponse(response: UpstreamResponse): ParseOutcome {
    if (response.url?.includes('/search')) return { followUp: { url: this.endpoint('/more').toString() } };
    return super.parseResponse(response);
  }
}

function dependencies(overrides: Partial<OutboundLimiterOptions> = {}): GatherDependencies {
  const limiter = createOutboundRateLimiter({ logger: quiet, ...overrides });
  return {
    transportFor: (provider: Provider) => createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 64 * 1024 }),
    limiterFor: createLimiters(),
    secrets: () => [],
    // One bucket per instance here: which instances share one is outbound-slots.ts's, tested on its own.
    rateLimitFor: (provider) => provider.config.rateLimit && ((deadline, signal) => limiter.acquire(provider.name, provider.config.rateLimit, deadline, signal)),
  };
}

describe('gather under an outbound rate limit', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/limited/search', resultsBody('https://l.example/1')).json('/steps/search', {}).json('/steps/more', JSON.parse(resultsBody('https://s.example/1')));
  });
  afterAll(() => upstream.stop());

  const provider = (name: string, rateLimit: RateLimit, Type = TestProvider) => new Type(name, `${upstream.origin}/${name}`, { rateLimit, timeoutMs: 5000 });

  it('reports rate_limited without calling the upstream when the next slot lies past the deadline', async () => {
    const limited = provider('limited', oncePerMinute);
    const shared = dependencies();
    const [first] = await gatherResults([limited], makeQuery('one'), {}, shared);
    const [second] = await gatherResults([limited], makeQuery('two'), {}, shared);
    expect(first!.outcome.status).toBe('ok');
    expect(second!.outcome).toMatchObject({ status: 'rate_limited', code: 'PROVIDER_RATE_LIMITED', count: 0 });
    expect(second!.outcome.retry_after_ms).toBeGreaterThan(55_000);
    expect(upstream.requestsTo('/limited/search')).toHaveLength(1);
  });

  it('takes a slot for every request: a follow-up that cannot get one is not sent', async () => {
    const [answer] = await gatherResults([provider('steps', oncePerMinute, TwoStepProvider)], makeQuery('q'), {}, dependencies());
    expect(answer!.outcome).toMatchObject({ status: 'rate_limited' });
    expect(upstream.requestsTo('/steps/search')).toHaveLength(1);
    expect(upstream.requestsTo('/steps/more')).toHaveLength(0);
  });

  it('stops waiting for a slot when the caller goes away, and never calls the upstream', async () => {
    const before = upstream.requestsTo('/limited/search').length;
    const everyTwoSeconds = parseRateLimit('1/2s', 'TEST_RATE_LIMIT')!;
    const controller = new AbortController();
    // The abort comes as the wait begins: no timing involved.
    const shared = dependencies({ onWait: () => controller.abort(new Error('client gone')) });
    const limited = provider('limited', everyTwoSeconds);
    const [first] = await gatherResults([limited], makeQuery('a'), {}, shared);
    const [second] = await gatherResults([limited], makeQuery('b'), { signal: controller.signal }, shared);
    expect(first!.outcome.status).toBe('ok');
    expect(second!.outcome).toMatchObject({ status: 'error', code: 'REQUEST_CANCELLED' });
    expect(upstream.requestsTo('/limited/search')).toHaveLength(before + 1);
  });
});

describe('the breaker and rate_limited', () => {
  it('frees a half-open probe that our own limit held back, so the next call may probe', () => {
    let now = 0;
    const health = new ProviderHealth({ failureThreshold: 1, cooldownMs: 1000, maxCooldownMs: 1000, now: () => now });
    health.record({ provider: 'p', status: 'error', count: 0, latency_ms: 5, code: 'PROVIDER_HTTP' });
    now = 2000;
    expect(health.admit()).toEqual({ allowed: true, probe: true });
    health.record({ provider: 'p', status: 'rate_limited', count: 0, latency_ms: 0, retry_after_ms: 500 }, false, true);
    expect(health.admit()).toEqual({ allowed: true, probe: true });
    expect(health.snapshot().consecutive_failures).toBe(1);
  });
});

describe('a timeout spent waiting here for a later request\'s slot', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/waits/search', {}).json('/waits/more', JSON.parse(resultsBody('https://w.example/1')));
  });
  afterAll(() => upstream.stop());

  it('does not count against the upstream, whose answers came at once', async () => {
    // The follow-up's slot comes a second after the first, before the deadline, and its wait ends only when the call
    // is aborted: the call times out waiting here, with the upstream asked once and answering at once.
    const limiter = createOutboundRateLimiter({
      logger: quiet,
      sleep: (_ms, signal) => new Promise<void>((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true })),
    });
    const reports: ProviderReport[] = [];
    const waits = new TwoStepProvider('waits', `${upstream.origin}/waits`, { rateLimit: parseRateLimit('1/s', 'TEST_RATE_LIMIT')!, timeoutMs: 2000 });
    const [answer] = await gatherResults([waits], makeQuery('q'), {}, {
      transportFor: (provider: Provider) => createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 64 * 1024 }),
      limiterFor: createLimiters(),
      secrets: () => [],
      // One bucket per instance here: which instances share one is outbound-slots.ts's, tested on its own.
      rateLimitFor: (provider) => provider.config.rateLimit && ((deadline, signal) => limiter.acquire(provider.name, provider.config.rateLimit, deadline, signal)),
      onOutcome: (report) => void reports.push(report),
    });
    expect(answer!.outcome).toMatchObject({ status: 'timeout' });
    expect(upstream.requestsTo('/waits/search')).toHaveLength(1);
    expect(upstream.requestsTo('/waits/more')).toHaveLength(0);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.saysNothingOfUpstream).toBe(true);
  });
});
