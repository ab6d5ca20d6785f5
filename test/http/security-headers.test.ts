import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

/** helmet 8's documented default headers (https://helmetjs.github.io/), CSP left off for the JSON API and the Swagger UI. */
const HELMET_DEFAULTS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'warn' });
  });
  afterAll(() => service.stop());

  it.each(['/healthz', '/v1/providers', '/v1/search/web?q=', '/no/such/path'])('%s carries helmet\'s default headers and no CSP', async (path) => {
    const response = await request(service.origin, path);
    for (const [name, value] of Object.entries(HELMET_DEFAULTS)) expect(response.headers.get(name), name).toBe(value);
    expect(response.headers.get('content-security-policy')).toBeNull();
  });

  it('gives the search page its own CSP on top of the same headers', async () => {
    const response = await request(service.origin, '/');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    for (const [name, value] of Object.entries(HELMET_DEFAULTS)) expect(response.headers.get(name), name).toBe(value);
  });
});
