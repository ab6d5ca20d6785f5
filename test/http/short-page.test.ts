import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { describeWithRedis } from '../support/redis-server.js';
import { startSharedReplicas, type SharedReplicas } from '../support/shared-replicas.js';
import { SseReader } from '../support/sse-reader.js';

const BRAVE = '/brave/res/v1/web/search';

/**
 * Brave's list for every query: its first six results are three pages each listed twice (with and without `www.`,
 * one page once merged), then pages 4 to 40 once each. Asked six deep for page 1 of five, it gives all it was asked
 * for, which merge into three: page 1 is short, and Brave may have more.
 */
const corpus = [
  ...[1, 2, 3].flatMap((page) => [`https://d.example/${page}`, `https://www.d.example/${page}`]),
  ...Array.from({ length: 37 }, (_, index) => `https://d.example/${index + 4}`),
];

function braveAnswering(recorded: RecordedRequest, response: ServerResponse): void {
  const count = Number(recorded.url.searchParams.get('count'));
  const start = Number(recorded.url.searchParams.get('offset') ?? 0) * count;
  const results = corpus.slice(start, start + count).map((url, index) => ({ title: `Page ${start + index + 1}`, url, description: 'a page' }));
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ web: { results } }));
}

type Answer = { results: Array<{ url: string }>; page: number; has_more: boolean };

const pageUrls = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, index) => `https://d.example/${from + index}`);

describe.each([
  ['with the answer cache on', '300'],
  ['with the answer cache off', '0'],
])('a page shown short while a provider may have more (%s)', (_name, ttl) => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, { kind: 'handler', handle: braveAnswering });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-short-page-key-0123456789', CACHE_TTL_SECONDS: ttl, LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (page: number, query = 'short+page'): Promise<Answer> => {
    const response = await request(service.origin, `/v1/search/web?q=${query}&providers=brave&limit=5&page=${page}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  };
  const urls = (answer: Answer): string[] => answer.results.map((result) => result.url);

  it('goes on after it on the next page: the deeper results skip none of those the short page could not show', async () => {
    const pages = [await search(1), await search(2), await search(3)];
    expect(pages.map((answer) => answer.has_more)).toEqual([true, true, true]);
    // Page 1 holds the three distinct pages of the six asked for; the pages after it go on in Brave's order.
    expect(pages.map(urls)).toEqual([pageUrls(1, 3), pageUrls(4, 8), pageUrls(9, 13)]);
  });

  it('gives the short page as it was shown when it is asked again after a later page', async () => {
    await search(2);
    expect(urls(await search(1))).toEqual(pageUrls(1, 3));
  });

  it('streams the next page as the plain answer gives it, with no empty place among the results so far', async () => {
    await search(1, 'short+stream');
    const response = await fetch(`${service.origin}/v1/search/web/stream?q=short+stream&providers=brave&limit=5&page=2`);
    const events = await new SseReader(response.body!).rest();
    const done = events.find((event) => event.event === 'done')!.data as Answer;
    expect(urls(done)).toEqual(pageUrls(4, 8));
    const sofar = events.filter((event) => event.event === 'results').map((event) => urls(event.data as Answer));
    expect(sofar.at(-1)).toEqual(pageUrls(4, 8));
  });
});

describeWithRedis('a page shown short, paged on across two replicas sharing Redis', () => {
  let replicas: SharedReplicas;

  beforeAll(async () => {
    replicas = await startSharedReplicas({ BRAVE_API_KEY: 'brave-short-page-key-0123456789' });
    replicas.upstream.on(BRAVE, { kind: 'handler', handle: braveAnswering });
  });
  afterAll(async () => {
    await replicas.stop();
  });

  const search = async (service: RunningService, page: number): Promise<Answer & { cached: boolean }> => {
    const response = await request(service.origin, `/v1/search/web?q=short+shared&providers=brave&limit=5&page=${page}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer & { cached: boolean };
  };
  const urls = (answer: Answer): string[] => answer.results.map((result) => result.url);
  /** Polls until the replicas have kept an answer at least `depth` deep in Redis (its write does not hold up the answer). */
  const keptInRedis = async (depth: number): Promise<void> => {
    const deadline = Date.now() + 5000;
    while (!(await replicas.sharedAnswers()).some((answer) => Number(answer.depth) >= depth)) {
      if (Date.now() > deadline) throw new Error(`no answer ${depth} deep kept in Redis`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('goes on after the short page on whichever replica answers, the empty places read back from Redis as such', async () => {
    expect(urls(await search(replicas.a, 1))).toEqual(pageUrls(1, 3));
    await keptInRedis(6);
    // Replica b extends the list a kept in Redis, and keeps the deeper one, empty places and all.
    expect(urls(await search(replicas.b, 2))).toEqual(pageUrls(4, 8));
    await keptInRedis(11);
    // Replica a's own copy is too short for page 2: it serves page 2 from b's list in Redis, asking no provider.
    const asked = replicas.upstream.requestsTo(BRAVE).length;
    const second = await search(replicas.a, 2);
    expect(second.cached).toBe(true);
    expect(replicas.upstream.requestsTo(BRAVE)).toHaveLength(asked);
    expect(urls(second)).toEqual(pageUrls(4, 8));
    expect(urls(await search(replicas.a, 3))).toEqual(pageUrls(9, 13));
  });
});
