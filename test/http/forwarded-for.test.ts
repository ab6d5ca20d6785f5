import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
