import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatherResults } from '../../src/engine/gather.js';
import { ProviderCatalog } from '../../src/engine/provider-catalog.js';
import type { ProviderReport } from '../../src/engine/provider-pipeline.js';
import { ProviderRuntime } from '../../src/engine/provider-runtime.js';
import type { SearchQuery } from '../../src/domain/query.js';
import type { UpstreamRequest } from '../../src/providers/provider.js';
import { createOutboundRateLimiter } from '../../src/rate-limit/outbound-limiter.js';
import { parseRateLimit } from '../../src/rate-limit/rate-limit-setting.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { makeQuery } from '../support/run-provider.js';
import { TestProvider, resultsBody } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });
const quiet: FastifyBaseLogger = pino({ level: 'silent' });
const oncePerSecond = parseRateLimit('1/s', 'TEST_RATE_LIMIT')!;
const breaker = { failureThreshold: 5, cooldownMs: 1000, maxCooldownMs: 600_000 };

/** Reads a second page (<base>/page2) when the first holds fewer results than asked for. */
class PagedProvider extends TestProvider {
  override nextPageRequest(_query: SearchQuery): UpstreamRequest {
    return { url: this.endpoint('/page2').toString() };
  }
}

/**
 * The engine's real runtime (breakers, transports, concurrency limits) on a limiter whose waits end only when the
 * test opens the gate: a call that waits for its slot is held there, with no timing involved.
 */
function runtimeFor(providers: TestProvider[]) {
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const waits: number[] = [];
  const rateLimiter = createOutboundRateLimiter({
    logger: quiet,
    now: () => 0,
    sleep: (ms) => {
      waits.push(ms);
      return gate;
    },
  });
  const reports: ProviderReport[] = [];
  const runtime = new ProviderRuntime({
    catalog: new ProviderCatalog(providers, breaker),
    dispatcher: agent,
    maxUpstreamBytes: 64 * 1024,
    rateLimiter,
    logger: quiet,
    onProviderAnswer: (report) => void reports.push(report),
  });
  return { dependencies: runtime.dependencies(), openGate, waits, reports };
}

describe("an upstream's Retry-After holds every request to it", () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .json('/held/search', { error: 'slow down' }, 429, { 'retry-after': '60' })
      .json('/paged/search', JSON.parse(resultsBody('https://p.example/1')))
      .json('/paged/page2', { error: 'slow down' }, 429, { 'retry-after': '60' });
  });
  afterAll(() => upstream.stop());

  it('keeps a call that waited for its slot from being sent once another call heard 429 with Retry-After', async () => {
    const provider = new TestProvider('held', `${upstream.origin}/held`, { rateLimit: oncePerSecond });
    const { dependencies, openGate, waits } = runtimeFor([provider]);
    const first = gatherResults([provider], makeQuery('one'), {}, dependencies);
    const second = gatherResults([provider], makeQuery('two'), {}, dependencies);
    const [answer] = await first;
    expect(answer!.outcome).toMatchObject({ status: 'error', code: 'PROVIDER_RATE_LIMITED', retry_after_ms: 60_000 });
    // The second call was admitted before the 429 and has waited for its slot since.
    expect(waits).toEqual([1000]);
    openGate();
    const [held] = await second;
    expect(upstream.requestsTo('/held/search')).toHaveLength(1);
    expect(held!.outcome).toMatchObject({ status: 'suspended', code: 'PROVIDER_SUSPENDED' });
    expect(held!.outcome.retry_after_ms).toBeGreaterThan(50_000);
  });

  it("suspends a provider whose later page heard 429 with Retry-After, though the call answered from its first page", async () => {
    const provider = new PagedProvider('paged', `${upstream.origin}/paged`);
    const { dependencies } = runtimeFor([provider]);
    const [first] = await gatherResults([provider], makeQuery('one', 'web', 5), {}, dependencies);
    expect(first!.outcome).toMatchObject({ status: 'ok', count: 1 });
    expect(upstream.requestsTo('/paged/page2')).toHaveLength(1);
    const [second] = await gatherResults([provider], makeQuery('two', 'web', 5), {}, dependencies);
    expect(second!.outcome).toMatchObject({ status: 'suspended', code: 'PROVIDER_SUSPENDED' });
    expect(upstream.requestsTo('/paged/search')).toHaveLength(1);
  });
});
