import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpSessionCounts } from '../../src/mcp/register.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { INITIALIZE_MESSAGE, LIST_TOOLS_MESSAGE, MCP_POST_HEADERS, TRANSPORT_KINDS, braveBody, callTool, connect, rawRequest, streamableSessionId } from './mcp-client.js';

/**
 * A request's status and, unless it opened a stream, its body: an event stream is cut once its headers are in
 * (its session then closes), so a test of a refusal that did not happen fails instead of waiting on the stream.
 */
function answerHead(
  origin: string,
  path: string,
  options: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(new URL(path, origin), { method: options.method, headers: options.headers }, (response) => {
      const contentType = response.headers['content-type'] ?? '';
      if (contentType.startsWith('text/event-stream')) {
        response.destroy();
        resolve({ status: response.statusCode ?? 0, contentType, body: '' });
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

describe('MCP_ENABLED=false', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ MCP_ENABLED: 'false', LOG_LEVEL: 'warn' });
  });
  afterAll(() => service.stop());

  it.each([
    ['GET', '/sse'],
    ['POST', '/messages?sessionId=any'],
    ['POST', '/mcp'],
    ['GET', '/mcp'],
    ['DELETE', '/mcp'],
  ])('%s %s is a 404 while REST still answers', async (method, path) => {
    const response = await rawRequest(service.origin, path, method === 'POST' ? { method, headers: MCP_POST_HEADERS, body: INITIALIZE_MESSAGE } : { method });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'NOT_FOUND' });
    expect((await request(service.origin, '/healthz')).status).toBe(200);
  });
});

describe('MCP_STATELESS=true', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', JSON.parse(braveBody('https://brave.example/stateless')));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', MCP_STATELESS: 'true', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('serves tools/list and tools/call over Streamable HTTP with a fresh server per POST', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      expect(streamableSessionId(connected)).toBeUndefined();
      expect((await connected.client.listTools()).tools.map((tool) => tool.name)).toEqual(['research']);
      const result = await callTool(connected.client, 'research', { operation: 'web_search', params: { query: 'provider', providers: ['brave'] } });
      expect((result.structuredContent as { results: Array<{ url: string }> }).results.map((entry) => entry.url)).toEqual(['https://brave.example/stateless']);
      const invalid = await callTool(connected.client, 'research', { operation: 'web_search', params: {} });
      expect(invalid.isError).toBe(true);
      expect(invalid.content).toEqual([{ type: 'text', text: expect.stringContaining('query: missing; allowed: a string') }]);
    } finally {
      await connected.close();
    }
    await expect.poll(() => mcpSessionCounts(service.app).streamable).toBe(0);
  });

  it('answers any POST without a session id, and refuses GET and DELETE with 405', async () => {
    const listed = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: LIST_TOOLS_MESSAGE });
    expect(listed.status).toBe(200);
    expect(listed.headers['mcp-session-id']).toBeUndefined();
    expect(listed.body).toContain('"name":"research"');
    for (const method of ['GET', 'DELETE']) {
      const refused = await rawRequest(service.origin, '/mcp', { method, headers: { accept: 'text/event-stream' } });
      expect(refused.status).toBe(405);
      expect(refused.headers.allow).toBe('POST');
      expect(JSON.parse(refused.body).error.message).toContain('stateless');
    }
    await expect.poll(() => mcpSessionCounts(service.app).streamable).toBe(0);
  });
});

describe('MCP_ALLOWED_HOSTS and MCP_ALLOWED_ORIGINS', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({
      // Every route admits these names; MCP_ALLOWED_HOSTS narrows the MCP routes to fewer.
      ALLOWED_HOSTS: '.example.com, evil.example',
      MCP_ALLOWED_HOSTS: '127.0.0.1, mcp.example.com:8443',
      MCP_ALLOWED_ORIGINS: 'https://app.example.com',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(() => service.stop());

  it.each(TRANSPORT_KINDS)('lets a client on an allowed host in over %s', async (kind) => {
    const connected = await connect(service.origin, kind);
    expect((await connected.client.listTools()).tools).toHaveLength(1);
    await connected.leave();
  });

  it.each([
    ['/mcp', 'evil.example'],
    ['/mcp', 'mcp.example.com:9999'],
    ['/sse', 'localhost'],
    ['/messages?sessionId=x', 'evil.example:80'],
  ])('refuses %s with Host %s: 403 with a message naming it', async (path, host) => {
    const response = await rawRequest(service.origin, path, {
      method: path === '/sse' ? 'GET' : 'POST',
      headers: { ...MCP_POST_HEADERS, host },
      body: path === '/sse' ? undefined : INITIALIZE_MESSAGE,
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).error.message).toBe(`Forbidden: host "${host}" is not allowed to use the MCP endpoint (see MCP_ALLOWED_HOSTS)`);
  });

  it('refuses a page from another origin and admits the allowed one', async () => {
    const refused = await rawRequest(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, origin: 'https://evil.example' },
      body: INITIALIZE_MESSAGE,
    });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error.message).toContain('origin "https://evil.example" is not allowed');
    const admitted = await rawRequest(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, host: 'mcp.example.com:8443', origin: 'https://app.example.com' },
      body: LIST_TOOLS_MESSAGE,
    });
    expect(admitted.status).toBe(400);
    expect(JSON.parse(admitted.body).error.message).toContain('Mcp-Session-Id header is required');
  });

  it('guards only the MCP routes', async () => {
    const health = await rawRequest(service.origin, '/healthz', { headers: { host: 'evil.example' } });
    expect(health.status).toBe(200);
  });
});

