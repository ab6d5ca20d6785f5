import { afterEach, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

type Line = Record<string, unknown> & { reqId?: string; msg?: string; level?: number };

const INFO = 30;
const DEBUG = 20;

function linesOf(service: RunningService, requestId: string): Line[] {
  return service.logs.map((line) => JSON.parse(line) as Line).filter((line) => line.reqId === requestId);
}

/** Tests read the lines after stopping the service: a request's line is written when its answer is done, which close() waits for. */
async function get(service: RunningService, path: string, requestId: string): Promise<number> {
  const response = await request(service.origin, path, { headers: { 'x-request-id': requestId } });
  await response.arrayBuffer();
  return response.status;
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
