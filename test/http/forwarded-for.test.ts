import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { request, startService, type RunningService } from '../support/service.js';

/**
 * Behind one proxy (CapRover's nginx, as the README deploys it) a caller's own X-Forwarded-For comes first and
 * the proxy appends the address it saw: `<whatever the caller wrote>, <caller>`. The test client plays both.
 */
function fromCaller(service: RunningService, written: string) {
  return request(service.origin, '/v1/providers', { headers: { 'x-forwarded-for': `${written}, 203.0.113.7` } });
}

describe('TRUST_PROXY=true and the per-address rate limit', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ TRUST_PROXY: 'true', RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('counts the address the proxy saw, not one the caller wrote into X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt += 1) statuses.push((await fromCaller(service, `10.0.0.${attempt}`)).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});

describe('TRUST_PROXY=2: a CDN in front of the proxy', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ TRUST_PROXY: '2', RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('counts the address the first proxy saw: two hops in, neither what the caller wrote nor the CDN', async () => {
    const statuses: number[] = [];
    // `<written>, <caller as the CDN saw it>, <the CDN as nginx saw it>`; the CDN's address is the same for everyone.
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const caller = attempt <= 2 ? '203.0.113.7' : `203.0.113.${attempt + 10}`;
      const response = await request(service.origin, '/v1/providers', { headers: { 'x-forwarded-for': `10.0.0.${attempt}, ${caller}, 198.51.100.1` } });
      statuses.push(response.status);
    }
    // The first caller twice, then two others: a limit of 2 per address refuses none of them.
    expect(statuses).toEqual([200, 200, 200, 200]);
    const third = await request(service.origin, '/v1/providers', { headers: { 'x-forwarded-for': `10.0.0.9, 203.0.113.7, 198.51.100.1` } });
    expect(third.status).toBe(429);
  });
});

describe('TRUST_PROXY values', () => {
  it('takes true, false or a number of proxies, and refuses anything else with what is allowed', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({}).TRUST_PROXY).toBe(0);
    expect(() => loadConfig({ TRUST_PROXY: 'loopback' })).toThrow(/TRUST_PROXY.*true \(one proxy in front\), false \(none\) or a whole number of proxies, 0–10/);
  });
});
