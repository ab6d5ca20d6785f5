import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE_MESSAGE, MCP_POST_HEADERS, rawRequest } from '../mcp/mcp-client.js';
import { request, startService, type RunningService } from '../support/service.js';

/** What a browser adds to a request a page on another site made it send, such as <img src="http://localhost:8080/…">. */
const CROSS_SITE = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' };

describe('requests another site made a browser send, to a service without API keys', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ CORS_ORIGINS: 'https://app.example', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('refuses a cross-site request to the API with 403, before its route runs', async () => {
    const answer = await request(service.origin, '/v1/search/web?q=quota', { headers: CROSS_SITE });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST', message: expect.stringContaining('CORS_ORIGINS') });
    const listing = await request(service.origin, '/v1/providers', { headers: { ...CROSS_SITE, origin: 'https://evil.example' } });
    expect(listing.status).toBe(403);
    // Loaded in a frame the user may never see: not a link followed.
    const framed = await undiciRequest(`${service.origin}/v1/providers`, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' } });
    await framed.body.dump();
    expect(framed.statusCode).toBe(403);
  });

  it.each([
    ['POST', '/mcp', { origin: 'https://evil.example' }],
    ['POST', '/mcp', {}],
    ['GET', '/sse', {}],
    ['POST', '/messages?sessionId=00000000-0000-0000-0000-000000000000', { origin: 'https://evil.example' }],
  ])('refuses a cross-site %s %s with 403 as a JSON-RPC error with our code and the request id', async (method, path, origin) => {
    const answer = await rawRequest(service.origin, path, {
      method,
      headers: { ...MCP_POST_HEADERS, ...CROSS_SITE, ...origin },
      body: method === 'POST' ? INITIALIZE_MESSAGE : undefined,
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: expect.stringContaining('is not allowed to use the MCP endpoint'),
        data: { code: 'CROSS_SITE_REQUEST', request_id: answer.headers['x-request-id'] },
      },
      id: null,
    });
  });

  it('lets in a page from CORS_ORIGINS, the service\'s own pages, users typing the address, and clients outside a browser', async () => {
    expect((await request(service.origin, '/v1/providers', { headers: { ...CROSS_SITE, origin: 'https://app.example' } })).status).toBe(200);
    expect((await request(service.origin, '/v1/providers', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expect((await request(service.origin, '/v1/providers', { headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    expect((await request(service.origin, '/v1/providers')).status).toBe(200);
    expect((await request(service.origin, '/healthz', { headers: CROSS_SITE })).status).toBe(200);
    // A link to an API address, followed from another site's page: it opens as the page, in the user's sight.
    // Sent with undici's request, not fetch: fetch adds a Sec-Fetch-Mode of its own (cors) to the one given.
    const followed = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    const link = await undiciRequest(`${service.origin}/v1/providers`, { headers: followed });
    await link.body.dump();
    expect(link.statusCode).toBe(200);
  });
});
