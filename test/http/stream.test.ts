import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { SseReader } from '../support/sse-reader.js';

const KEYS = { BRAVE_API_KEY: 'brave-stream-key-0123456789', EXA_API_KEY: 'exa-stream-key-0123456789', TAVILY_API_KEY: 'tvly-stream-key-0123456789' };
const BRAVE = '/brave/res/v1/web/search';
const EXA = '/exa/search';
const TAVILY = '/tavily/search';

function braveBody(...urls: string[]): string {
  return JSON.stringify({ type: 'search', web: { type: 'search', results: urls.map((url, index) => ({ title: `Brave ${index + 1}`, url, description: 'from brave' })) } });
}

function exaBody(...urls: string[]): string {
  return JSON.stringify({ results: urls.map((url, index) => ({ title: `Exa ${index + 1}`, url, highlights: ['from exa'] })) });
}

/** An upstream route that answers only when the test says so, and tells the test when its caller hung up. */
function holdRoute(upstream: FakeUpstream, path: string, body: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let closed!: () => void;
  const hungUp = new Promise<void>((resolve) => (closed = resolve));
  upstream.on(path, {
    kind: 'handler',
    handle: (_request, response: ServerResponse) => {
      response.once('close', () => {
        if (!response.writableFinished) closed();
      });
      void released.then(() => {
        if (!response.destroyed) response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      });
    },
  });
  return { release, hungUp };
}

type Outcome = { provider: string; status: string; count: number; latency_ms: number; code?: string };
type Answer = { results: Array<{ url: string; explain?: unknown }>; providers: Outcome[]; took_ms: number; cached: boolean; cache_age_ms: number };

async function openStream(origin: string, path: string, init: RequestInit = {}): Promise<{ response: Response; reader: SseReader }> {
  const response = await fetch(`${origin}${path}`, init);
  expect(response.status).toBe(200);
  return { response, reader: new SseReader(response.body!) };
}

/** The answer without what differs between two requests for it: how long each took, how old the cached copy was. */
function withoutTiming(answer: Answer): Omit<Answer, 'took_ms' | 'cache_age_ms'> {
  const { took_ms: _took, cache_age_ms: _age, ...rest } = answer;
  return rest;
}

