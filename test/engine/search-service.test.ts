import pino from 'pino';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerCache } from '../../src/engine/answer-cache.js';
import { Cancellation } from '../../src/engine/cancellation.js';
import { SearchService, type CachedAnswer, type SearchServiceOptions } from '../../src/engine/search-service.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { TestProvider, resultsBody } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });

/** The shared pool, with each upstream request's dispatch noted in `order`. */
function notingDispatches(order: string[]): Dispatcher {
  return agent.compose((dispatch) => (options, handler) => {
    order.push(`dispatch ${String(options.path).split('?')[0]}`);
    return dispatch(options, handler);
  });
}

/** An in-process cache that keeps what it is given: enough to see what the service reads and writes. */
function recordingCache(options: { storesNothing?: boolean; writeNeverEnds?: boolean } = {}): AnswerCache<CachedAnswer> & { written: string[] } {
  const kept = new Map<string, CachedAnswer>();
  const written: string[] = [];
  return {
    written,
    storesNothing: options.storesNothing,
    get: async (key) => kept.get(key),
    set: (key, value) => {
      written.push(key);
      kept.set(key, value);
      return options.writeNeverEnds ? new Promise<void>(() => undefined) : Promise.resolve();
    },
  };
}

describe('SearchService.search', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/a/search', resultsBody('https://a.example/1')).json('/b/search', resultsBody('https://b.example/1'));
  });
  afterAll(() => upstream.stop());

  const service = (overrides: Partial<SearchServiceOptions>) =>
    new SearchService({
      providers: [new TestProvider('a', `${upstream.origin}/a`), new TestProvider('b', `${upstream.origin}/b`)],
      cache: recordingCache(),
      dispatcher: agent,
      logger: pino({ level: 'silent' }),
      rrfK: 60,
      maxUpstreamBytes: 64 * 1024,
      breaker: { failureThreshold: 5, cooldownMs: 1000, maxCooldownMs: 10_000 },
      ...overrides,
    });

  it('asks every provider before it counts the cache miss and the search in flight', async () => {
    const order: string[] = [];
    const search = service({
      dispatcher: notingDispatches(order),
      onCacheLookup: (lookup) => order.push(`cache ${lookup}`),
      onSearchStarted: () => {
        order.push('search started');
        return () => order.push('search ended');
      },
    });
    const answer = await search.search({ kind: 'web', query: 'ordered', limit: 5 });
    expect(answer.results.map((result) => result.url).sort()).toEqual(['https://a.example/1', 'https://b.example/1']);
    expect(order).toEqual(['dispatch /a/search', 'dispatch /b/search', 'search started', 'cache miss', 'search ended']);
  });

  it('counts identical searches in flight together as one miss, the others as shared, a streamed one among them', async () => {
    upstream.on('/held/search', { kind: 'hang' });
    const lookups: string[] = [];
    const search = service({ providers: [new TestProvider('held', `${upstream.origin}/held`)], onCacheLookup: (lookup) => lookups.push(lookup) });
    const request = { kind: 'web' as const, query: 'together', limit: 5, timeoutMs: 60_000 };
    const callers = [new AbortController(), new AbortController(), new AbortController()];
    const answers = callers.map((caller) => search.search(request, caller.signal).catch(() => 'left'));
    // A search told of each provider joins too: the plain fan-out tells it every provider when it ends.
    const streamed = new AbortController();
    const answerStreamed = search.search({ ...request, onProviderAnswer: () => undefined }, streamed.signal).catch(() => 'left');
    await expect.poll(() => lookups).toEqual(['miss', 'shared', 'shared', 'shared']);
    await expect.poll(() => upstream.requestsTo('/held/search').length).toBe(1);
    // The callers leave, so the held upstream's requests end with them.
    for (const caller of [...callers, streamed]) caller.abort(new Error('left'));
    await Promise.all([...answers, answerStreamed]);
    expect(lookups).toHaveLength(4);
  });

  it('asks no provider for a caller that went away while the cache was read, plain or streamed', async () => {
    for (const streamed of [false, true]) {
      const order: string[] = [];
      let cacheRead: () => void = () => undefined;
      const readsUntilReleased: AnswerCache<CachedAnswer> = {
        // A shared cache's read is a round trip to Redis: the client may leave meanwhile.
        get: () => new Promise((resolve) => (cacheRead = () => resolve(undefined))),
        set: () => Promise.resolve(),
      };
      const search = service({ dispatcher: notingDispatches(order), cache: readsUntilReleased, onCacheLookup: (lookup) => order.push(`cache ${lookup}`) });
      const client = new Cancellation();
      const reason = new Error('the client closed the connection');
      const answer = search
        .search({ kind: 'web', query: `gone while reading ${streamed}`, limit: 5, ...(streamed ? { onProviderAnswer: () => undefined } : {}) }, client)
        .then(
          () => 'answered',
          (error: unknown) => error,
        );
      client.abort(reason);
      cacheRead();
      expect(await answer).toBe(reason);
      expect(order).toEqual([]);
    }
  });

  it('answers without waiting for the cache to finish keeping the answer, which a later search then finds', async () => {
    const cache = recordingCache({ writeNeverEnds: true });
    const search = service({ cache });
    const first = await search.search({ kind: 'web', query: 'kept', limit: 5 });
    expect(first.cached).toBe(false);
    expect(cache.written).toHaveLength(1);
    const again = await search.search({ kind: 'web', query: 'kept', limit: 5 });
    expect(again).toMatchObject({ cached: true, results: first.results });
  });

  it('rejects a search it cannot start (an unknown provider) rather than throwing at its caller, whatever the cache', async () => {
    for (const cache of [recordingCache(), recordingCache({ storesNothing: true })]) {
      let answer: Promise<unknown> | undefined;
      expect(() => {
        answer = service({ cache }).search({ kind: 'web', query: 'nowhere', providers: ['nowhere'], limit: 5 });
      }).not.toThrow();
      await expect(answer).rejects.toMatchObject({ code: 'QUERY_INVALID', message: expect.stringContaining('unknown provider "nowhere"') });
    }
  });

  it('rejects when its bookkeeping throws after the providers are asked, with a cache that keeps nothing too', async () => {
    const broken = service({
      cache: recordingCache({ storesNothing: true }),
      onCacheLookup: () => {
        throw new Error('metrics broke');
      },
    });
    let answer: Promise<unknown> | undefined;
    expect(() => {
      answer = broken.search({ kind: 'web', query: 'bookkeeping', limit: 5 });
    }).not.toThrow();
    await expect(answer).rejects.toThrow('metrics broke');
  });

  it('gives every page and whether more follow as a kept answer gives them, with a cache that keeps nothing', async () => {
    // Two overlapping lists of seven: eleven results in all, two of them found by both providers.
    const listed = (host: string, shared: number[]) => [...shared.map((n) => `https://both.example/${n}`), ...[1, 2, 3, 4, 5].map((n) => `https://${host}.example/${n}`)];
    upstream.json('/c/search', resultsBody(...listed('c', [1, 2]))).json('/d/search', resultsBody(...listed('d', [2, 1])));
    const providers = () => [new TestProvider('c', `${upstream.origin}/c`), new TestProvider('d', `${upstream.origin}/d`)];
    for (const limit of [1, 2, 3, 5, 10, 12]) {
      for (const page of [1, 2, 3]) {
        const request = { kind: 'web' as const, query: `pages ${limit} ${page}`, limit, page };
        const kept = await service({ providers: providers(), cache: recordingCache() }).search(request);
        const notKept = await service({ providers: providers(), cache: recordingCache({ storesNothing: true }) }).search(request);
        expect({ results: notKept.results, has_more: notKept.has_more }).toEqual({ results: kept.results.map(({ explain: _explain, ...rest }) => rest), has_more: kept.has_more });
      }
    }
  });

  it('answers a search its shutdown cut short with what it has, and keeps no such answer for others', async () => {
    upstream.on('/slow/search', { kind: 'hang' });
    const cache = recordingCache();
    const search = service({ cache, providers: [new TestProvider('a', `${upstream.origin}/a`), new TestProvider('slow', `${upstream.origin}/slow`)] });
    const answering = search.search({ kind: 'web', query: 'cut short', limit: 5 });
    await expect.poll(() => upstream.requestsTo('/slow/search').length).toBe(1);
    search.cutCallsShort();
    const answer = await answering;
    expect(answer.results.map((result) => result.url)).toEqual(['https://a.example/1']);
    expect(answer.providers.find((outcome) => outcome.provider === 'slow')).toMatchObject({ status: 'timeout', message: 'no answer before the service shut down' });
    // Another replica would serve it for 15 s with a provider our shutdown, not the upstream, left out.
    expect(cache.written).toEqual([]);
  });

  it('does not hand an answer to a cache that keeps nothing', async () => {
    const cache = recordingCache({ storesNothing: true });
    const answer = await service({ cache }).search({ kind: 'web', query: 'not kept', limit: 5 });
    expect(answer.results).toHaveLength(2);
    expect(cache.written).toEqual([]);
  });
});
