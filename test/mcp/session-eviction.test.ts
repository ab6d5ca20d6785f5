import type { ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpSessionCounts } from '../../src/mcp/register.js';
import { sessionLogTag } from '../../src/mcp/session-store.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, connect, INITIALIZE_MESSAGE, LIST_TOOLS_MESSAGE, MCP_POST_HEADERS, rawRequest, type Connected } from './mcp-client.js';

const KEY_A = 'evict-key-aaaaaaaaaaaaaaaa';
const KEY_B = 'evict-key-bbbbbbbbbbbbbbbb';
const KEY_C = 'evict-key-cccccccccccccccc';
const API_KEYS = [KEY_A, KEY_B, KEY_C].join(',');
const BRAVE_PATH = '/brave/res/v1/web/search';

const keyed = (key: string) => ({ 'x-api-key': key });

function initialize(service: RunningService, key: string) {
  return rawRequest(service.origin, '/mcp', { method: 'POST', headers: { ...MCP_POST_HEADERS, ...keyed(key) }, body: INITIALIZE_MESSAGE });
}

/** A client that sent initialize and vanished without DELETE: its session has nothing open. */
async function openAndVanish(service: RunningService, key: string): Promise<string> {
  const response = await initialize(service, key);
  expect(response.status).toBe(200);
  return response.headers['mcp-session-id'] as string;
}