describe('MCP_ALLOWED_HOSTS behind a trusted proxy', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ TRUST_PROXY: 'true', ALLOWED_HOSTS: 'evil.example, mcp.example.com', MCP_ALLOWED_HOSTS: 'mcp.example.com', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('checks the Host header as received, not an X-Forwarded-Host the caller wrote', async () => {
    const response = await rawRequest(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, host: 'evil.example', 'x-forwarded-host': 'mcp.example.com' },
      body: INITIALIZE_MESSAGE,
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).error.message).toBe('Forbidden: host "evil.example" is not allowed to use the MCP endpoint (see MCP_ALLOWED_HOSTS)');
  });
});

describe('Origin check without MCP_ALLOWED_ORIGINS', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  const initialize = (headers: Record<string, string>) =>
    rawRequest(service.origin, '/mcp', { method: 'POST', headers: { ...MCP_POST_HEADERS, ...headers }, body: INITIALIZE_MESSAGE });

  it.each([
    ['POST', '/mcp'],
    ['GET', '/sse'],
    ['POST', '/messages?sessionId=x'],
  ])('refuses %s %s from a page on another site with 403 naming MCP_ALLOWED_ORIGINS', async (method, path) => {
    // The Host is this service's own: a re-bound name is refused by ALLOWED_HOSTS first (test/http/allowed-hosts.test.ts).
    const response = await rawRequest(service.origin, path, {
      method,
      headers: { ...MCP_POST_HEADERS, origin: 'http://rebound.example:8080' },
      body: method === 'POST' ? INITIALIZE_MESSAGE : undefined,
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('origin "http://rebound.example:8080" is not allowed') } });
    expect(JSON.parse(response.body).error.message).toContain('MCP_ALLOWED_ORIGINS');
  });

  // What a browser adds to a request another site's page made by <img src> or <script src>: no Origin at all.
  const CROSS_SITE = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' };

  it.each([
    ['GET', '/sse'],
    ['POST', '/mcp'],
  ])('refuses %s %s that a page on another site made the browser send without an Origin', async (method, path) => {
    const before = mcpSessionCounts(service.app);
    const response = await answerHead(service.origin, path, {
      method,
      headers: method === 'POST' ? { ...MCP_POST_HEADERS, ...CROSS_SITE } : CROSS_SITE,
      body: method === 'POST' ? INITIALIZE_MESSAGE : undefined,
    });
    // An <img src="http://localhost:8080/sse"> opened a session: no Origin read as a client outside a browser.
    expect(response).toMatchObject({ status: 403, contentType: expect.stringContaining('application/json') });
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining("another site's page") } });
    expect(mcpSessionCounts(service.app)).toEqual(before);
  });

  it('admits a page from this machine that the browser calls cross-site, since it sends its Origin', async () => {
    // The MCP Inspector on localhost calling 127.0.0.1 is another site to the browser.
    const response = await initialize({ origin: 'http://localhost:6274', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' });
    expect(response.status).toBe(200);
  });

  it.each(['http://localhost:5173', 'http://127.0.0.1:6274', 'https://[::1]:8443'])('admits a page served from this machine (%s)', async (origin) => {
    const response = await initialize({ origin });
    expect(response.status).toBe(200);
    expect(response.headers['mcp-session-id']).toEqual(expect.any(String));
  });

  it.each(TRANSPORT_KINDS)('admits a client that sends no Origin over %s', async (kind) => {
    const connected = await connect(service.origin, kind);
    expect((await connected.client.listTools()).tools).toHaveLength(1);
    await connected.leave();
  });
});

describe('MCP_ALLOWED_ORIGINS', () => {
  it('admits every origin with *', async () => {
    const service = await startService({ MCP_ALLOWED_ORIGINS: '*', LOG_LEVEL: 'silent' });
    try {
      const response = await rawRequest(service.origin, '/mcp', {
        method: 'POST',
        headers: { ...MCP_POST_HEADERS, origin: 'https://anywhere.example' },
        body: INITIALIZE_MESSAGE,
      });
      expect(response.status).toBe(200);
    } finally {
      await service.stop();
    }
  });

  it('refuses to start with an entry that is not an origin, naming the variable', async () => {
    await expect(startService({ MCP_ALLOWED_ORIGINS: 'https://app.example.com, app.example.com', LOG_LEVEL: 'silent' })).rejects.toThrow(
      'MCP_ALLOWED_ORIGINS: "app.example.com" is not an origin',
    );
  });
});
