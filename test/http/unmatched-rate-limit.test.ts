import { afterEach, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

const FIRST_KEY = 'fs-first-key-aaaaaaaaaaaaaaaa';
const SECOND_KEY = 'fs-second-key-bbbbbbbbbbbbbbb';

/**
 * Requests no route serves (an unknown path, a known one with another method) are counted by the per-client rate
 * limit like any other: the limiter's own hook runs on routes only, so a scanner's paths went uncounted at any rate,
 * each answered and logged (a line as long as its URL, up to the 16 KB a request head may hold).
 */
describe('the per-client rate limit and paths no route serves', () => {
  const services: RunningService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop()));
  });

  it('counts unknown paths and wrong methods, and turns the caller away with 429 past RATE_LIMIT_MAX, searches too', async () => {
    const service = await startService({ LOCAL_WEIGHT: '1', RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
    services.push(service);
    const statuses: number[] = [];
    for (const [method, path] of [
      ['GET', `/nowhere-${'a'.repeat(8000)}`],
      ['PUT', '/v1/search/web'],
      ['GET', '/web/no-such-file.js'],
    ] as const) {
      statuses.push((await request(service.origin, path, { method })).status);
    }
    expect(statuses).toEqual([404, 405, 404]);
    const limited = await request(service.origin, '/nowhere-else');
    expect(limited.status).toBe(429);
    const body = await limited.json();
    expect(body.code).toBe('RATE_LIMITED');
    expect(Math.ceil(body.retry_after_ms / 1000)).toBe(Number(limited.headers.get('retry-after')));
    // One budget for the caller, whatever it spent it on.
    expect((await request(service.origin, '/v1/search/web?q=rust&providers=local')).status).toBe(429);
    // Probes stay open.
    expect((await request(service.origin, '/healthz')).status).toBe(200);
  });

  it('counts paths refused before routing (a malformed escape), with the 429 in the error envelope and its headers', async () => {
    const service = await startService({ LOCAL_WEIGHT: '1', RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
    services.push(service);
    expect((await request(service.origin, `/%zz-${'a'.repeat(8000)}`)).status).toBe(400);
    expect((await request(service.origin, '/v1/search/%zz')).status).toBe(400);
    const limited = await request(service.origin, '/%zz-again', { headers: { 'x-request-id': 'escape-past-limit' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-request-id')).toBe('escape-past-limit');
    expect(limited.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await limited.json();
    expect(body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', request_id: 'escape-past-limit' });
    expect(Math.ceil(body.retry_after_ms / 1000)).toBe(Number(limited.headers.get('retry-after')));
    expect((await request(service.origin, '/v1/search/web?q=rust&providers=local')).status).toBe(429);
    // Counted as answered, under the label every request refused before routing shares.
    const scrape = await (await request(service.origin, '/metrics')).text();
    expect(scrape).toContain('fedsearch_http_requests_total{method="GET",route="unmatched",status_code="429"} 1');
  });

  it('counts a valid key\'s unknown paths against that key, not against another key from the same address', async () => {
    const service = await startService({ API_KEYS: `${FIRST_KEY},${SECOND_KEY}`, RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
    services.push(service);
    const withKey = (key: string, path: string) => request(service.origin, path, { headers: { 'x-api-key': key } });
    expect((await withKey(FIRST_KEY, '/nowhere-1')).status).toBe(404);
    expect((await withKey(FIRST_KEY, '/nowhere-2')).status).toBe(404);
    expect((await withKey(FIRST_KEY, '/nowhere-3')).status).toBe(429);
    expect((await withKey(SECOND_KEY, '/nowhere-4')).status).toBe(404);
    expect((await withKey(SECOND_KEY, '/v1/providers')).status).toBe(200);
  });

  it('counts a request no route serves that is refused before the not-found handler: a malformed escape in its query, a body not JSON or too large', async () => {
    const service = await startService({ LOCAL_WEIGHT: '1', RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000', BODY_LIMIT_BYTES: '2048', LOG_LEVEL: 'silent' });
    services.push(service);
    const json = { 'content-type': 'application/json' };
    const statuses = [
      (await request(service.origin, `/nowhere?q=${'a'.repeat(8000)}%E0%A4%A`)).status,
      (await request(service.origin, '/nowhere', { method: 'POST', headers: json, body: '{"q": ' })).status,
      (await request(service.origin, '/nowhere', { method: 'POST', headers: json, body: JSON.stringify({ q: 'x'.repeat(4096) }) })).status,
    ];
    expect(statuses).toEqual([400, 400, 413]);
    const limited = await request(service.origin, '/v1/providers');
    expect(limited.status).toBe(429);
    expect((await limited.json()).code).toBe('RATE_LIMITED');
  });

  it('counts each such request once, and a served route\'s refused body once (by the limiter\'s own hook)', async () => {
    const service = await startService({ LOCAL_WEIGHT: '1', RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
    services.push(service);
    const badJson = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' };
    expect((await request(service.origin, '/nowhere', badJson)).status).toBe(400);
    expect((await request(service.origin, '/v1/ops/fetch_url', badJson)).status).toBe(400);
    const limited = await request(service.origin, '/nowhere', badJson);
    expect(limited.status).toBe(429);
    expect((await limited.json()).code).toBe('RATE_LIMITED');
  });

  it('counts a CORS preflight for a path no route serves, and no preflight for a route', async () => {
    const service = await startService({ LOCAL_WEIGHT: '1', CORS_ORIGINS: 'https://app.example', RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
    services.push(service);
    const preflight = (path: string) =>
      request(service.origin, path, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
    // A browser's preflights before its requests to a route are not its requests: they cost it none of its budget.
    for (let sent = 0; sent < 3; sent += 1) expect((await preflight('/v1/search/web?q=rust')).status).toBe(204);
    const unserved = await preflight(`/nowhere-${'a'.repeat(8000)}`);
    expect(unserved.status).toBe(404);
    expect(unserved.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight('/nowhere-else')).status).toBe(404);
    expect((await preflight('/nowhere-again')).status).toBe(429);
    expect((await request(service.origin, '/v1/providers')).status).toBe(429);
  });
});
