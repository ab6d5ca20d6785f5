import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

type Line = Record<string, unknown> & { msg?: string };

const API_KEY = 'unfinished-body-key-0123456789';
const METRICS_TOKEN = 'unfinished-body-metrics-0123';
const POST_SEARCH = 'fedsearch_http_requests_total{method="POST",route="/v1/ops/web_search"';

/** The request counters of a scrape (the scrapes' own left out): series → value. */
async function requestCounts(service: RunningService): Promise<Record<string, number>> {
  const text = await (await request(service.origin, '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('fedsearch_http_requests_') || line.includes('route="/metrics"')) continue;
    counts[line.slice(0, line.lastIndexOf(' '))] = Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return counts;
}

/**
 * Sends a POST's head (to `path`, the search operation's unless given) and the start of its 1000-byte body, then, once `after` (an answer, or none) has come, ends its
 * side of the connection (`end`) or sends nothing more (`stall`). Resolves with every byte the server sent, once it
 * has closed the connection.
 */
function unfinishedPost(
  service: RunningService,
  headers: string,
  { after, then, path = '/v1/ops/web_search' }: { after: 'answer' | 'nothing'; then: 'end' | 'stall'; path?: string },
): Promise<string> {
  const { port } = new URL(service.origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"q":"unfin`);
      if (after === 'nothing' && then === 'end') socket.end();
    });
    let received = '';
    socket.on('data', (chunk) => {
      const first = received === '';
      received += chunk.toString('latin1');
      if (first && after === 'answer' && then === 'end') socket.end();
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

/**
 * A chunked POST whose second chunk's size is not hexadecimal (`badChunk`, sent apart): Node's parser gives up in the
 * middle of the body.
 */
function malformedChunkedPost(service: RunningService, badChunk = 'zz\r\n"x"}\r\n0\r\n\r\n'): Promise<string> {
  const { port } = new URL(service.origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(`POST /v1/ops/web_search HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"q":\r\n`);
      // Apart, so the app holds the request (its head read) before the bad chunk arrives.
      setImmediate(() => socket.write(badChunk));
    });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

function linesOf(service: RunningService): Line[] {
  return service.logs.map((line) => JSON.parse(line) as Line);
}

/**
 * A request whose head the app has read is counted and logged once: as the app answered it, as aborted when its client
 * left first, or as Node's refusal when its body came too late or malformed. What its client does with the rest of its
 * body must not add a refusal of its own, nor count a client that was answered as one that left.
 */
describe('a request whose body is left unfinished', () => {
  const services: RunningService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop()));
  });

  it.each(['end', 'stall'] as const)('after its answer (%s) is counted and logged once, as answered', async (then) => {
    const service = await startService({ API_KEYS: API_KEY, METRICS_TOKEN, REQUEST_TIMEOUT_MS: '1000' });
    services.push(service);
    // No key: refused 401 before its body is read.
    const received = await unfinishedPost(service, '', { after: 'answer', then });
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    // One answer, not a second one for the rest of the body.
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(await requestCounts(service)).toEqual({ [`${POST_SEARCH},status_code="401"}`]: 1 });
    await service.stop();
    const lines = linesOf(service);
    expect(lines.filter((line) => line.msg === 'request completed')).toEqual([expect.objectContaining({ res: { statusCode: 401 } })]);
    expect(lines.filter((line) => /refused|aborted/.test(line.msg ?? ''))).toEqual([]);
  }, 15_000);

  it('that its client ends before sending it all is counted as aborted by the client, once', async () => {
    const service = await startService({ METRICS_TOKEN });
    services.push(service);
    const received = await unfinishedPost(service, '', { after: 'nothing', then: 'end' });
    // Nobody left to answer.
    expect(received).toBe('');
    await expect.poll(() => requestCounts(service), { timeout: 10_000 }).toEqual({ 'fedsearch_http_requests_aborted_total{method="POST",route="/v1/ops/web_search"}': 1 });
    await service.stop();
    const lines = linesOf(service);
    expect(lines.filter((line) => line.msg === 'request aborted by the client')).toHaveLength(1);
    expect(lines.filter((line) => /refused/.test(line.msg ?? ''))).toEqual([]);
  });

  it('that Node cannot parse is answered 400 and counted once, under its method and route, not also as aborted by its client', async () => {
    const service = await startService({ METRICS_TOKEN });
    services.push(service);
    const received = await malformedChunkedPost(service);
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    // Its request line was read: the app holds the request, and knows its method and route.
    expect(await requestCounts(service)).toEqual({ [`${POST_SEARCH},status_code="400"}`]: 1 });
    await service.stop();
    expect(linesOf(service).filter((line) => line.msg === 'request aborted by the client')).toEqual([]);
  });

  it('that Node cannot parse is logged as a malformed body, with its method and route, not as bytes never read as HTTP', async () => {
    const service = await startService({});
    services.push(service);
    // The piece Node gives up on looks like a request line: it is the body's, and no line may quote it as the request's.
    const received = await malformedChunkedPost(service, 'POST /from-the-body?note=body-text HTTP/1.1\r\n\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    const requestId = /\r\nx-request-id: ([^\r]*)\r\n/i.exec(received)?.[1];
    await service.stop();
    const lines = linesOf(service);
    expect(lines.filter((line) => /^request refused/.test(line.msg ?? ''))).toEqual([
      expect.objectContaining({ msg: 'request refused: its body was malformed', reqId: requestId, statusCode: 400, method: 'POST', route: '/v1/ops/web_search' }),
    ]);
    expect(lines.filter((line) => JSON.stringify(line).includes('body-text'))).toEqual([]);
  });

  it('that does not arrive within REQUEST_TIMEOUT_MS is answered 408 and counted once, under its method and route, not also as aborted by its client', async () => {
    const service = await startService({ METRICS_TOKEN, REQUEST_TIMEOUT_MS: '1000' });
    services.push(service);
    const received = await unfinishedPost(service, '', { after: 'nothing', then: 'stall' });
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(await requestCounts(service)).toEqual({ [`${POST_SEARCH},status_code="408"}`]: 1 });
    await service.stop();
    const lines = linesOf(service);
    // Its head was read as HTTP: what did not come in time was its body.
    expect(lines.filter((line) => /^request refused/.test(line.msg ?? ''))).toEqual([
      expect.objectContaining({
        msg: 'request refused: its body did not arrive in time',
        reqId: /\r\nx-request-id: ([^\r]*)\r\n/i.exec(received)?.[1],
        statusCode: 408,
        code: 'ERR_HTTP_REQUEST_TIMEOUT',
        method: 'POST',
        route: '/v1/ops/web_search',
      }),
    ]);
    expect(lines.filter((line) => line.msg === 'request aborted by the client')).toEqual([]);
  }, 15_000);

  it('to a path no route serves, not in within REQUEST_TIMEOUT_MS, is counted 408 under its method and the unmatched route', async () => {
    const service = await startService({ METRICS_TOKEN, REQUEST_TIMEOUT_MS: '1000' });
    services.push(service);
    // A POST's 404 waits for its body, as every POST's answer does.
    const received = await unfinishedPost(service, '', { after: 'nothing', then: 'stall', path: '/no/such/path?attempt=1' });
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(await requestCounts(service)).toEqual({ 'fedsearch_http_requests_total{method="POST",route="unmatched",status_code="408"}': 1 });
  }, 15_000);
});
