import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

/** A known path asked with a method it does not take is a 405 that lists the methods it does, not "no route". */
describe('a method a route does not take', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it.each([
    ['PUT', '/v1/search/web', 'GET, HEAD, POST'],
    ['GET', '/v1/ops/web_search', 'POST'],
    ['DELETE', '/v1/providers?kind=web', 'GET, HEAD'],
  ])('%s %s is a 405 with Allow: %s, in the error envelope', async (method, path, allowed) => {
    const response = await request(service.origin, path, { method });
    const body = await response.json();
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allowed);
    expect(body).toEqual({
      statusCode: 405,
      error: 'Method Not Allowed',
      code: 'METHOD_NOT_ALLOWED',
      message: `method: ${method} is not served at ${path.split('?')[0]}; allowed: ${allowed}`,
      request_id: response.headers.get('x-request-id'),
    });
  });

  it('still answers 404 for a path no route serves', async () => {
    const response = await request(service.origin, '/v1/search/everything', { method: 'PUT' });
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe('NOT_FOUND');
  });

  it('names a long unknown path by its start only, not all the kilobytes the caller sent', async () => {
    const path = `/v1/${'x'.repeat(8_000)}`;
    const response = await request(service.origin, path);
    expect(response.status).toBe(404);
    const { message } = (await response.json()) as { message: string };
    expect(message.length).toBeLessThan(200);
    expect(message).toContain('no route GET /v1/xxx');
  });
});

describe('an OPTIONS request that is no CORS preflight, with CORS_ORIGINS set', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', CORS_ORIGINS: 'https://app.example' });
  });
  afterAll(() => service.stop());

  it('gets the error envelope (405 with Allow), not the CORS plugin\'s text/plain 400', async () => {
    const response = await request(service.origin, '/v1/providers', { method: 'OPTIONS' });
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ statusCode: 405, code: 'METHOD_NOT_ALLOWED' });
  });

  it('still answers a preflight from the configured origin', async () => {
    const response = await request(service.origin, '/v1/providers', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const simple = await request(service.origin, '/v1/providers', { headers: { origin: 'https://app.example' } });
    expect(simple.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(simple.headers.get('access-control-expose-headers')).toContain('x-request-id');
  });
});
