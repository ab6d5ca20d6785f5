import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';
import { LIST_TOOLS_MESSAGE, MCP_POST_HEADERS, rawRequest } from './mcp-client.js';

/** A JSON-RPC error answer, as MCP's transports send one: what an MCP client parses. */
function jsonRpcError(body: string): { code: number; message: string; data?: Record<string, unknown> } {
  const parsed = JSON.parse(body) as { jsonrpc: string; id: unknown; error: { code: number; message: string; data?: Record<string, unknown> } };
  expect(parsed.jsonrpc).toBe('2.0');
  expect(parsed.id).toBeNull();
  return parsed.error;
}

describe('requests the MCP routes refuse before the transport reads them', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '4', RATE_LIMIT_WINDOW_MS: '60000' });
  });
  afterAll(() => service.stop());

  it('answers a body that is not JSON with a JSON-RPC parse error, on /mcp and /messages alike', async () => {
    for (const path of ['/mcp', '/messages?sessionId=00000000-0000-0000-0000-000000000000']) {
      const response = await rawRequest(service.origin, path, { method: 'POST', headers: MCP_POST_HEADERS, body: '{"jsonrpc": "2.0", "method":' });
      expect(response.status, path).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const error = jsonRpcError(response.body);
      expect(error.code).toBe(-32700);
      expect(error.message).toBe('body: not valid JSON; allowed: a JSON object');
      expect(error.data).toEqual({ code: 'QUERY_INVALID', request_id: response.headers['x-request-id'] });
    }
  });

  it('answers another content type with a JSON-RPC error saying what is accepted', async () => {
    const response = await rawRequest(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'content-type': 'text/plain' },
      body: LIST_TOOLS_MESSAGE,
    });
    expect(response.status).toBe(415);
    const error = jsonRpcError(response.body);
    expect(error.code).toBe(-32000);
    expect(error.message).toContain('allowed: application/json');
    expect(error.data).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers past the rate limit with a JSON-RPC error and Retry-After, while REST keeps its envelope', async () => {
    let response = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: '{' });
    while (response.status !== 429) {
      expect(response.status).toBe(400);
      response = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: '{' });
    }
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    const error = jsonRpcError(response.body);
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/rate limit/i);
    expect(error.data).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Math.ceil((error.data?.retry_after_ms as number) / 1000)).toBe(Number(response.headers['retry-after']));

    const rest = await rawRequest(service.origin, '/v1/search/web?q=test');
    expect(rest.status).toBe(429);
    expect(JSON.parse(rest.body)).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', retry_after_ms: expect.any(Number) });
  });
});

describe('a method the MCP routes do not take, past the rate limit', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_MS: '60000' });
  });
  afterAll(() => service.stop());

  // The not-found handler counts it (http/not-found-handler.ts): its 429 comes from there, not from a route's error
  // handler, and must still be the JSON-RPC error its 405 is, on the paths that answer in that shape.
  it('is answered 429 in JSON-RPC on /mcp, with Retry-After, and in REST\'s envelope elsewhere', async () => {
    const first = await rawRequest(service.origin, '/mcp', { method: 'PUT', headers: MCP_POST_HEADERS, body: LIST_TOOLS_MESSAGE });
    expect(first.status).toBe(405);
    const limited = await rawRequest(service.origin, '/mcp', { method: 'PUT', headers: MCP_POST_HEADERS, body: LIST_TOOLS_MESSAGE });
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^application\/json/);
    const error = jsonRpcError(limited.body);
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/rate limit exceeded/);
    expect(error.data).toMatchObject({ code: 'RATE_LIMITED', request_id: limited.headers['x-request-id'] });
    expect(Math.ceil((error.data?.retry_after_ms as number) / 1000)).toBe(Number(limited.headers['retry-after']));

    const rest = await rawRequest(service.origin, '/no-such-path', { method: 'PUT' });
    expect(rest.status).toBe(429);
    expect(JSON.parse(rest.body)).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', retry_after_ms: expect.any(Number) });
  });
});

describe('a method the MCP routes do not take, with a body that is not JSON', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_MS: '60000' });
  });
  afterAll(() => service.stop());

  // Its body is read before any route or the not-found handler is found, so the app's error handler answers it (and
  // counts it against the rate limit first): on the MCP paths in JSON-RPC, as its 405 would be, not REST's envelope.
  it('is answered with a JSON-RPC parse error on /mcp, then its 429 in JSON-RPC too; REST keeps its envelope', async () => {
    const unreadable = { method: 'PUT', headers: MCP_POST_HEADERS, body: '{"jsonrpc": "2.0", "method":' };
    const first = await rawRequest(service.origin, '/mcp', unreadable);
    expect(first.status).toBe(400);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    const parseError = jsonRpcError(first.body);
    expect(parseError.code).toBe(-32700);
    expect(parseError.message).toBe('body: not valid JSON; allowed: a JSON object');
    expect(parseError.data).toEqual({ code: 'QUERY_INVALID', request_id: first.headers['x-request-id'] });

    const limited = await rawRequest(service.origin, '/sse', unreadable);
    expect(limited.status).toBe(429);
    const refusal = jsonRpcError(limited.body);
    expect(refusal.code).toBe(-32000);
    expect(refusal.message).toMatch(/rate limit exceeded/);
    expect(refusal.data).toMatchObject({ code: 'RATE_LIMITED', request_id: limited.headers['x-request-id'] });
    expect(Math.ceil((refusal.data?.retry_after_ms as number) / 1000)).toBe(Number(limited.headers['retry-after']));

    const rest = await rawRequest(service.origin, '/no-such-path', unreadable);
    expect(rest.status).toBe(429);
    expect(JSON.parse(rest.body)).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', retry_after_ms: expect.any(Number) });
  });
});
