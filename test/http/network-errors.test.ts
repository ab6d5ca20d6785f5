import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { closedPort } from '../support/closed-port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

describe('an unreachable upstream is named in what the caller sees', () => {
  let service: RunningService;
  let port: number;

  beforeAll(async () => {
    port = await closedPort();
    service = await startService({
      BRAVE_API_KEY: 'brave-key-123456',
      BRAVE_BASE_URL: `http://127.0.0.1:${port}/brave`,
      YOUTUBE_WEB_BASE_URL: 'http://www.youtube.invalid',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(() => service.stop());

  it('youtube_transcript answers 502 saying YouTube could not be reached', async () => {
    const response = await request(service.origin, '/v1/ops/youtube_transcript', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ video: 'abcDEF12345' }),
    });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body.code).toBe('PROVIDER_NETWORK');
    expect(body.message).toMatch(/^youtube_web \(www\.youtube\.invalid\): (host not found|DNS lookup failed)$/);
  });

  it("a search outcome names the provider's host, without its path or query", async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=rust&providers=brave')).json();
    expect(body.providers[0]).toMatchObject({
      provider: 'brave',
      status: 'error',
      code: 'PROVIDER_NETWORK',
      message: `brave (127.0.0.1:${port}): connection refused`,
    });
  });
});

describe('an upstream whose answer is not valid HTTP', () => {
  let upstream: Server;
  let service: RunningService;
  let port: number;
  /** What the upstream writes to the next connection, whatever it was asked. */
  let answer = '';

  beforeAll(async () => {
    // A raw TCP server: Node's HTTP server cannot be made to send any of these answers.
    upstream = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end(answer));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    port = (upstream.address() as AddressInfo).port;
    service = await startService({ BRAVE_API_KEY: 'brave-key-123456', BRAVE_BASE_URL: `http://127.0.0.1:${port}/brave`, LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await service.stop();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it.each([
    ['a chunk size that is not hexadecimal', 'Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n', 'its answer is not valid HTTP'],
    ['a header line of 70,000 bytes', `X-Padding: ${'a'.repeat(70_000)}\r\nContent-Length: 2\r\n\r\n{}`, 'its response headers are too large'],
    ['two Content-Length headers that disagree', 'Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}', 'its body does not match its Content-Length'],
  ])('%s is reported as such, as an expected upstream fault: nothing at error level in the log', async (_case, rest, cause) => {
    answer = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${rest}`;
    service.logs.length = 0;
    const body = await (await request(service.origin, `/v1/search/web?q=${encodeURIComponent(cause)}&providers=brave`)).json();
    expect(body.providers[0]).toMatchObject({ provider: 'brave', status: 'error', code: 'PROVIDER_NETWORK', message: `brave (127.0.0.1:${port}): ${cause}` });
    const levels = service.logs.map((line) => (JSON.parse(line) as { level: number }).level);
    expect(levels.length).toBeGreaterThan(0);
    expect(levels.filter((level) => level >= 50)).toEqual([]);
  });
});
