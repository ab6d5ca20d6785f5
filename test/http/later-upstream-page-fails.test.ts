import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/fake-upstream.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';

describe('a provider whose later upstream page fails', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-later-page-key-0123456789', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('still says a next page exists: the upstream had more than was read', async () => {
    // Brave serves 20 a request. Page 1 of 20 asks 21 deep: offset 0 gives 20 and says there is more, offset 1 fails.
    upstream.on(BRAVE, {
      kind: 'handler',
      handle: (recorded: RecordedRequest, response) => {
        if (recorded.url.searchParams.get('offset') !== '0') {
          response.writeHead(503, { 'content-type': 'application/json' }).end('{"type":"ErrorResponse","error":{"code":"X","detail":"busy"}}');
          return;
        }
        const results = Array.from({ length: 20 }, (_, index) => ({ title: `r${index}`, url: `https://r.example/${index}`, description: 'a page' }));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: { more_results_available: true }, web: { results } }));
      },
    });
    const response = await request(service.origin, '/v1/search/web?q=later+page+fails&providers=brave&limit=20');
    const body = (await response.json()) as { results: unknown[]; has_more: boolean; providers: Array<{ status: string }> };
    expect(upstream.requestsTo(BRAVE).map((recorded) => recorded.url.searchParams.get('offset'))).toContain('1');
    expect(body.results).toHaveLength(20);
    expect(body.providers[0]!.status).toBe('ok');
    expect(body.has_more).toBe(true);
  });
});
