import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

/**
 * One IPv6 host holds a whole /64: counted per address, a caller rotating through it passed the per-address
 * rate limit (and the MCP session cap) as often as it liked. The test client plays the proxy (TRUST_PROXY=true),
 * which appends the address it saw to X-Forwarded-For.
 */
function from(service: RunningService, address: string) {
  return request(service.origin, '/v1/providers', { headers: { 'x-forwarded-for': address } });
}

describe('the per-address rate limit and IPv6 callers', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ TRUST_PROXY: 'true', RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('counts the addresses of one /64 as one caller, and another /64 apart', async () => {
    const statuses: number[] = [];
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2::beef:1', '2001:db8:1:2:ffff:ffff:ffff:ffff']) {
      statuses.push((await from(service, address)).status);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect((await from(service, '2001:db8:1:3::1')).status).toBe(200);
  });

  it('counts an IPv4-mapped address as its IPv4 address, not with every other IPv4 caller', async () => {
    expect((await from(service, '::ffff:198.51.100.1')).status).toBe(200);
    expect((await from(service, '198.51.100.1')).status).toBe(200);
    expect((await from(service, '::ffff:198.51.100.1')).status).toBe(429);
    expect((await from(service, '::ffff:198.51.100.2')).status).toBe(200);
  });
});