describe('GET /v1/search/{kind}/stream', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), ...KEYS, SEARCH_STREAM_HEARTBEAT_MS: '20', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('sends the fast provider while the slow one is still working, then the fused results and the plain answer', async () => {
    upstream.on(BRAVE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://fast.example/1', 'https://both.example/') });
    const slow = holdRoute(upstream, EXA, exaBody('https://both.example/', 'https://slow.example/1'));
    const query = '/v1/search/web/stream?q=fast+and+slow&providers=brave,exa,searxng,tavily&limit=5&explain=true';
    upstream.on(TAVILY, { kind: 'respond', status: 500, headers: { 'content-type': 'application/json' }, body: '{"detail":"broken"}' });
    upstream.on('/searxng/search', { kind: 'respond', status: 404, body: 'no' });
    const { response, reader } = await openStream(service.origin, query);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('cache-control')).toContain('no-cache');
    expect(response.headers.get('content-encoding')).toBeNull();

    // Every provider but exa finishes while exa's answer is held back: their events must already be here.
    const early: Array<{ event: string; data: unknown }> = [];
    while (early.filter((event) => event.event === 'provider').length < 3 || !early.some((event) => event.event === 'results')) {
      const event = await reader.nextEvent();
      expect(event).toBeDefined();
      early.push(event!);
    }
    const earlyProviders = early.filter((event) => event.event === 'provider').map((event) => (event.data as Outcome).provider);
    expect(earlyProviders.sort()).toEqual(['brave', 'searxng', 'tavily']);
    const braveResults = early.find((event) => event.event === 'results')!.data as { results: Answer['results']; done: number; total: number };
    expect(braveResults.total).toBe(4);
    expect(braveResults.results.map((result) => result.url)).toEqual(['https://fast.example/1', 'https://both.example/']);
    expect(braveResults.results[0]!.explain).toEqual([{ provider: 'brave', rank: 1, weight: 1, contribution: expect.closeTo(1 / 61, 6) }]);

    slow.release();
    const rest = await reader.rest();
    expect(rest.map((event) => event.event)).toEqual(['provider', 'results', 'done']);
    expect(rest[0]!.data).toMatchObject({ provider: 'exa', status: 'ok', count: 2 });
    const fused = rest[1]!.data as { results: Answer['results']; done: number; total: number };
    expect(fused).toMatchObject({ done: 4, total: 4 });
    // Found by both, so fused first; then each provider's own first result.
    expect(fused.results.map((result) => result.url)).toEqual(['https://both.example/', 'https://fast.example/1', 'https://slow.example/1']);

    // Outcomes in the order they came, one per provider asked, and the failures are there too.
    const outcomes = reader.events.filter((event) => event.event === 'provider').map((event) => event.data as Outcome);
    expect(outcomes.map((outcome) => outcome.provider).at(-1)).toBe('exa');
    expect(Object.fromEntries(outcomes.map((outcome) => [outcome.provider, outcome.status]))).toEqual({ brave: 'ok', searxng: 'error', tavily: 'error', exa: 'ok' });

    // done is the plain route's answer: the plain request below is served from what the stream cached.
    const done = rest[2]!.data as Answer;
    expect(done.cached).toBe(false);
    expect(done.results).toEqual(fused.results);
    // In the catalogue's order, whatever order the request named them in (the cache keys the set).
    expect(done.providers.map((outcome) => outcome.provider)).toEqual(['brave', 'tavily', 'searxng', 'exa']);
    const plain = (await (await request(service.origin, query.replace('/stream?', '?'))).json()) as Answer;
    expect(plain.cached).toBe(true);
    expect({ ...withoutTiming(done), cached: true }).toEqual(withoutTiming(plain));

    // The same request again is cached: just `done`, equal to the plain answer.
    const again = await openStream(service.origin, query);
    const cachedEvents = await again.reader.rest();
    expect(cachedEvents.map((event) => event.event)).toEqual(['done']);
    expect(withoutTiming(cachedEvents[0]!.data as Answer)).toEqual(withoutTiming(plain));
  });

  it('ends a hanging provider as timeout at the deadline and still finishes the stream', async () => {
    upstream.on(BRAVE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://deadline.example/') });
    const hanging = holdRoute(upstream, TAVILY, '{}');
    const { reader } = await openStream(service.origin, '/v1/search/web/stream?q=deadline&providers=brave,tavily&timeout_ms=300');
    const events = await reader.rest();
    const outcomes = events.filter((event) => event.event === 'provider').map((event) => event.data as Outcome);
    expect(outcomes.map((outcome) => [outcome.provider, outcome.status])).toEqual([
      ['brave', 'ok'],
      ['tavily', 'timeout'],
    ]);
    expect(outcomes[1]).toMatchObject({ code: 'PROVIDER_TIMEOUT', message: 'no answer within 300 ms' });
    expect(events.at(-1)!.event).toBe('done');
    expect((events.at(-1)!.data as Answer).results.map((result) => result.url)).toEqual(['https://deadline.example/']);
    await hanging.hungUp;
    hanging.release();
  });

  it('stops the providers when the client goes away, and keeps a quiet stream alive with comments', async () => {
    upstream.on(BRAVE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://leaving.example/') });
    const hanging = holdRoute(upstream, TAVILY, '{}');
    const controller = new AbortController();
    const { reader } = await openStream(service.origin, '/v1/search/web/stream?q=leaving&providers=brave,tavily&timeout_ms=30000', {
      signal: controller.signal,
    });
    const first = await reader.nextEvent();
    expect(first).toMatchObject({ event: 'provider', data: { provider: 'brave', status: 'ok' } });
    // Tavily is still hanging: the stream stays open, with heartbeat comments (every 20 ms in this test).
    let message = await reader.next();
    while (message && !('comment' in message && message.comment === 'heartbeat')) message = await reader.next();
    expect(message).toEqual({ comment: 'heartbeat' });
    controller.abort();
    await reader.cancel().catch(() => undefined);
    // Resolves only when the service hangs up on the upstream: the fan-out was aborted, not left to its 30 s deadline.
    await hanging.hungUp;
    hanging.release();
  });

  it('refuses HEAD with 405 rather than running a search whose events nobody reads and nobody can stop', async () => {
    upstream.on(BRAVE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://head.example/') });
    const path = '/v1/search/web/stream?q=head+probe&providers=brave';
    const head = await request(service.origin, path, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET');
    // GET still streams; it is the only search of this query that reached the provider.
    const { reader } = await openStream(service.origin, path);
    const events = await reader.rest();
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { cached: false } });
    expect(upstream.requestsTo(BRAVE).filter((sent) => sent.url.searchParams.get('q') === 'head probe')).toHaveLength(1);
  });

  it('answers a bad request with an ordinary 400 JSON before any event', async () => {
    const unknown = await request(service.origin, '/v1/search/web/stream?q=x&providers=brave,nope');
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toContain('application/json');
    expect(await unknown.json()).toMatchObject({ code: 'QUERY_INVALID', message: expect.stringContaining('unknown provider "nope"') });
    const wrongKind = await request(service.origin, '/v1/search/papers/stream?q=x&providers=brave');
    expect(wrongKind.status).toBe(400);
    expect((await wrongKind.json()).message).toContain('"brave" serves web, not papers');
    const noQuery = await request(service.origin, '/v1/search/web/stream?limit=99');
    expect(noQuery.status).toBe(400);
    const body = await noQuery.json();
    expect(body.message).toContain('q');
    expect(body.message).toContain('limit');
  });
});

describe('the stream behind API keys and rate limits', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ API_KEYS: 'stream-client-key-0123456789', RATE_LIMIT_MAX: '2', LOG_LEVEL: 'warn' });
  });
  afterAll(() => service.stop());

  it('needs a key, reports providers never asked, and counts against the rate limit like every route', async () => {
    const path = '/v1/search/web/stream?q=provider&providers=local,tavily';
    const anonymous = await request(service.origin, path);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).code).toBe('UNAUTHORIZED');
    const headers = { authorization: 'Bearer stream-client-key-0123456789' };
    const { reader } = await openStream(service.origin, path, { headers });
    const events = await reader.rest();
    expect(events.map((event) => event.event)).toEqual(['provider', 'provider', 'results', 'done']);
    expect(events[0]!.data).toMatchObject({ provider: 'tavily', status: 'not_configured', missing: ['TAVILY_API_KEY'] });
    expect(events[1]!.data).toMatchObject({ provider: 'local', status: 'ok' });
    await (await request(service.origin, path, { headers })).text();
    const limited = await request(service.origin, path, { headers });
    expect(limited.status).toBe(429);
    expect((await limited.json()).code).toBe('RATE_LIMITED');
  });
});
