import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

type Line = Record<string, unknown> & { reqId?: string; msg?: string; level?: number };

const INFO = 30;
const DEBUG = 20;
const BRAVE = '/brave/res/v1/web/search';

function linesOf(service: RunningService, requestId: string): Line[] {
  return service.logs.map((line) => JSON.parse(line) as Line).filter((line) => line.reqId === requestId);
}

/** Tests read the lines after stopping the service: a request's line is written when its answer is done, which close() waits for. */
async function get(service: RunningService, path: string, requestId: string): Promise<number> {
  const response = await request(service.origin, path, { headers: { 'x-request-id': requestId } });
  await response.arrayBuffer();
  return response.status;
}

/** A GET whose path is sent byte for byte (node:http keeps a # that fetch would drop). */
function rawGet(service: RunningService, path: string, requestId: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${service.origin}/`, { path, headers: { 'x-request-id': requestId } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the request log line', () => {
  const services: RunningService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop()));
  });

  it('is one line per request, with what it asked, how it ended and how long it took', async () => {
    const service = await startService({ LOCAL_WEIGHT: '1' });
    services.push(service);
    expect(await get(service, '/v1/search/web?q=rust&providers=local', 'id-search')).toBe(200);
    expect(await get(service, '/v1/search/web?q=rust&api_key=caller-secret-0123456789', 'id-refused')).toBe(400);
    expect(await get(service, '/nowhere', 'id-missing')).toBe(404);
    await service.stop();

    const [line, ...others] = linesOf(service, 'id-search');
    expect(others).toEqual([]);
    expect(line).toMatchObject({
      level: INFO,
      msg: 'request completed',
      req: { method: 'GET', url: '/v1/search/web?q=rust&providers=local' },
      route: '/v1/search/web',
      ip: '127.0.0.1',
      res: { statusCode: 200 },
    });
    expect(typeof line!.responseTime).toBe('number');
    // A refused request has its line too (after the error handler's), with a key put in its URL redacted.
    expect(linesOf(service, 'id-refused').at(-1)).toMatchObject({ req: { url: '/v1/search/web?q=rust&api_key=[redacted]' }, res: { statusCode: 400 } });
    expect(JSON.stringify(service.logs)).not.toContain('caller-secret-0123456789');
    expect(linesOf(service, 'id-missing')).toEqual([expect.objectContaining({ route: 'unmatched', res: { statusCode: 404 }, level: INFO })]);
  });

  it('redacts a key written after a #, which the router reads as the start of the query string', async () => {
    const service = await startService({});
    services.push(service);
    // Sent as raw as a hand-written client sends it: fetch and undici drop what follows a #.
    const answer = await rawGet(service, '/v1/search/web#api_key=caller-secret-fragment-0123&q=rust&providers=local', 'id-fragment');
    // Read as parameters, not as part of the path: the key is a field the route refuses.
    expect(answer).toMatchObject({ status: 400, body: expect.stringContaining('api_key: not a known field') });
    await service.stop();
    expect(linesOf(service, 'id-fragment').at(-1)).toMatchObject({ req: { url: '/v1/search/web#api_key=[redacted]&q=rust&providers=local' } });
    expect(JSON.stringify(service.logs)).not.toContain('caller-secret-fragment-0123');
  });

  it('leaves probes and scrapes that succeed to debug, so the platform polling them fills no log at info', async () => {
    const quiet = await startService({});
    const chatty = await startService({ LOG_LEVEL: 'debug' });
    services.push(quiet, chatty);
    for (const service of [quiet, chatty]) {
      for (const path of ['/healthz', '/readyz', '/metrics']) expect(await get(service, path, `id-${path.slice(1)}`)).toBe(200);
      await service.stop();
    }
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect(linesOf(quiet, `id-${path.slice(1)}`)).toEqual([]);
      expect(linesOf(chatty, `id-${path.slice(1)}`)).toEqual([expect.objectContaining({ level: DEBUG, route: path, msg: 'request completed' })]);
    }
  });
});

describe('the request log line of a client that left', () => {
  let upstream: FakeUpstream | undefined;
  let service: RunningService | undefined;
  afterEach(async () => {
    await service?.stop();
    await upstream?.stop();
  });

  it('is written when the client goes away before its answer, saying so, with what it asked', async () => {
    upstream = await startFakeUpstream();
    const arrived = new Promise<void>((resolve) => upstream!.on(BRAVE, { kind: 'handler', handle: () => resolve() }));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-left-key-0123456789', LOG_LEVEL: 'info' });
    const leaving = new AbortController();
    const answer = request(service.origin, '/v1/search/web?q=left&providers=brave', { headers: { 'x-request-id': 'id-left' }, signal: leaving.signal });
    await arrived;
    leaving.abort();
    await expect(answer).rejects.toThrow();
    // The service hears of the closed connection on its own time: polled for, not waited out.
    const left = service;
    await expect.poll(() => linesOf(left, 'id-left').find((line) => line.msg === 'request aborted by the client'), { timeout: 10_000 }).toMatchObject({
      level: INFO,
      req: { method: 'GET', url: '/v1/search/web?q=left&providers=brave' },
      route: '/v1/search/web',
    });
  });
});
