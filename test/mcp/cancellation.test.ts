import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest, type ServerResponse } from 'node:http';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, connect, MCP_POST_HEADERS, type TransportKind } from './mcp-client.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

interface Mode {
  name: string;
  kind: TransportKind;
  env: Record<string, string>;
}

const MODES: Mode[] = [
  { name: 'legacy SSE', kind: 'sse', env: {} },
  { name: 'stateful Streamable HTTP', kind: 'streamable', env: {} },
  { name: 'stateless Streamable HTTP', kind: 'streamable', env: { MCP_STATELESS: 'true' } },
];

describe.each(MODES)('MCP cancellation over $name', ({ kind, env }) => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', LOG_LEVEL: 'info', ...env });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const braveRequestsFor = (query: string) => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query);
  const abortedBraveRequests = () => upstream.abortedPaths.filter((path) => path === BRAVE_PATH).length;
  /** The outcome line brave's call was logged with. */
  const braveOutcomes = () =>
    service.logs
      .map((line) => JSON.parse(line) as { provider?: { provider?: string; status?: string; code?: string } })
      .flatMap((entry) => (entry.provider?.provider === 'brave' ? [entry.provider] : []));

  it('stops the search behind a call the client cancels (notifications/cancelled), reported as cancelled', async () => {
    const connected = await connect(service.origin, kind);
    try {
      const query = `cancelled over ${kind} ${JSON.stringify(env)}`;
      const controller = new AbortController();
      const call = connected.client
        .callTool({ name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } }, undefined, {
          signal: controller.signal,
          timeout: 120_000,
        })
        .catch((error: unknown) => error);
      await expect.poll(() => braveRequestsFor(query).length).toBe(1);
      const abortedBefore = abortedBraveRequests();
      controller.abort('the user changed their mind');
      expect(await call).toBeDefined();
      await expect.poll(abortedBraveRequests).toBe(abortedBefore + 1);
      await expect.poll(braveOutcomes).toContainEqual(expect.objectContaining({ status: 'error', code: 'REQUEST_CANCELLED' }));
    } finally {
      await connected.close();
    }
  });
});

describe('MCP cancellation in stateless mode', () => {
  const KEY = 'cancel-key-aaaaaaaaaaaaaaaa';
  const OTHER_KEY = 'cancel-key-bbbbbbbbbbbbbbbb';
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test-key-0123456789',
      API_KEYS: `${KEY},${OTHER_KEY}`,
      LOG_LEVEL: 'warn',
      MCP_STATELESS: 'true',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const braveRequestsFor = (query: string) => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query);

  /** A tools/call POST whose search brave never answers, left running until `destroy()`. */
  async function startCall(query: string, key: string): Promise<{ destroy(): void }> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } },
    });
    const outgoing = httpRequest(new URL('/mcp', service.origin), { method: 'POST', headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${key}` } });
    outgoing.on('error', () => undefined);
    outgoing.end(body);
    await expect.poll(() => braveRequestsFor(query).length).toBe(1);
    return { destroy: () => outgoing.destroy() };
  }

  const cancel = (key: string) =>
    fetch(`${service.origin}/mcp`, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${key}` },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'test' } }),
    });

  it('stops the search of a request its client cancels in a POST of its own', async () => {
    const call = await startCall('stateless cancelled', KEY);
    const abortedBefore = upstream.abortedPaths.length;
    expect((await cancel(KEY)).status).toBe(202);
    await expect.poll(() => upstream.abortedPaths.length).toBe(abortedBefore + 1);
    call.destroy();
  });

  it('stops the search of a POST whose response the client closed', async () => {
    const call = await startCall('stateless response dropped', KEY);
    const abortedBefore = upstream.abortedPaths.length;
    call.destroy();
    await expect.poll(() => upstream.abortedPaths.length).toBe(abortedBefore + 1);
  });

  it("ignores another API key's cancellation of a request with the same id", async () => {
    const query = 'cancelled by another key';
    const held: ServerResponse[] = [];
    upstream.on(BRAVE_PATH, { kind: 'handler', handle: (_request, response) => void held.push(response) });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } },
    });
    const answer = fetch(`${service.origin}/mcp`, { method: 'POST', headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${KEY}` }, body }).then((response) =>
      response.text(),
    );
    await expect.poll(() => held.length).toBe(1);
    expect((await cancel(OTHER_KEY)).status).toBe(202);
    held[0]!.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://kept.example/'));
    // A cancelled request is never answered: the result arriving shows the call ran on.
    expect(await answer).toContain('https://kept.example/');
    upstream.on(BRAVE_PATH, { kind: 'hang' });
  });
});
