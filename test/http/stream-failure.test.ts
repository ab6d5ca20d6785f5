import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';

/**
 * A failure after the stream opened is its last event, documented as "the usual error JSON". It lacked the envelope's
 * `error` and `request_id`, and its message pointed at "this request id" without giving it: a page reading the stream
 * with EventSource cannot see the x-request-id header, so it had nothing to quote.
 */
describe('GET /v1/search/{kind}/stream when the search fails after the stream opened', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', LOG_LEVEL: 'warn' });
    // No real input makes fusing fail: the fault is put in, as the one way to reach the stream's own failure path.
    service.app.searchService.fuseAnswers = () => {
      throw new Error('fusion broke on an internal detail');
    };
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('ends with `event: error` holding the error envelope and the request id, its message hidden', async () => {
    upstream.json('/brave/res/v1/web/search', { web: { results: [{ title: 'A', url: 'https://a.example/', description: 'x' }] } });
    const response = await fetch(`${service.origin}/v1/search/web/stream?q=broken+fusion&providers=brave`);
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id')!;
    const body = await response.text();
    const last = body.trimEnd().split('\n\n').at(-1)!;
    expect(last.split('\n').slice(0, 2)).toEqual(['id: end', 'event: error']);
    const envelope = JSON.parse(last.split('\n')[2]!.slice('data: '.length));
    expect(envelope).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      code: 'INTERNAL',
      message: `internal error; quote request id ${requestId} when reporting it`,
      request_id: requestId,
    });
    expect(body).not.toContain('internal detail');
    expect(service.logs.some((line) => line.includes('search stream failed') && line.includes(requestId))).toBe(true);
  });
});

describe('GET /v1/search/{kind}/stream when it fails with a provider still running', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', { web: { results: [{ title: 'A', url: 'https://a.example/', description: 'x' }] } });
    upstream.on('/searxng/search', { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', SEARXNG_TIMEOUT_MS: '30000', LOG_LEVEL: 'info' });
    service.app.searchService.fuseAnswers = () => {
      throw new Error('fusion broke on an internal detail');
    };
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it("reports the provider it cut short as cut short by the service's failure, not as cancelled by a client that left", async () => {
    const response = await fetch(`${service.origin}/v1/search/web/stream?q=still+running&providers=brave,searxng`);
    const requestId = response.headers.get('x-request-id')!;
    // The client reads the stream to its end (`event: error`) and leaves nothing behind: it never went away first.
    expect(await response.text()).toContain('event: error');
    const providerLine = (): { provider: { code: string; message: string; status: string } } | undefined =>
      service.logs.map((line) => JSON.parse(line)).find((line) => line.reqId === requestId && line.provider?.provider === 'searxng');
    await expect.poll(providerLine).toBeDefined();
    expect(providerLine()!.provider).toMatchObject({ status: 'error', code: 'INTERNAL', message: expect.stringContaining('the search failed on an internal error') });
    const metrics = await (await fetch(`${service.origin}/metrics`)).text();
    expect(metrics).toContain('fedsearch_provider_errors_total{provider="searxng",code="INTERNAL"} 1');
    expect(metrics).not.toContain('code="REQUEST_CANCELLED"');
    // Nothing the upstream did: its breaker counts no failure.
    const { providers } = (await (await fetch(`${service.origin}/v1/providers`)).json()) as { providers: Array<{ name: string; health: unknown }> };
    const searxng = providers.find((provider) => provider.name === 'searxng');
    expect(searxng?.health).toMatchObject({ consecutive_failures: 0 });
    expect(searxng?.health).not.toHaveProperty('last_error');
  });
});
