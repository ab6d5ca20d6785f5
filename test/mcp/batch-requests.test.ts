import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { MCP_POST_HEADERS, rawRequest } from './mcp-client.js';
import { startService, type RunningService } from '../support/service.js';

/** One tools/call of fetch_url per id, through the compact `research` tool. */
function fetchCalls(url: string, count: number): string {
  return JSON.stringify(
    Array.from({ length: count }, (_, index) => ({
      jsonrpc: '2.0',
      id: index + 1,
      method: 'tools/call',
      params: { name: 'research', arguments: { operation: 'fetch_url', params: { url: `${url}?call=${index}` } } },
    })),
  );
}

describe('a JSON-RPC batch on /mcp and the rate limit', () => {
  let site: LoopbackSite;
  let service: RunningService;
  beforeAll(async () => {
    site = await new LoopbackSite().serve('/page', 'text/plain', 'a page').start();
    service = await startService({ MCP_STATELESS: 'true', FETCH_ALLOW_PRIVATE: 'true', RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  it('does not let one POST run more tool calls than RATE_LIMIT_MAX allows requests', async () => {
    const response = await rawRequest(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-03-26' },
      body: fetchCalls(`${site.origin}/page`, 50),
    });
    // One request of the two the window allows: the page may be fetched once or twice, never fifty times.
    expect(site.requestedPaths.length).toBeLessThanOrEqual(2);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/one request per POST/) } });
  });

  it('still answers a single request', async () => {
    const response = await rawRequest(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-03-26' },
      body: JSON.stringify(JSON.parse(fetchCalls(`${site.origin}/page`, 1))[0]),
    });
    expect(response.status).toBe(200);
    expect(response.body).toContain('a page');
  });
});
