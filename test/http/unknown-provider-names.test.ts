import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

type Line = Record<string, unknown> & { msg?: string; reqId?: string; message?: string };

/** What a message shows of a value the caller chose (domain/shown-value.ts): its first 100 characters, then `…`. */
const SHOWN_CHARS = 100;

/**
 * A provider name the service does not know is the caller's text, as long as a URL (or an MCP argument) may hold:
 * the 400 quoted it whole, and so did the log line of the refusal, as no other refusal quotes a value.
 */
describe('an unknown provider name of the caller\'s length', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOCAL_WEIGHT: '1' });
  });
  afterAll(() => service.stop());

  it('is quoted by its start in the answer and the log, with the names that are allowed', async () => {
    const name = `made-up-${'x'.repeat(3000)}`;
    const response = await request(service.origin, `/v1/search/web?q=rust&providers=${name}`, { headers: { 'x-request-id': 'long-provider-name' } });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('QUERY_INVALID');
    expect(body.message).toContain(`unknown provider "${name.slice(0, SHOWN_CHARS)}…"`);
    expect(body.message).toMatch(/allowed for web: .*local/);
    expect(body.message.length).toBeLessThan(SHOWN_CHARS + 300);
    const rejected = service.logs
      .map((line) => JSON.parse(line) as Line)
      .filter((line) => line.reqId === 'long-provider-name' && line.msg === 'request rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.message).toBe(body.message);
  });
});
