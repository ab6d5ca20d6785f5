import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

/** A number in a query string is one written in decimal, as the document's integer type says; nothing else is read as one. */
describe('numbers in a query string', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it.each(['0x10', '0b11', '%205%20', '1_0'])('refuses limit=%s with a 400 naming limit', async (limit) => {
    const response = await request(service.origin, `/v1/search/web?q=fusion&providers=local&limit=${limit}`);
    const body = await response.json();
    expect(response.status).toBe(400);
    expect(body.message).toMatch(/^limit: ".+" is not a number; allowed: a number \(1–50\)$/);
  });

  it('reads a decimal limit', async () => {
    const response = await request(service.origin, '/v1/search/web?q=fusion&providers=local&limit=3');
    expect(response.status).toBe(200);
  });
});
