import net from 'node:net';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE_MESSAGE } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';

/** A GET whose head promises a body that never arrives in full, read raw: what the server writes, and when it hangs up. */
interface UnfinishedGet {
  received(): string;
  closed: Promise<void>;
  destroy(): void;
}

function unfinishedGet(origin: string, target: string, requestId: string): UnfinishedGet {
  const { port } = new URL(origin);
  let received = '';
  const socket = net.connect(Number(port), '127.0.0.1', () => {
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nX-Request-Id: ${requestId}\r\nContent-Length: 1000\r\n\r\nabc`);
  });
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  return { received: () => received, closed, destroy: () => socket.destroy() };
}

/**
 * A request whose body is still arriving when REQUEST_TIMEOUT_MS passes, while its answer already streams (a search
 * stream's events, an MCP SSE session): the 200 and its events stay the only answer on the connection, with no raw
 * 408 written into the middle of them, and no 408 counted for a request answered 200.
 */
describe('a streamed answer whose request body never finishes arriving', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const heldBrave: ServerResponse[] = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, { kind: 'handler', handle: (_request, response) => void heldBrave.push(response) });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-unfinished-body-key-0123', REQUEST_TIMEOUT_MS: '1000', LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  /** Whether the service has logged the request's body timing out (a line with its id and Node's timeout code). */
  const timedOut = (requestId: string): boolean =>
    service.logs.some((line) => {
      const parsed = JSON.parse(line) as { reqId?: string; code?: string };
      return parsed.reqId === requestId && parsed.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    });

  const refusalsCounted = async (route: string): Promise<string[]> =>
    (await (await request(service.origin, '/metrics')).text())
      .split('\n')
      .filter((line) => line.startsWith('fedsearch_http_requests_total{') && line.includes(`route="${route}"`) && line.includes('status="408"'));

  it('on a search stream: the stream goes on to its done event, alone on the connection, which ends with it', async () => {
    const requestId = 'unfinished-stream-body-1';
    const stream = unfinishedGet(service.origin, '/v1/search/web/stream?q=unfinished+body&providers=brave', requestId);
    await expect.poll(() => stream.received()).toContain('fedsearch search stream');
    await expect.poll(() => timedOut(requestId), { timeout: 5000 }).toBe(true);
    await expect.poll(() => heldBrave.length).toBe(1);
    heldBrave[0]!.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ web: { results: [{ title: 'Kept', url: 'https://kept.example/' }] } }));
    await stream.closed;
    const received = stream.received();
    expect(received.match(/HTTP\/1\.1 /g)).toEqual(['HTTP/1.1 ']);
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain('event: done');
    expect(received).toContain('https://kept.example/');
    expect(await refusalsCounted('/v1/search/web/stream')).toEqual([]);
  }, 15_000);

  it('on an MCP SSE session: nothing but its events is written on it', async () => {
    const requestId = 'unfinished-sse-body-1';
    const session = unfinishedGet(service.origin, '/sse', requestId);
    try {
      await expect.poll(() => session.received()).toContain('event: endpoint');
      await expect.poll(() => timedOut(requestId), { timeout: 5000 }).toBe(true);
      // The session still answers on its stream, after anything written on it when the body timed out.
      const endpoint = /event: endpoint\ndata: (\S+)\n/.exec(session.received())![1]!;
      const posted = await fetch(new URL(endpoint, service.origin), { method: 'POST', headers: { 'content-type': 'application/json' }, body: INITIALIZE_MESSAGE });
      expect(posted.status).toBe(202);
      await expect.poll(() => session.received()).toContain('"protocolVersion"');
      const received = session.received();
      expect(received.match(/HTTP\/1\.1 /g)).toEqual(['HTTP/1.1 ']);
      expect(received).not.toContain('REQUEST_TIMEOUT');
      expect(await refusalsCounted('/sse')).toEqual([]);
    } finally {
      session.destroy();
    }
  }, 15_000);
});
