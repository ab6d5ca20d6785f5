import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

/** The advice after a 5xx (engine/status-error.ts): the provider's own failure, to wait out. */
const RETRY_LATER = '; retry later';
const KEY_A = 'test-key-1-aaaaaaaaaaaa';
const KEY_B = 'test-key-2-bbbbbbbbbbbb';

interface Listed {
  name: string;
  health: { last_error?: { message: string } };
}

/**
 * Provider health (`/v1/providers`, `list_providers`) is read by every caller. An upstream's error text can quote
 * the request that failed: the caller who sent it reads it in its answer, the others only our own words.
 */
describe("an upstream's error text quoting a caller's query", () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const quoting = (status: number) => ({
      kind: 'handler' as const,
      handle: (req: RecordedRequest, res: ServerResponse) => {
        const { query } = JSON.parse(req.body) as { query: string };
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `cannot search for ${query}` }));
      },
    });
    upstream.on('/exa/search', quoting(500));
    upstream.on('/tavily/search', { kind: 'respond', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ detail: { error: 'no results' } }) });
    // Brave's ErrorResponse inside a 200, its detail quoting the query.
    upstream.on('/brave/res/v1/web/search', {
      kind: 'handler',
      handle: (req: RecordedRequest, res: ServerResponse) => {
        const query = new URL(req.url, 'http://upstream').searchParams.get('q');
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'ErrorResponse', error: { code: 'X', detail: `cannot search for ${query}` } }));
      },
    });
    service = await startService({
      ...providerEnv(upstream.origin),
      EXA_API_KEY: 'test-exa-key-1',
      TAVILY_API_KEY: 'test-tavily-key-1',
      BRAVE_API_KEY: 'test-brave-key-1',
      API_KEYS: `${KEY_A},${KEY_B}`,
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('is told to the caller who searched, and never shown to another in provider health', async () => {
    const answer = await (await request(service.origin, '/v1/search/web?q=caller+a+private+diagnosis&providers=exa', { headers: { 'x-api-key': KEY_A } })).json();
    const outcome = answer.providers.find((each: { provider: string }) => each.provider === 'exa');
    expect(outcome).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP', message: `HTTP 500: the provider is failing on its side: cannot search for caller a private diagnosis${RETRY_LATER}` });

    const listing = await request(service.origin, '/v1/providers', { headers: { 'x-api-key': KEY_B } });
    const text = await listing.text();
    expect(text).not.toContain('diagnosis');
    const exa = (JSON.parse(text) as { providers: Listed[] }).providers.find((each) => each.name === 'exa')!;
    expect(exa.health.last_error?.message).toBe(`HTTP 500: the provider is failing on its side${RETRY_LATER}`);
  });

  it.each(['tavily', 'brave'])('an error inside a normal answer of %s is shown to others as only that', async (provider) => {
    const answer = await (await request(service.origin, `/v1/search/web?q=another+private+question&providers=${provider}`, { headers: { 'x-api-key': KEY_A } })).json();
    expect(answer.providers[0]).toMatchObject({ status: 'error', code: 'PROVIDER_UPSTREAM' });
    const listing = await request(service.origin, '/v1/providers', { headers: { 'x-api-key': KEY_B } });
    const text = await listing.text();
    expect(text).not.toContain('private question');
    const listed = (JSON.parse(text) as { providers: Listed[] }).providers.find((each) => each.name === provider)!;
    expect(listed.health.last_error?.message).toBe('the upstream answered with an error');
  });
});
