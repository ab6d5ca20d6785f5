import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpSessionCounts } from '../../src/mcp/register.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import {
  braveBody,
  callTool,
  connect,
  type Connected,
  LIST_TOOLS_MESSAGE,
  MCP_POST_HEADERS,
  rawRequest,
  streamableSessionId,
  textOf,
  TRANSPORT_KINDS,
} from './mcp-client.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

describe('MCP sessions', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test-key-0123456789',
      MCP_HEARTBEAT_MS: '50',
      LOG_LEVEL: 'warn',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const braveRequestsFor = (query: string) => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query);
  const abortedBraveRequests = () => upstream.abortedPaths.filter((path) => path === BRAVE_PATH).length;

  /** Starts a web search that brave never answers and waits until it reached brave (wrapped: an async function would wait for it). */
  async function startHangingCall(client: Connected['client'], query: string): Promise<{ call: Promise<unknown> }> {
    const call = callTool(client, 'research', {
      operation: 'web_search',
      params: { query, providers: ['brave'], timeout_ms: 30_000 },
    }).catch((error: unknown) => error);
    await expect.poll(() => braveRequestsFor(query).length).toBe(1);
    return { call };
  }

  it('over SSE, a client that disconnects mid-call has its search aborted and its session removed', async () => {
    const connected = await connect(service.origin, 'sse');
    expect(mcpSessionCounts(service.app).sse).toBe(1);
    const abortedBefore = abortedBraveRequests();
    const { call } = await startHangingCall(connected.client, 'sse goes away');
    await connected.close();
    expect(await call).toBeInstanceOf(Error);
    await expect.poll(abortedBraveRequests).toBe(abortedBefore + 1);
    await expect.poll(() => mcpSessionCounts(service.app).sse).toBe(0);
  });

  it('over Streamable HTTP, a dropped request stream aborts its search; DELETE ends the session', async () => {
    const connected = await connect(service.origin, 'streamable');
    const sessionId = streamableSessionId(connected)!;
    expect(mcpSessionCounts(service.app).streamable).toBe(1);
    const abortedBefore = abortedBraveRequests();
    const { call } = await startHangingCall(connected.client, 'streamable goes away');
    await connected.close();
    expect(await call).toBeInstanceOf(Error);
    await expect.poll(abortedBraveRequests).toBe(abortedBefore + 1);
    // The session outlives a dropped stream (the client may come back) until DELETE or the idle timeout.
    expect(mcpSessionCounts(service.app).streamable).toBe(1);
    const deleted = await rawRequest(service.origin, '/mcp', { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    expect(deleted.status).toBe(200);
    expect(mcpSessionCounts(service.app).streamable).toBe(0);
  });

  it('answers a stale or unknown Mcp-Session-Id with 404 so the client initialises again', async () => {
    const connected = await connect(service.origin, 'streamable');
    const sessionId = streamableSessionId(connected)!;
    await connected.leave();
    for (const staleId of [sessionId, '00000000-0000-4000-8000-000000000000']) {
      const response = await rawRequest(service.origin, '/mcp', {
        method: 'POST',
        headers: { ...MCP_POST_HEADERS, 'mcp-session-id': staleId },
        body: LIST_TOOLS_MESSAGE,
      });
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001, message: expect.stringContaining('Session not found') } });
    }
    const stream = await rawRequest(service.origin, '/mcp', { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } });
    expect(stream.status).toBe(404);
    const again = await connect(service.origin, 'streamable');
    expect(streamableSessionId(again)).not.toBe(sessionId);
    expect((await again.client.listTools()).tools.map((tool) => tool.name)).toEqual(['research']);
    await again.leave();
  });

  it('answers a POST without session that is not an initialize with 400', async () => {
    const response = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: LIST_TOOLS_MESSAGE });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).error.message).toContain('Mcp-Session-Id header is required');
    expect(mcpSessionCounts(service.app).streamable).toBe(0);
  });

  it('answers POST /messages for an unknown or missing SSE session with JSON', async () => {
    const unknown = await rawRequest(service.origin, '/messages?sessionId=no-such-session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: LIST_TOOLS_MESSAGE,
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.message).toBe('Session not found: no open SSE session "no-such-session"; open a new one with GET /sse');
    const missing = await rawRequest(service.origin, '/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: LIST_TOOLS_MESSAGE });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body).error.message).toContain('sessionId query parameter is required');
  });

  it('keeps an SSE stream alive with comment heartbeats, unbuffered by proxies', async () => {
    const controller = new AbortController();
    const response = await fetch(`${service.origin}/sse`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    while (!received.includes(': ping\n\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value;
    }
    expect(received).toMatch(/^event: endpoint\ndata: \/messages\?sessionId=[0-9a-f-]{36}\n\n/);
    expect(received).toContain(': ping\n\n');
    expect(mcpSessionCounts(service.app).sse).toBe(1);
    controller.abort();
    await expect.poll(() => mcpSessionCounts(service.app).sse).toBe(0);
  });
});

describe('MCP session lifetime', () => {
  it('closes a Streamable HTTP session whose client vanished without DELETE after MCP_SESSION_IDLE_MS', async () => {
    const service = await startService({ MCP_SESSION_IDLE_MS: '300', LOG_LEVEL: 'warn' });
    try {
      const connected = await connect(service.origin, 'streamable');
      // An open GET stream is activity: the session stays while the client is there.
      expect((await connected.client.listTools()).tools).toHaveLength(1);
      expect(mcpSessionCounts(service.app).streamable).toBe(1);
      await connected.close();
      await expect.poll(() => mcpSessionCounts(service.app).streamable, { timeout: 5000 }).toBe(0);
    } finally {
      await service.stop();
    }
  });

  it('closes a legacy SSE session whose client posts nothing for MCP_SESSION_IDLE_MS, ending its stream; one that keeps posting stays', async () => {
    const service = await startService({ MCP_SESSION_IDLE_MS: '1000', LOG_LEVEL: 'warn' });
    // Opened first and posting all along, so it has lived longer than the silent one by the time that one idles out.
    const talking = await connect(service.origin, 'sse');
    let silentEnded = false;
    let pings = 0;
    const pinging = (async () => {
      while (!silentEnded) {
        await talking.client.ping();
        pings += 1;
      }
    })();
    try {
      const silent = await fetch(`${service.origin}/sse`, { headers: { accept: 'text/event-stream' } });
      expect(silent.status).toBe(200);
      expect(mcpSessionCounts(service.app).sse).toBe(2);
      // text() settles when the stream ends: resolved for an end the server wrote, rejected for a cut connection.
      expect(await silent.text()).toMatch(/^event: endpoint\ndata: \/messages\?sessionId=[0-9a-f-]{36}\n\n$/);
      silentEnded = true;
      await pinging;
      expect(pings).toBeGreaterThan(0);
      expect(mcpSessionCounts(service.app).sse).toBe(1);
      expect(await talking.client.ping()).toEqual({});
    } finally {
      silentEnded = true;
      await pinging.catch(() => undefined);
      await talking.close();
      await service.stop();
    }
  });

  it('keeps a legacy SSE session whose call runs past MCP_SESSION_IDLE_MS until it is answered, then lets it idle out', async () => {
    const upstream = await startFakeUpstream();
    let answerBrave: (() => void) | undefined;
    upstream.on(BRAVE_PATH, {
      kind: 'handler',
      handle: (_request, response) => {
        answerBrave = () => response.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://example.org/late'));
      },
    });
    const service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test-key-0123456789',
      MCP_SESSION_IDLE_MS: '1000',
      LOG_LEVEL: 'warn',
    });
    const calling = await connect(service.origin, 'sse');
    try {
      const call = callTool(calling.client, 'research', {
        operation: 'web_search',
        params: { query: 'a long call', providers: ['brave'], timeout_ms: 30_000 },
      });
      await expect.poll(() => answerBrave).toBeDefined();
      // A session opened after the call began that posts nothing: once its stream ends, MCP_SESSION_IDLE_MS has
      // passed for the calling session too, which has posted nothing since its call.
      const silent = await fetch(`${service.origin}/sse`, { headers: { accept: 'text/event-stream' } });
      await silent.text();
      expect(mcpSessionCounts(service.app).sse).toBe(1);
      answerBrave!();
      expect(textOf(await call)).toContain('https://example.org/late');
      await expect.poll(() => mcpSessionCounts(service.app).sse, { timeout: 5000 }).toBe(0);
    } finally {
      await calling.close();
      await service.stop();
      await upstream.stop();
    }
  });

  it('closes a session whose call is still running once SHUTDOWN_GRACE_MS is over', async () => {
    const upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    const service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test-key-0123456789',
      SHUTDOWN_GRACE_MS: '200',
      LOG_LEVEL: 'warn',
    });
    const connected = await connect(service.origin, 'streamable');
    try {
      void callTool(connected.client, 'research', {
        operation: 'web_search',
        params: { query: 'never answered', providers: ['brave'], timeout_ms: 30_000 },
      }).catch(() => undefined);
      await expect.poll(() => upstream.requestsTo(BRAVE_PATH).length).toBe(1);
      await service.stop();
      expect(mcpSessionCounts(service.app).streamable).toBe(0);
      await expect.poll(() => upstream.abortedPaths).toContain(BRAVE_PATH);
    } finally {
      await connected.close();
      await upstream.stop();
    }
  });

  it.each(TRANSPORT_KINDS)('closes every open %s session when the service shuts down', async (kind) => {
    const service = await startService({ LOG_LEVEL: 'warn' });
    const sessions = await Promise.all([connect(service.origin, kind), connect(service.origin, kind)]);
    expect(mcpSessionCounts(service.app)[kind]).toBe(2);
    await service.stop();
    expect(mcpSessionCounts(service.app)[kind]).toBe(0);
    await Promise.all(sessions.map((session) => session.close()));
  });
});
