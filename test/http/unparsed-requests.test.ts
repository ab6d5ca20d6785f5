import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

/** Sends bytes on a raw socket (no HTTP client would send them) and resolves with all the server says before it hangs up. */
function sendRaw(origin: string, bytes: string): Promise<string> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

interface RawAnswer {
  statusLine: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

function parseAnswer(text: string): RawAnswer {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { statusLine, headers, body: JSON.parse(body) as Record<string, unknown> };
}

/** A tail no log line may hold: only the start of what was sent is shown. */
const TAIL = 'tail-beyond-the-shown-excerpt';

describe('requests Node refuses before the app sees them', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ METRICS_TOKEN: 'metrics-token-abcdef' });
  });
  afterAll(() => service.stop());

  const scrape = async () => (await request(service.origin, '/metrics', { headers: { authorization: 'Bearer metrics-token-abcdef' } })).text();

  function expectRefusal(answer: RawAnswer, status: number, message: RegExp): string {
    expect(answer.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    const requestId = answer.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body).toEqual({ statusCode: status, error: expect.any(String), code: 'QUERY_INVALID', message: expect.stringMatching(message), request_id: requestId });
    // The security headers every other answer carries.
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers.connection).toBe('close');
    return requestId!;
  }

  function logLineOf(requestId: string): Record<string, unknown> {
    const lines = service.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.reqId === requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'request refused: not read as HTTP' });
    return lines[0]!;
  }

  it('answers a malformed request line 400 with the error envelope, a request id, a warn line and a count', async () => {
    const requestLine = `GET /${'a'.repeat(150)}${TAIL} HT TP/1.1`;
    const answer = parseAnswer(await sendRaw(service.origin, `${requestLine}\r\nHost: 127.0.0.1\r\n\r\n`));
    const requestId = expectRefusal(answer, 400, /could not be parsed as HTTP/);

    const line = logLineOf(requestId);
    expect(line.requestLine).toBe(`${requestLine.slice(0, 100)}…`);
    expect(service.logs.join('\n')).not.toContain(TAIL);

    expect(await scrape()).toContain('fedsearch_http_requests_total{method="UNPARSED",route="unparsed",status_code="400"} 1');
  });

  it('answers headers past the size limit 431 in the same way, logging none of them', async () => {
    const answer = parseAnswer(await sendRaw(service.origin, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'p'.repeat(20_000)}${TAIL}\r\n\r\n`));
    const requestId = expectRefusal(answer, 431, /too large/);

    const line = logLineOf(requestId);
    expect(line.requestLine).toBe('GET /healthz HTTP/1.1');
    expect(service.logs.join('\n')).not.toContain(TAIL);

    expect(await scrape()).toContain('fedsearch_http_requests_total{method="UNPARSED",route="unparsed",status_code="431"} 1');
  });

  it('says a made-up or lower-case method is what was wrong, and which methods are allowed', async () => {
    for (const method of ['FOO', 'get']) {
      const answer = parseAnswer(await sendRaw(service.origin, `${method} /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
      expectRefusal(answer, 400, /^method: not one HTTP defines \(methods are case-sensitive\); allowed: GET, HEAD and POST \(and DELETE on \/mcp\)$/);
    }
  });

  // Node answered such a request itself: a bare 417, no body, no request id, no log line, no count.
  it('answers an Expect other than 100-continue 417 with the envelope, a request id, an info line and a count', async () => {
    const body = '{"q":"fusion"}';
    const answer = parseAnswer(
      await sendRaw(service.origin, `POST /v1/search/web HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: something-else\r\nConnection: close\r\n\r\n${body}`),
    );
    expect(answer.statusLine).toMatch(/^HTTP\/1\.1 417 /);
    const requestId = answer.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body).toEqual({
      statusCode: 417,
      error: 'Expectation Failed',
      code: 'QUERY_INVALID',
      message: 'expect: "something-else" cannot be met; allowed: 100-continue, or no Expect header',
      request_id: requestId,
    });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers.connection).toBe('close');

    const lines = service.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.reqId === requestId);
    // Node answers before Fastify makes a request, but its method and path name a route: counted and logged under it.
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'request rejected: expectation not met', statusCode: 417, method: 'POST', route: '/v1/search/web' })]);
    expect(await scrape()).toContain('fedsearch_http_requests_total{method="POST",route="/v1/search/web",status_code="417"} 1');
  });

  it('counts a 417 under the pattern of a route with a parameter, and under unmatched where no route serves the path', async () => {
    const expectFailed = (path: string) => sendRaw(service.origin, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\nConnection: close\r\n\r\n`);
    // An MCP client's OAuth discovery, asked for a resource below the document (its route ends in a wildcard).
    expect(await expectFailed('/.well-known/oauth-protected-resource/mcp%20server?v=1')).toMatch(/^HTTP\/1\.1 417 /);
    expect(await expectFailed('/no/such/path')).toMatch(/^HTTP\/1\.1 417 /);
    const metrics = await scrape();
    expect(metrics).toContain('fedsearch_http_requests_total{method="GET",route="/.well-known/oauth-protected-resource/*",status_code="417"} 1');
    expect(metrics).toContain('fedsearch_http_requests_total{method="GET",route="unmatched",status_code="417"} 1');
  });

  // Node dropped a CONNECT's connection without an answer: the caller read nothing, the operator saw nothing.
  it('answers CONNECT 405 with an empty Allow, the envelope, a request id, an info line and a count', async () => {
    const answer = parseAnswer(await sendRaw(service.origin, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expect(answer.statusLine).toMatch(/^HTTP\/1\.1 405 /);
    const requestId = answer.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body).toEqual({
      statusCode: 405,
      error: 'Method Not Allowed',
      code: 'METHOD_NOT_ALLOWED',
      message: 'method: CONNECT is not served, this service is not a proxy; allowed: GET, HEAD and POST on the API paths',
      request_id: requestId,
    });
    expect(answer.headers.allow).toBe('');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers.connection).toBe('close');

    const lines = service.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.reqId === requestId);
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'request rejected: CONNECT', statusCode: 405, method: 'CONNECT' })]);
    expect(await scrape()).toContain('fedsearch_http_requests_total{method="CONNECT",route="unmatched",status_code="405"} 1');
  });
});

/**
 * The refused request's line is logged so an operator can tell what was sent, but a request line carries the
 * target's query string (a key a client put there), and the bytes Node had when it gave up are only the last piece
 * it read: for headers that arrive in parts, that piece starts inside them, an Authorization header among them.
 */
describe('the line logged for a request Node refuses', () => {
  const KEY = 'caller-key-0123456789abcdef';
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ API_KEYS: KEY });
  });
  afterAll(() => service.stop());

  function refusedLine(requestId: string | undefined): Record<string, unknown> {
    const lines = service.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.reqId === requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'request refused: not read as HTTP' });
    return lines[0]!;
  }

  it('has a key in its query redacted, by parameter name and by value', async () => {
    const answer = parseAnswer(await sendRaw(service.origin, `GET /v1/providers?api_key=${KEY}&credential=${KEY} HT TP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    expect(answer.statusLine).toMatch(/^HTTP\/1\.1 400 /);
    const line = refusedLine(answer.headers['x-request-id']);
    expect(line.requestLine).toBe('GET /v1/providers?api_key=[redacted]&credential=[redacted] HT TP/1.1');
    for (const logged of service.logs) expect(logged).not.toContain(KEY);
  });

  it('is not logged when the piece Node refused starts inside the headers', async () => {
    const { port } = new URL(service.origin);
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    const closed = new Promise<void>((resolve, reject) => {
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // A whole request, then the first 15 KB of the next one's headers (under Node's 16 KB limit)...
    const first = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    socket.write(`${first}GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'p'.repeat(15_000)}\r\n`);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    // ...and once the first is answered (so the server has read all of that), the rest, which passes the limit.
    await expect.poll(() => received.startsWith('HTTP/1.1 200 ')).toBe(true);
    socket.write(`Authorization: Bearer ${KEY}\r\nX-More: ${'q'.repeat(2000)}\r\n\r\n`);
    await closed;
    const refusal = received.slice(received.lastIndexOf('HTTP/1.1 '));
    const answer = parseAnswer(refusal);
    expect(answer.statusLine).toMatch(/^HTTP\/1\.1 431 /);
    const line = refusedLine(answer.headers['x-request-id']);
    expect(line.requestLine).toBeUndefined();
    for (const logged of service.logs) {
      expect(logged).not.toContain(KEY);
      expect(logged).not.toContain('Authorization');
    }
  });
});
