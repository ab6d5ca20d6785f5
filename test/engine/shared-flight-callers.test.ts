import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { braveBody } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';

/** How many searches so far joined a fan-out already in flight (the single flight), read off /metrics. */
async function sharedCount(service: RunningService): Promise<number> {
  const lines = (await (await request(service.origin, '/metrics')).text()).split('\n');
  const line = lines.find((candidate) => candidate.startsWith('fedsearch_cache_shared_total '));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

/**
 * Identical searches in flight share one fan-out. A caller going away (its client disconnects) must cut only its own
 * wait: the callers still waiting get the whole answer, and the upstream calls stop only once nobody waits.
 */
describe('a shared fan-out when some of its callers go away', () => {
  let upstream: FakeUpstream | undefined;
  let service: RunningService | undefined;
  const held: ServerResponse[] = [];
  afterEach(async () => {
    held.length = 0;
    await service?.stop();
    await upstream?.stop();
  });

  async function start(): Promise<RunningService> {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, { kind: 'handler', handle: (_request, response) => void held.push(response) });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', LOG_LEVEL: 'silent' });
    return service;
  }

  /** A search whose client may go away: its fetch settles with the response or the abort error. */
  function search(running: RunningService, path: string): { answer: Promise<Response | unknown>; leave(): void } {
    const client = new AbortController();
    return { answer: fetch(`${running.origin}${path}`, { signal: client.signal }).catch((error: unknown) => error), leave: () => client.abort() };
  }

  it.each([
    ['without timeout_ms', '/v1/search/web?q=first+leaves&providers=brave'],
    ['with the same timeout_ms', '/v1/search/web?q=first+leaves&providers=brave&timeout_ms=30000'],
  ])('answers the callers still waiting in full when the first one leaves (%s), and keeps the answer', async (_case, path) => {
    const running = await start();
    // Sent together: a caller with timeout_ms joins only a search that arrived about when it did.
    const first = search(running, path);
    const second = search(running, path);
    await expect.poll(() => sharedCount(running)).toBe(1);
    expect(held).toHaveLength(1);
    first.leave();
    expect(await first.answer).toBeInstanceOf(Error);
    // The first caller has gone: its leaving must not have cut the upstream call the second one waits on.
    held[0]!.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://kept.example/1', 'https://kept.example/2'));
    const answer = (await second.answer) as Response;
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { results: Array<{ url: string }>; providers: Array<{ provider: string; status: string }> };
    expect(body.providers).toEqual([expect.objectContaining({ provider: 'brave', status: 'ok' })]);
    expect(body.results.map((result) => result.url)).toEqual(['https://kept.example/1', 'https://kept.example/2']);
    expect(upstream!.abortedPaths).toEqual([]);
    // Kept as a whole answer: the next identical search is served from the cache, the upstream asked once.
    const again = (await (await request(running.origin, path)).json()) as { cached: boolean; results: unknown[] };
    expect(again).toMatchObject({ cached: true });
    expect(again.results).toHaveLength(2);
    expect(upstream!.requestsTo(BRAVE)).toHaveLength(1);
  });

  it('answers the first caller in full when the one that joined it leaves', async () => {
    const running = await start();
    const path = '/v1/search/web?q=joiner+leaves&providers=brave';
    const first = search(running, path);
    await expect.poll(() => held.length).toBe(1);
    const second = search(running, path);
    await expect.poll(() => sharedCount(running)).toBe(1);
    second.leave();
    expect(await second.answer).toBeInstanceOf(Error);
    held[0]!.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://first.example/1'));
    const body = (await ((await first.answer) as Response).json()) as { results: Array<{ url: string }>; providers: Array<{ status: string }> };
    expect(body.providers.map((provider) => provider.status)).toEqual(['ok']);
    expect(body.results.map((result) => result.url)).toEqual(['https://first.example/1']);
  });

  it('stops the upstream call once every caller has gone, and a later caller asks afresh', async () => {
    const running = await start();
    const path = '/v1/search/web?q=everyone+leaves&providers=brave';
    const first = search(running, path);
    await expect.poll(() => held.length).toBe(1);
    const second = search(running, path);
    await expect.poll(() => sharedCount(running)).toBe(1);
    first.leave();
    expect(await first.answer).toBeInstanceOf(Error);
    expect(upstream!.abortedPaths).toEqual([]);
    second.leave();
    expect(await second.answer).toBeInstanceOf(Error);
    // Nobody waits for it any more: the upstream request is cut.
    await expect.poll(() => held[0]!.destroyed).toBe(true);
    // A search after that gets a fan-out of its own, not the abandoned one (nor an answer kept from it).
    const third = search(running, path);
    await expect.poll(() => held.length).toBe(2);
    held[1]!.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://afresh.example/1'));
    const body = (await ((await third.answer) as Response).json()) as { cached: boolean; results: Array<{ url: string }> };
    expect(body).toMatchObject({ cached: false });
    expect(body.results.map((result) => result.url)).toEqual(['https://afresh.example/1']);
  });

  it('gives a caller with the same timeout_ms that came later a fan-out of its own, answered by its own deadline', async () => {
    const running = await start();
    const path = '/v1/search/web?q=came+later&providers=brave&timeout_ms=3000';
    const first = search(running, path);
    await expect.poll(() => held.length).toBe(1);
    // The scenario itself, not a wait for something to happen: the second caller arrives 1500 ms after the first (as
    // long a margin as a busy machine needs to answer it between the two deadlines).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const second = search(running, path);
    // Joined, it would have been answered by the first caller's deadline: 1500 ms into its own 3000.
    await expect.poll(() => held.length).toBe(2);
    const cut = (await ((await first.answer) as Response).json()) as { providers: Array<{ status: string }> };
    expect(cut.providers.map((provider) => provider.status)).toEqual(['timeout']);
    // The first caller's deadline has passed; the second still has about 1500 ms of its own.
    held[1]!.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://in-time.example/1'));
    const body = (await ((await second.answer) as Response).json()) as { results: Array<{ url: string }>; providers: Array<{ status: string }> };
    expect(body.providers.map((provider) => provider.status)).toEqual(['ok']);
    expect(body.results.map((result) => result.url)).toEqual(['https://in-time.example/1']);
  });

  it('never hands a caller with a longer timeout_ms what a shorter one found, nor holds the shorter one for it', async () => {
    const running = await start();
    const short = search(running, '/v1/search/web?q=two+deadlines&providers=brave&timeout_ms=300');
    const long = search(running, '/v1/search/web?q=two+deadlines&providers=brave&timeout_ms=30000');
    await expect.poll(() => held.length).toBe(2);
    const cut = (await ((await short.answer) as Response).json()) as { providers: Array<{ status: string }>; took_ms: number };
    expect(cut.providers.map((provider) => provider.status)).toEqual(['timeout']);
    expect(cut.took_ms).toBeLessThan(30_000);
    for (const response of held) if (!response.destroyed) response.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://long.example/1'));
    const body = (await ((await long.answer) as Response).json()) as { results: Array<{ url: string }>; providers: Array<{ status: string }> };
    expect(body.providers.map((provider) => provider.status)).toEqual(['ok']);
    expect(body.results.map((result) => result.url)).toEqual(['https://long.example/1']);
  });
});
