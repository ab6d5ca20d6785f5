import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { braveBody } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';

type Answer = { results: Array<{ url: string }>; page: number; cached: boolean };

/** How many searches so far joined a fan-out already in flight (the single flight), read off /metrics. */
async function sharedCount(service: RunningService): Promise<number> {
  const lines = (await (await request(service.origin, '/metrics')).text()).split('\n');
  const line = lines.find((candidate) => candidate.startsWith('fedsearch_cache_shared_total '));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

/** An upstream request Brave's fake holds until the test answers it, with how many results it asked for. */
interface HeldRequest {
  count: number;
  response: ServerResponse;
}

/**
 * A later page goes on from the list its caller's earlier page was sliced from (the kept list). A fan-out in flight
 * for the same page that extends another list (none: its caller came before page 1 was kept) gives another page 2:
 * a caller whose page 1 came from the kept list must not be handed that one by joining it.
 */
describe('a later page joining an identical search in flight', () => {
  let upstream: FakeUpstream | undefined;
  let service: RunningService | undefined;
  const held: HeldRequest[] = [];
  afterEach(async () => {
    held.length = 0;
    await service?.stop();
    await upstream?.stop();
  });

  function answer(requests: HeldRequest[], ...urls: string[]): void {
    for (const { response } of requests) response.writeHead(200, { 'content-type': 'application/json' }).end(braveBody(...urls));
  }

  it('goes on from the list its caller was shown page 1 of, not from the list the fan-out in flight extends', async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, { kind: 'handler', handle: (recorded, response) => void held.push({ count: Number(recorded.url.searchParams.get('count')), response }) });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-kept-list', LOG_LEVEL: 'silent' });
    const path = (page: number) => `/v1/search/web?q=kept+list&providers=brave&limit=2&page=${page}`;
    const running = service;

    // Another client asks for page 2 first: nothing is kept yet, so its fan-out ranks page 2 afresh. Held.
    const early = request(running.origin, path(2));
    await expect.poll(() => held.length).toBe(1);
    expect(held[0]!.count).toBe(5);

    // Meanwhile this client asks for page 1 (three results asked: two and the look-ahead), which is kept.
    const firstPage = request(running.origin, path(1));
    await expect.poll(() => held.length).toBe(2);
    expect(held[1]!.count).toBe(3);
    answer([held[1]!], 'https://one.example/', 'https://two.example/', 'https://three.example/');
    const pageOne = (await (await firstPage).json()) as Answer;
    expect(pageOne.results.map((result) => result.url)).toEqual(['https://one.example/', 'https://two.example/']);

    // Its page 2, while the other client's fan-out is still out: it joins that one, or asks Brave itself.
    const secondPage = request(running.origin, path(2));
    await expect.poll(async () => held.length === 3 || (await sharedCount(running)) === 1).toBe(true);
    // Brave now ranks the third result first (results move between requests: news, a re-crawl, another index shard).
    answer(held.filter((entry) => entry.count === 5), 'https://three.example/', 'https://one.example/', 'https://four.example/', 'https://five.example/', 'https://six.example/');

    // Page 2 goes on where page 1 stopped: the kept list's third result, then the first new one. Nothing shown on
    // page 1 comes again, nothing is passed over.
    const pageTwo = (await (await secondPage).json()) as Answer;
    expect(pageTwo.results.map((result) => result.url)).toEqual(['https://three.example/', 'https://four.example/']);
    expect((await (await early).json()) as Answer).toMatchObject({ page: 2 });
  });
});
