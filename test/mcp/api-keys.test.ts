import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';
import { connect, MCP_POST_HEADERS, rawRequest, TRANSPORT_KINDS, type TransportKind } from './mcp-client.js';

const KEY = 'mcp-key-dddddddddddddddd';

/** A client with a browser sign-in, as mcp-remote brings: it records whether it was sent to sign in. */
function signInClient(): OAuthClientProvider & { signInUrls: URL[] } {
  const signInUrls: URL[] = [];
  let client: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
  return {
    signInUrls,
    redirectUrl: 'http://127.0.0.1:1/oauth/callback',
    clientMetadata: { client_name: 'sign-in test', redirect_uris: ['http://127.0.0.1:1/oauth/callback'] },
    clientInformation: () => client,
    saveClientInformation: (information) => void (client = information),
    tokens: () => undefined,
    saveTokens: () => undefined,
    redirectToAuthorization: (url) => void signInUrls.push(url),
    saveCodeVerifier: () => undefined,
    codeVerifier: () => 'verifier',
  };
}

/**
 * Connects with the platform's fetch, as such clients do (the SDK reads OAuth error bodies only from its
 * own Response class, which the pooled test client's fetch does not return).
 */
async function connectWithSignIn(origin: string, kind: TransportKind, authProvider: OAuthClientProvider): Promise<void> {
  const transport =
    kind === 'sse' ? new SSEClientTransport(new URL('/sse', origin), { authProvider }) : new StreamableHTTPClientTransport(new URL('/mcp', origin), { authProvider });
  await new Client({ name: 'sign-in test', version: '0.0.0' }).connect(transport);
}

describe('MCP with API_KEYS', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ API_KEYS: KEY, LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('answers a request without a key with 401 and a bare Bearer challenge that points at no OAuth server', async () => {
    const response = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: '{}' });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="fedsearch"');
    expect(JSON.parse(response.body).error.message).toContain('API key is required');
  });

  it.each([
    ['POST', '/mcp', {}],
    ['GET', '/sse', {}],
    ['POST', '/messages?sessionId=00000000-0000-0000-0000-000000000000', {}],
    ['POST', '/mcp', { authorization: 'Bearer not-the-key' }],
  ])('answers %s %s refused for its key with a JSON-RPC error, keeping the 401 and its challenge', async (method, path, headers) => {
    const response = await rawRequest(service.origin, path, {
      method,
      headers: { ...MCP_POST_HEADERS, ...headers },
      body: method === 'POST' ? '{}' : undefined,
    });
    expect(response.status).toBe(401);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="fedsearch"/);
    expect(JSON.parse(response.body)).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: expect.stringMatching(/API key (is required|is not valid)/),
        data: { code: 'UNAUTHORIZED', request_id: response.headers['x-request-id'] },
      },
      id: null,
    });
  });

  it('keeps the REST envelope for a REST route refused for its key', async () => {
    const response = await request(service.origin, '/v1/search/web?q=test');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="fedsearch"');
    expect(await response.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      code: 'UNAUTHORIZED',
      message: expect.stringContaining('API key is required'),
      request_id: response.headers.get('x-request-id'),
    });
  });

  it('answers a wrong key with 401 and an invalid_token challenge that points at no OAuth server', async () => {
    const response = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: { ...MCP_POST_HEADERS, authorization: 'Bearer not-the-key' }, body: '{}' });
    expect(response.status).toBe(401);
    const challenge = response.headers['www-authenticate'];
    expect(challenge).toBe('Bearer realm="fedsearch", error="invalid_token", error_description="the API key is not valid"');
    expect(challenge).not.toContain('resource_metadata');
  });

  it.each(TRANSPORT_KINDS)('fails a %s client with a wrong key at once, with the 401', async (kind) => {
    // The SDK's errors carry the status as their code (the message quotes only the body, a JSON-RPC error).
    await expect(connect(service.origin, kind, { headers: { authorization: 'Bearer not-the-key' } })).rejects.toMatchObject({ code: 401 });
  });

  it.each([
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/mcp',
    '/.well-known/oauth-authorization-server',
    '/.well-known/openid-configuration',
  ])('answers OAuth discovery at %s with 404 saying to send the API key', async (path) => {
    const response = await request(service.origin, path);
    expect(response.status).toBe(404);
    expect((await response.json()).error_description).toContain('Authorization: Bearer <key>');
  });

  it.each([
    ['GET', '/.well-known/oauth-protected-resource'],
    ['POST', '/register'],
  ])('answers %s %s in the one error shape every error has, with the request id to quote', async (method, path) => {
    const response = await request(service.origin, path, { method });
    const body = await response.json();
    expect(body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      code: 'OAUTH_NOT_SUPPORTED',
      message: expect.stringContaining('does not use OAuth'),
      request_id: response.headers.get('x-request-id'),
      error_description: body.message,
    });
    expect(body.request_id).toMatch(/\S/);
  });

  it.each(TRANSPORT_KINDS)('fails a %s client without a key at once, with the 401', async (kind) => {
    await expect(connect(service.origin, kind)).rejects.toMatchObject({ code: 401 });
  });

  it('tells a Streamable HTTP client without a key which header to send', async () => {
    await expect(connect(service.origin, 'streamable')).rejects.toThrow(/API key is required: send Authorization: Bearer <key>/);
  });

  it.each(TRANSPORT_KINDS)('fails a %s client with a sign-in flow without sending anyone to sign in, naming the API key header', async (kind) => {
    const provider = signInClient();
    await expect(connectWithSignIn(service.origin, kind, provider)).rejects.toThrow(/does not use OAuth: send the API key/);
    expect(provider.signInUrls).toEqual([]);
  });

  it.each(TRANSPORT_KINDS)('lets a %s client with the key in', async (kind) => {
    const connected = await connect(service.origin, kind, { headers: { authorization: `Bearer ${KEY}` } });
    expect((await connected.client.listTools()).tools.map((tool) => tool.name)).toEqual(['research']);
    await connected.leave();
  });
});
