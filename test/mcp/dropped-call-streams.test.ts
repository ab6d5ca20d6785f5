import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { INITIALIZE_MESSAGE, MCP_POST_HEADERS, rawRequest } from './mcp-client.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
const DROPPED_CALLS = 5;

/**
 * The requests a session's transport still correlates with a response stream. The SDK keeps this map private
 * (webStandardStreamableHttp.ts) and releases an entry only when it sends the request's response.
 */
function correlationsHeld(transport: StreamableHTTPServerTransport): number {
  const inner = (transport as unknown as { _webStandardTransport: { _requestToStreamMapping: Map<unknown, string> } })._webStandardTransport;
  return inner._requestToStreamMapping.size;
}

describe('an MCP session whose client drops the streams of its calls', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  // Every transport the service handles a request with: the real SDK method runs, it is only watched.
  const transports = new Set<StreamableHTTPServerTransport>();

  beforeAll(async () => {
    const handleRequest = StreamableHTTPServerTransport.prototype.handleRequest;
    vi.spyOn(StreamableHTTPServerTransport.prototype, 'handleRequest').mockImplementation(function (this: StreamableHTTPServerTransport, ...args) {
      transports.add(this);
      return handleRequest.apply(this, args);
    });
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await service.stop();
    await upstream.stop();
  });

  it('keeps nothing for each call it dropped: a long-lived session does not grow with them', async () => {
    const initialized = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: INITIALIZE_MESSAGE });
    expect(initialized.status).toBe(200);
    const session = { 'mcp-session-id': initialized.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-06-18' };
    const ready = await rawRequest(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, ...session },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(ready.status).toBe(202);
    expect(transports.size).toBe(1);
    const [transport] = transports;

    for (let call = 1; call <= DROPPED_CALLS; call += 1) {
      const query = `dropped call ${call}`;
      const outgoing = httpRequest(new URL('/mcp', service.origin), { method: 'POST', headers: { ...MCP_POST_HEADERS, ...session } });
      outgoing.on('error', () => undefined);
      outgoing.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 100 + call,
          method: 'tools/call',
          params: { name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } },
        }),
      );
      await expect.poll(() => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query).length).toBe(1);
      const abortedBefore = upstream.abortedPaths.length;
      outgoing.destroy();
      // The call was cancelled: its search stopped.
      await expect.poll(() => upstream.abortedPaths.length).toBe(abortedBefore + 1);
    }

    await expect.poll(() => correlationsHeld(transport!)).toBe(0);
  });
});
