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
});
