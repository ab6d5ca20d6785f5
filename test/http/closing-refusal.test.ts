import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdAnswer } from '../server/server-process.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService } from '../support/service.js';

/** Splits what a socket received into its answers: status line, headers, body (each sent with Content-Length). */
function answersIn(text: string): Array<{ status: number; headers: Record<string, string>; body: string }> {
  const answers = [];
  let rest = text;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length']);
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(headEnd + 4, headEnd + 4 + length) });
    rest = rest.slice(headEnd + 4 + length);
  }
  return answers;
}

describe('a request that reaches the service while it closes', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.stop());

  it('is answered 503 SHUTTING_DOWN in the error envelope, with a request id, after the request in flight before it', async () => {
    const held = holdAnswer(JSON.stringify({ web: { results: [{ title: 'Finished', url: 'https://done.example/' }] } }));
    upstream.on('/brave/res/v1/web/search', held.behaviour);
    const service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', LOG_LEVEL: 'silent' });
    const { port } = new URL(service.origin);
    const search = fetch(`${service.origin}/v1/search/web?q=slow&providers=brave`);
    // A request whose headers are still arriving as close() begins: Node keeps its connection, as it is not idle.
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise<void>((resolve) => socket.write(`GET /v1/providers HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`, () => resolve()));
    try {
      await held.reached;
      const stopped = service.stop();
      await expect.poll(() => service.app.readiness.ready).toBe(false);
      socket.write('Accept: application/json\r\n\r\n');
      await closed;
      held.release();
      expect((await search).status).toBe(200);
      await stopped;
    } finally {
      held.release();
      socket.destroy();
    }
    const [second] = answersIn(received);
    expect(second?.status).toBe(503);
    expect(second?.headers.connection).toBe('close');
    expect(second?.headers['x-request-id']).toMatch(/\S/);
    expect(JSON.parse(second!.body)).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'SHUTTING_DOWN',
      message: expect.stringContaining('shutting down'),
      request_id: second?.headers['x-request-id'],
    });
  });
});
