import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startService, type RunningService } from '../support/service.js';

/** Sends a request's headers and the start of its body, then nothing more; resolves with what the server says before it hangs up. */
function unfinishedRequest(origin: string, headers = '', target = '/v1/ops/fetch_url'): Promise<string> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(`POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"url":`);
    });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

function openConnections(service: RunningService): Promise<number> {
  return new Promise((resolve, reject) => service.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

describe('a request whose body never finishes arriving', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ REQUEST_TIMEOUT_MS: '1000', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('is answered 408 and its connection closed once REQUEST_TIMEOUT_MS has passed, not held open for ever', async () => {
    const started = performance.now();
    const answer = await unfinishedRequest(service.origin);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    // A request id to quote, in the header and the body alike, as every other answer has.
    const requestId = /\r\nx-request-id: ([0-9a-f-]{36})\r\n/i.exec(answer)?.[1];
    expect(requestId).toBeDefined();
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ statusCode: 408, code: 'REQUEST_TIMEOUT', request_id: requestId });
    expect(performance.now() - started).toBeLessThan(5000);
  }, 15_000);

  it('defaults to 30 s, and refuses a value below a second', () => {
    expect(loadConfig({}).REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '10' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });
});

describe('a request timed out while its body arrives, which the app holds', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ REQUEST_TIMEOUT_MS: '1000', LOG_LEVEL: 'info' });
  });
  afterAll(() => service.stop());

  it("is answered with the app's request id for it, and logged once, not again as a request rejected for its aborted body", async () => {
    const id = 'timed-out-body-7';
    const answer = await unfinishedRequest(service.origin, `X-Request-Id: ${id}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    // The id the caller sent is the one the app took for the request (its genReqId), and so the one its lines carry.
    expect(/\r\nx-request-id: ([^\r]*)\r\n/i.exec(answer)?.[1]).toBe(id);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'REQUEST_TIMEOUT', request_id: id });
    // The app's own reading of the body fails as the connection closes: once it has closed, and one more request has
    // been answered after it (so the events of that close have run), the lines are all written.
    await expect.poll(() => openConnections(service)).toBe(0);
    expect((await fetch(`${service.origin}/healthz`)).status).toBe(200);
    const lines = service.logs.map((line) => JSON.parse(line) as { reqId?: string; msg?: string; message?: string; statusCode?: number });
    expect(lines.filter((line) => line.reqId === id).map((line) => [line.msg, line.statusCode])).toEqual([['request refused: its body did not arrive in time', 408]]);
    expect(lines.filter((line) => line.message === 'aborted')).toEqual([]);
  }, 15_000);

  it('on /mcp is answered with a JSON-RPC error, our code and its request id in data, as every other MCP refusal', async () => {
    const id = 'timed-out-mcp-body-1';
    const answer = await unfinishedRequest(service.origin, `X-Request-Id: ${id}\r\nAccept: application/json, text/event-stream\r\n`, '/mcp');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: expect.stringContaining('REQUEST_TIMEOUT_MS'), data: { code: 'REQUEST_TIMEOUT', request_id: id } },
    });
  }, 15_000);
});
