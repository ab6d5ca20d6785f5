import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

const KEY = 'fs-live-key-aaaaaaaaaaaaaaaa';

/**
 * Refused keys are counted by the per-address rate limit (MIN_API_KEY_LENGTH's reasoning rests on it): a wrong
 * key was answered 401 before the limiter ran, on every route, so guessing went as fast as the network allowed.
 */
describe('guessing API keys', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ API_KEYS: KEY, RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  const guess = (path: string, index: number) => request(service.origin, path, { headers: { 'x-api-key': `guess-${index}-0123456789abcdef` } });

  it('is turned away with 429 past RATE_LIMIT_MAX refusals from one address, on a route, an unknown path and /metrics', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 3; index += 1) statuses.push((await guess('/v1/providers', index)).status);
    expect(statuses).toEqual([401, 401, 401]);
    const limited = await guess('/v1/providers', 3);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    const body = await limited.json();
    expect(body.code).toBe('RATE_LIMITED');
    expect(Math.ceil(body.retry_after_ms / 1000)).toBe(Number(limited.headers.get('retry-after')));
    // A valid key from 127.0.0.1 has a count of its own; a 404 only tells a caller with a right key that it is right.
    expect((await guess('/no-such-route', 4)).status).toBe(429);
    expect((await guess('/metrics', 5)).status).toBe(429);
    expect((await request(service.origin, '/v1/providers', { headers: { 'x-api-key': KEY } })).status).toBe(200);
    expect((await request(service.origin, '/healthz')).status).toBe(200);
  });
});

/** METRICS_TOKEN guards /metrics on its own (an open path otherwise not counted): a wrong token is a refusal too. */
describe('guessing METRICS_TOKEN', () => {
  const TOKEN = 'metrics-token-abcdef';
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ METRICS_TOKEN: TOKEN, RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  const scrape = (token: string) => request(service.origin, '/metrics', { headers: { authorization: `Bearer ${token}` } });

  it('is turned away with 429 past RATE_LIMIT_MAX wrong tokens from one address, while the right token is still served', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await scrape(`wrong-${index}-token`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // The scraper with the right token is not counted: a scrape every few seconds must never be refused.
    for (let index = 0; index < 4; index += 1) expect((await scrape(TOKEN)).status).toBe(200);
  });
});
