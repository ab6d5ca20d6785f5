import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';

/** A PDF larger than loopback's socket buffers on both ends, so most of it waits in the service's memory. */
const PDF = `%PDF-1.4\n${'0'.repeat(24 * 1024 * 1024)}\n%%EOF\n`;

describe('an answer the client never reads', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/big.pdf', { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: PDF });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-stall-key-0123456789', FETCH_ALLOW_PRIVATE: 'true', FETCH_MAX_BYTES: String(32 * 1024 * 1024), RESPONSE_STALL_TIMEOUT_MS: '1000', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('does not hold it for ever: the connection is closed once nothing of it has moved for RESPONSE_STALL_TIMEOUT_MS', async () => {
    const { port } = new URL(service.origin);
    // The service's end of the connection: a client that reads nothing would not notice it closing.
    const closed = new Promise<void>((resolve) => service.app.server.once('connection', (accepted: Socket) => accepted.once('close', () => resolve())));
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    let received = 0;
    socket.once('data', (chunk: Buffer) => {
      received += chunk.length;
      // Reads the first chunk (the answer has begun), then nothing more: a client that stopped reading.
      socket.pause();
    });
    const path = `/v1/papers/download?url=${encodeURIComponent(`${upstream.origin}/big.pdf`)}`;
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await closed;
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(PDF.length);
    socket.destroy();
  });

  it('still closes a kept-alive connection idle past the keep-alive timeout between requests', async () => {
    // The keep-alive wait uses the same socket timeout: with a listener on the server's timeout, Node leaves every
    // timed-out socket to it. Shortened here so the test waits on the close, not on Fastify's 72 s.
    const keepAliveTimeout = service.app.server.keepAliveTimeout;
    service.app.server.keepAliveTimeout = 100;
    try {
      const { port } = new URL(service.origin);
      const closed = new Promise<void>((resolve) => service.app.server.once('connection', (accepted: Socket) => accepted.once('close', () => resolve())));
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      const answered = new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))));
      socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
      await closed;
      socket.destroy();
    } finally {
      service.app.server.keepAliveTimeout = keepAliveTimeout;
    }
  });

  it('leaves alone a connection that is only waiting for its answer, however long that takes', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const body = JSON.stringify({ type: 'search', web: { type: 'search', results: [{ title: 'Late', url: 'https://late.example/', description: 'x' }] } });
    upstream.on('/brave/res/v1/web/search', {
      kind: 'handler',
      handle: (_request, response) => void released.then(() => response.writeHead(200, { 'content-type': 'application/json' }).end(body)),
    });
    // The connection's timeout passes while Brave is held: nothing is waiting to be sent, so it stays open.
    const timedOut = new Promise<void>((resolve) => service.app.server.once('timeout', () => resolve()));
    const answer = fetch(`${service.origin}/v1/search/web?q=slow+answer&providers=brave&timeout_ms=30000`);
    await timedOut;
    release();
    const response = await answer;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { results: unknown }).results).toMatchObject([{ url: 'https://late.example/' }]);
  });
});