function sessionHeaders(key: string, sessionId: string): Record<string, string> {
  return { ...MCP_POST_HEADERS, ...keyed(key), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
}

function listTools(service: RunningService, key: string, sessionId: string) {
  return rawRequest(service.origin, '/mcp', { method: 'POST', headers: sessionHeaders(key, sessionId), body: LIST_TOOLS_MESSAGE });
}

/** The answer an idled-out session gets: 404 with the SDK's -32001, on which clients start a new session. */
function expectSessionNotFound(response: { status: number; body: string }): void {
  expect(response.status).toBe(404);
  expect(JSON.parse(response.body)).toMatchObject({ error: { code: -32001, message: expect.stringContaining('Session not found'), data: { code: 'NOT_FOUND' } } });
}

async function evictionsCounted(service: RunningService): Promise<number> {
  const metrics = await (await fetch(`${service.origin}/metrics`, { headers: keyed(KEY_A) })).text();
  return Number(/^fedsearch_mcp_sessions_evicted_total (\d+)$/m.exec(metrics)?.[1]);
}

describe('MCP sessions at MCP_MAX_SESSIONS', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function start(env: Record<string, string>): Promise<RunningService> {
    const service = await startService({ API_KEYS, MCP_MAX_SESSIONS: '2', LOG_LEVEL: 'info', ...env });
    cleanups.push(() => service.stop());
    return service;
  }

  it('admits a new client by closing the least recently active idle session, whose client then gets 404', async () => {
    const service = await start({});
    const sessionA = await openAndVanish(service, KEY_A);
    const sessionB = await openAndVanish(service, KEY_B);
    // A comes back once: B is now the session idle longest, though it was opened last.
    expect((await listTools(service, KEY_A, sessionA)).status).toBe(200);

    const clientC = await connect(service.origin, 'streamable', { headers: keyed(KEY_C) });
    cleanups.push(() => clientC.leave());
    expect((await clientC.client.listTools()).tools.length).toBeGreaterThan(0);
    expect(mcpSessionCounts(service.app).streamable).toBe(2);

    // B's client returns: the SDK's own client is told its session is unknown, as after an idle-out.
    const returningB = await connect(service.origin, 'streamable', { headers: keyed(KEY_B), sessionId: sessionB });
    cleanups.push(() => returningB.close());
    await expect(returningB.client.listTools()).rejects.toMatchObject({ code: 404, message: expect.stringContaining('Session not found') });
    expectSessionNotFound(await listTools(service, KEY_B, sessionB));
    expect((await listTools(service, KEY_A, sessionA)).status).toBe(200);

    expect(await evictionsCounted(service)).toBe(1);
    const evictions = service.logs.map((line) => JSON.parse(line)).filter((entry) => /MCP session closed to make room/.test(entry.msg));
    expect(evictions.map((entry) => entry.mcpSession)).toEqual([sessionLogTag(sessionB)]);
    expect(service.logs.join('\n')).not.toContain(sessionB);
  });

  it('never closes a session with an open stream or a call in flight: 503 while every one is in use', async () => {
    const upstream: FakeUpstream = await startFakeUpstream();
    cleanups.push(() => upstream.stop());
    const heldSearches: ServerResponse[] = [];
    upstream.on(BRAVE_PATH, { kind: 'handler', handle: (_request, response) => void heldSearches.push(response) });
    const service = await start({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789' });

    // A holds its GET stream open: its answers' headers came, so the service is serving it.
    const sessionA = await openAndVanish(service, KEY_A);
    const streamOfA = new AbortController();
    cleanups.push(async () => streamOfA.abort());
    const stream = await fetch(`${service.origin}/mcp`, {
      headers: { ...sessionHeaders(KEY_A, sessionA), accept: 'text/event-stream' },
      signal: streamOfA.signal,
    });
    expect(stream.status).toBe(200);

    // B's tool call runs: its search has reached the upstream and waits for an answer.
    const sessionB = await openAndVanish(service, KEY_B);
    const call = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = httpRequest(new URL('/mcp', service.origin), { method: 'POST', headers: sessionHeaders(KEY_B, sessionB) }, (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      outgoing.on('error', reject);
      outgoing.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'research', arguments: { operation: 'web_search', params: { query: 'held call', providers: ['brave'], timeout_ms: 30_000 } } },
        }),
      );
    });
    await expect.poll(() => heldSearches.length).toBe(1);

    const refused = await initialize(service, KEY_C);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(refused.body).error).toMatchObject({
      // When to retry, in the Retry-After header's words and with its number.
      message: expect.stringMatching(new RegExp(`at most 2 open sessions \\(MCP_MAX_SESSIONS\\) and every one is in use.*; retry after ${refused.headers['retry-after']} s, or raise MCP_MAX_SESSIONS$`)),
      data: { code: 'TOO_MANY_SESSIONS' },
    });
    expect(await evictionsCounted(service)).toBe(0);

    // B's call is answered and its exchange closes: B is idle now, A (stream still open) is not.
    heldSearches[0]!.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://example.com/held'));
    const answered = await call;
    expect(answered.status).toBe(200);
    expect(answered.body).toContain('example.com/held');

    expect((await initialize(service, KEY_C)).status).toBe(200);
    expectSessionNotFound(await listTools(service, KEY_B, sessionB));
    expect((await listTools(service, KEY_A, sessionA)).status).toBe(200);
    expect(await evictionsCounted(service)).toBe(1);
  });

  it('never closes a legacy SSE session, whose stream is open for as long as it lives', async () => {
    const service = await start({ MCP_MAX_SESSIONS: '1' });
    const sse: Connected = await connect(service.origin, 'sse', { headers: keyed(KEY_A) });
    cleanups.push(() => sse.close());

    expect((await initialize(service, KEY_B)).status).toBe(503);
    expect((await sse.client.listTools()).tools.length).toBeGreaterThan(0);
    expect(mcpSessionCounts(service.app)).toEqual({ sse: 1, streamable: 0 });
  });

  it("answers a client past its own limit 429 without closing another client's session to make room", async () => {
    const service = await start({ MCP_MAX_SESSIONS_PER_CLIENT: '1' });
    const sessionA = await openAndVanish(service, KEY_A);
    const sessionB = await openAndVanish(service, KEY_B);

    const refused = await initialize(service, KEY_A);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.message).toMatch(/at most 1 open sessions per API key \(MCP_MAX_SESSIONS_PER_CLIENT\)/);
    expect((await listTools(service, KEY_A, sessionA)).status).toBe(200);
    expect((await listTools(service, KEY_B, sessionB)).status).toBe(200);
    expect(await evictionsCounted(service)).toBe(0);
  });
});
