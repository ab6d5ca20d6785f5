import { once } from 'node:events';
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { endArrivingRequest } from '../../src/http/client-error.js';
import type { RequestLabels } from '../../src/observability/request-observation.js';
import { startService, type RunningService } from '../support/service.js';

/** Far under REQUEST_TIMEOUT_MS's default 30 s (and the up to 30 s more before Node checks it), which held close() before. */
const CLOSE_BOUND_MS = 5000;

/** Resolves with close()'s duration, or rejects once the bound has passed: a close held open fails here, not at the test's timeout. */
async function closeWithin(service: RunningService, boundMs: number): Promise<number> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`close() still open after ${boundMs} ms`)), boundMs);
  });
  try {
    await Promise.race([service.stop(), bound]);
    return performance.now() - started;
  } finally {
    clearTimeout(timer);
  }
}

/** The status, headers and body of the first answer in what a socket received. */
function firstAnswer(text: string): { status: number; headers: Record<string, string>; body: string } {
  const headEnd = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(headEnd + 4, headEnd + 4 + Number(headers['content-length'])) };
}

interface Arrival {
  socket: net.Socket;
  received: () => string;
  closed: Promise<unknown>;
}

/** Opens a connection and sends `text`: a request's head and whatever part of its body the case sends, then nothing more. */
async function sendUnfinished(service: RunningService, text: string): Promise<Arrival> {
  const { port } = new URL(service.origin);
  const socket = net.connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = once(socket, 'close');
  socket.write(text);
  return { socket, received: () => received, closed };
}

const head = (target: string, id: string, framing: string) =>
  `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: ${id}\r\nContent-Type: application/json\r\n${framing}\r\n`;

