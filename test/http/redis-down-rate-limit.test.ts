import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { request, startService, type RunningService } from '../support/service.js';

/**
 * REDIS_URL's documented fallback is "the local cache and per-replica limits". While Redis was away the per-client
 * limit was not counted at all, so an outage (or any failed command, for the pause after it) lifted RATE_LIMIT_MAX
 * for every caller, just when the paid providers' quota had nothing else in front of it.
 */
describe('the per-client rate limit while Redis is down', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, RATE_LIMIT_MAX: '3', LOG_LEVEL: 'warn' });
  });
  afterAll(() => service.stop());

  it('counts each caller in this replica instead, and refuses past RATE_LIMIT_MAX with 429', async () => {
    // The outage is known (the first connection refused) long before any real caller comes.
    await expect.poll(() => service.logs.some((line) => line.includes('rate limits: Redis unavailable'))).toBe(true);
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const response = await request(service.origin, '/v1/providers');
      statuses.push(response.status);
      remaining.push(response.headers.get('x-ratelimit-remaining') ?? '');
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(remaining.slice(0, 3)).toEqual(['2', '1', '0']);
  });
});
