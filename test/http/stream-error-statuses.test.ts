import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

type Responses = Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;

/**
 * The stream routes answer before any event as the search routes do: 401 without a key (API_KEYS), 403 for a Host
 * not admitted, 429 past the rate limit, 503 when shedding load. The document listed only 200 and 400 for them.
 */
describe('the stream routes document the errors they answer', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ API_KEYS: 'stream-key-0123456789', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('answers 401 without a key, and its document says so, as the search route\'s does', async () => {
    const refused = await request(service.origin, '/v1/search/web/stream?q=rank');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });

    const document = await (await request(service.origin, '/openapi.json', { headers: { 'x-api-key': 'stream-key-0123456789' } })).json();
    for (const kind of ['web', 'papers']) {
      const search = document.paths[`/v1/search/${kind}`].get.responses as Responses;
      const stream = document.paths[`/v1/search/${kind}/stream`].get.responses as Responses;
      // The errors only: the stream also documents its 204, the answer to an EventSource reconnecting after the end.
      const errorStatuses = (responses: Responses) => Object.keys(responses).filter((status) => Number(status) >= 400);
      expect(errorStatuses(stream)).toEqual(errorStatuses(search));
      for (const status of errorStatuses(stream)) expect(stream[status]).toEqual(search[status]);
    }
  });
});