describe('a request still arriving when the shutdown begins', () => {
  it.each([
    { name: 'a known route, its body cut off', id: 'arriving-known-1', text: head('/v1/ops/web_search', 'arriving-known-1', 'Content-Length: 1000\r\n') + '{"query":"' },
    { name: 'an unknown path, its body cut off', id: 'arriving-unknown-1', text: head('/no/such/path', 'arriving-unknown-1', 'Content-Length: 1000\r\n') + '{"query":"' },
    { name: 'a chunked body whose next chunk never comes', id: 'arriving-chunked-1', text: head('/v1/ops/web_search', 'arriving-chunked-1', 'Transfer-Encoding: chunked\r\n') + '9\r\n{"query":\r\n' },
    { name: 'a body that never starts', id: 'arriving-no-body-1', text: head('/v1/ops/web_search', 'arriving-no-body-1', 'Content-Length: 1000\r\n') },
  ])('$name: is answered 503 SHUTTING_DOWN with its own request id, its connection ended, and does not hold the close', async ({ id, text }) => {
    const service = await startService({ LOG_LEVEL: 'info' });
    // Node's own event for a request whose head it has read, the point from which the app holds the request.
    const handedToApp = once(service.app.server, 'request');
    const arrival = await sendUnfinished(service, text);
    try {
      await handedToApp;
      await closeWithin(service, CLOSE_BOUND_MS);
      await arrival.closed;
    } finally {
      arrival.socket.destroy();
    }
    const answer = firstAnswer(arrival.received());
    expect(answer.status).toBe(503);
    expect(answer.headers.connection).toBe('close');
    // The id the caller sent is the one the app took for this request: the answer and the log line quote it.
    expect(answer.headers['x-request-id']).toBe(id);
    // Field for field the envelope the app's own hook answers a request arriving while it closes with (closing-refusal.test.ts).
    expect(JSON.parse(answer.body)).toEqual({ statusCode: 503, error: 'Service Unavailable', code: 'SHUTTING_DOWN', message: expect.stringContaining('shutting down'), request_id: id });
    const lines = service.logs.map((line) => JSON.parse(line) as { reqId?: string; msg?: string });
    expect(lines.filter((line) => line.reqId === id).map((line) => line.msg)).toEqual(['request rejected: still arriving when the shutdown began']);
  }, 15_000);

  it.each([
    { path: '/mcp', id: 'arriving-mcp-1', target: '/mcp' },
    { path: '/messages', id: 'arriving-messages-1', target: '/messages?sessionId=abc' },
  ])('on $path: the 503 is a JSON-RPC error with SHUTTING_DOWN and its request id in data, as every other MCP refusal', async ({ id, target }) => {
    const service = await startService({ LOG_LEVEL: 'info' });
    const handedToApp = once(service.app.server, 'request');
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"';
    const arrival = await sendUnfinished(service, head(target, id, 'Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n') + body);
    try {
      await handedToApp;
      await closeWithin(service, CLOSE_BOUND_MS);
      await arrival.closed;
    } finally {
      arrival.socket.destroy();
    }
    const answer = firstAnswer(arrival.received());
    expect(answer.status).toBe(503);
    expect(answer.headers['x-request-id']).toBe(id);
    // An MCP client parses a JSON-RPC error, and finds our code in data; REST's envelope it cannot read.
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32603, message: expect.stringContaining('shutting down'), data: { code: 'SHUTTING_DOWN', request_id: id } },
    });
  }, 15_000);

  it('its head cut off before its end: the connection is ended soon after the shutdown begins, not held for the grace', async () => {
    const service = await startService({ LOG_LEVEL: 'info' });
    const arrival = await sendUnfinished(service, 'POST /v1/ops/web_search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty');
    try {
      // A request on another connection, answered after those bytes were sent: the server has read them by then.
      expect((await fetch(`${service.origin}/healthz`)).status).toBe(200);
      await closeWithin(service, CLOSE_BOUND_MS);
      await arrival.closed;
      expect(arrival.received()).toBe('');
    } finally {
      arrival.socket.destroy();
    }
  }, 15_000);

  it('answered already before its body came: its connection is ended, nothing more is sent, the close is not held', async () => {
    const service = await startService({ LOG_LEVEL: 'info' });
    const arrival = await sendUnfinished(service, 'GET /no/such/path HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\nabc');
    try {
      await expect.poll(() => arrival.received()).toMatch(/\r\n\r\n\{.*\}$/s);
      const answered = arrival.received();
      await closeWithin(service, CLOSE_BOUND_MS);
      await arrival.closed;
      expect(firstAnswer(answered).status).toBe(404);
      expect(arrival.received()).toBe(answered);
    } finally {
      arrival.socket.destroy();
    }
  }, 15_000);

  // The app's preClose hook hands each open connection to endArrivingRequest, whose count goes to the metrics; a
  // service that has closed serves no scrape, so the count is read here, from the same call on a live connection.
  it.each([
    { name: 'a known route', target: '/v1/ops/web_search', labels: { method: 'POST', route: '/v1/ops/web_search' } },
    { name: 'an unknown path', target: '/no/such/path?attempt=1', labels: { method: 'POST', route: 'unmatched' } },
    { name: 'an MCP route', target: '/mcp', labels: { method: 'POST', route: '/mcp' } },
  ])('$name: its 503 is counted under its own method and route, not as a request Node could not read', async ({ target, labels }) => {
    const service = await startService({ LOG_LEVEL: 'silent' });
    const handedToApp = once(service.app.server, 'request') as Promise<[IncomingMessage]>;
    const arrival = await sendUnfinished(service, head(target, 'arriving-count-1', 'Content-Length: 1000\r\n') + '{"query":"');
    const counts: Array<{ labels: RequestLabels; statusCode: number }> = [];
    try {
      const [held] = await handedToApp;
      const ended = endArrivingRequest(held.socket, service.app.log, (counted, statusCode) => counts.push({ labels: counted, statusCode }));
      expect(ended).toBe(true);
      await arrival.closed;
    } finally {
      arrival.socket.destroy();
      await service.stop();
    }
    expect(firstAnswer(arrival.received()).status).toBe(503);
    expect(counts).toEqual([{ labels, statusCode: 503 }]);
  }, 15_000);
});
