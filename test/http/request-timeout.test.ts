import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startService, type RunningService } from '../support/service.js';

/** Sends a request's headers and the start of its body, then nothing more; resolves with what the server says before it hangs up. */
function unfinishedRequest(origin: string): Promise<string> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(`POST /v1/ops/fetch_url HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"url":`);
    });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
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
