import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helmetHeaders } from '../../src/http/security-headers.js';
import { startService, type RunningService } from '../support/service.js';
import { INITIALIZE_MESSAGE, MCP_POST_HEADERS } from './mcp-client.js';

const INITIALIZED_NOTIFICATION = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

/** The app-wide helmet setting (http/protection.ts): what every JSON answer carries. */
const SECURITY_HEADERS = helmetHeaders({ contentSecurityPolicy: false });

/** Every helmet header of a REST answer, and its request id: MCP answers are written by the SDK, past Fastify's reply. */
function expectSecurityHeaders(response: Response): void {
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
  expect(response.headers.get('x-request-id')).toMatch(/\S/);
}

/** The first event of an SSE session's stream names the path its messages are posted to. */
async function endpointOf(stream: Response): Promise<string> {
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let received = '';
  while (!received.includes('\n\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    received += value;
  }
  const match = /^event: endpoint\ndata: (\S+)\n\n/.exec(received);
  if (!match) throw new Error(`no endpoint event: ${JSON.stringify(received)}`);
  return match[1]!;
}

describe('MCP answers carry the security headers of every other answer', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'warn' });
  });
  afterAll(() => service.stop());

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${service.origin}/mcp`, { method: 'POST', headers: { ...MCP_POST_HEADERS, ...headers }, body });

  it('on Streamable HTTP: the initialize stream, a plain POST answer, the GET stream and a transport error', async () => {
    // The REST answers' headers are what MCP's must match (the same helmet setting).
    expectSecurityHeaders(await fetch(`${service.origin}/healthz`));

    const initialized = await post(INITIALIZE_MESSAGE);
    expect(initialized.status).toBe(200);
    expect(initialized.headers.get('content-type')).toBe('text/event-stream');
    expectSecurityHeaders(initialized);
    await initialized.text();
    const session = { 'mcp-session-id': initialized.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };

    const accepted = await post(INITIALIZED_NOTIFICATION, session);
    expect(accepted.status).toBe(202);
    expectSecurityHeaders(accepted);

    const controller = new AbortController();
    const stream = await fetch(`${service.origin}/mcp`, { headers: { accept: 'text/event-stream', ...session }, signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expectSecurityHeaders(stream);
    controller.abort();

    // Refused by the SDK's transport itself (no text/event-stream in Accept), still with the headers.
    const refused = await post(INITIALIZED_NOTIFICATION, { ...session, accept: 'application/json' });
    expect(refused.status).toBe(406);
    expectSecurityHeaders(refused);
  });

  it('on legacy SSE: the /sse stream and the answer to a posted message', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${service.origin}/sse`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    expect(stream.status).toBe(200);
    expectSecurityHeaders(stream);
    const posted = await fetch(`${service.origin}${await endpointOf(stream)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: INITIALIZE_MESSAGE,
    });
    expect(posted.status).toBe(202);
    expectSecurityHeaders(posted);
    controller.abort();
  });
});

describe('MCP answers to a page of an allowed origin', () => {
  it('carry its CORS headers, so the page may read them', async () => {
    const origin = 'https://app.example';
    const service = await startService({ CORS_ORIGINS: origin, MCP_ALLOWED_ORIGINS: origin, LOG_LEVEL: 'warn' });
    try {
      const response = await fetch(`${service.origin}/mcp`, { method: 'POST', headers: { ...MCP_POST_HEADERS, origin }, body: INITIALIZE_MESSAGE });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
      await response.text();
    } finally {
      await service.stop();
    }
  });
});
