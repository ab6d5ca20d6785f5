import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { SseReader } from '../support/sse-reader.js';

type Page = { results: Array<{ url: string }> };

function braveBody(names: string[]): string {
  return JSON.stringify({
    query: { more_results_available: false },
    web: { results: names.map((name) => ({ title: name, url: `https://a.example/${name}`, description: name })) },
  });
}

describe('GET /v1/search/web/stream over a cached list too short for the page', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-short-list-key-0123456789', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('streams the page its done answer gives: the deeper list extends the cached one', async () => {
    // The upstream's ranking changed between the two searches: c1 now leads.
    const answers = [braveBody(['a1', 'a2']), braveBody(['c1', 'a1', 'a2', 'a3'])];
    upstream.on('/brave/res/v1/web/search', {
      kind: 'handler',
      handle: (_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end(answers.shift() ?? answers.at(-1)),
    });
    const first = await request(service.origin, '/v1/search/web?q=short+list&providers=brave&limit=1');
    expect(((await first.json()) as Page).results.map((result) => result.url)).toEqual(['https://a.example/a1']);

    // Page 3 needs three results; the cached list has two, so the stream gathers deeper and extends it.
    const response = await fetch(`${service.origin}/v1/search/web/stream?q=short+list&providers=brave&limit=1&page=3`);
    const events = await new SseReader(response.body!).rest();
    const done = events.find((event) => event.event === 'done')!.data as Page;
    const last = events.filter((event) => event.event === 'results').map((event) => event.data as Page).at(-1)!;
    expect(done.results.map((result) => result.url)).toEqual(['https://a.example/c1']);
    expect(last.results).toEqual(done.results);
  });
});
