import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { SseReader } from '../support/sse-reader.js';

const BRAVE = '/brave/res/v1/web/search';
const EXA = '/exa/search';
const KEYS = { BRAVE_API_KEY: 'brave-shared-stream-key-0123456789', EXA_API_KEY: 'exa-shared-stream-key-0123456789' };

type Outcome = { provider: string; status: string; latency_ms: number; count: number };
type Answer = { results: Array<{ url: string }>; providers: Outcome[]; took_ms: number; cached: boolean; cache_age_ms: number };
type Event = { event: string; data: unknown };

function braveBody(...urls: string[]): string {
  return JSON.stringify({ type: 'search', web: { type: 'search', results: urls.map((url, index) => ({ title: `Brave ${index + 1}`, url, description: 'from brave' })) } });
}

function exaBody(...urls: string[]): string {
  return JSON.stringify({ results: urls.map((url, index) => ({ title: `Exa ${index + 1}`, url, highlights: ['from exa'] })) });
}

/** How many searches so far joined a fan-out already in flight, read off /metrics. */
async function sharedCount(service: RunningService): Promise<number> {
  const lines = (await (await request(service.origin, '/metrics')).text()).split('\n');
  const line = lines.find((candidate) => candidate.startsWith('fedsearch_cache_shared_total '));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

/** How many requests to `route` had their client go away before their end, read off /metrics. */
async function requestsAborted(service: RunningService, route: string): Promise<number> {
  const metrics = await (await request(service.origin, '/metrics')).text();
  const line = metrics.split('\n').find((candidate) => candidate.startsWith('fedsearch_http_requests_aborted_total{') && candidate.includes(`route="${route}"`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

/** How many streams' clients went away before their end. */
const streamsAborted = (service: RunningService): Promise<number> => requestsAborted(service, '/v1/search/web/stream');

/** The longest any provider of an answer took: every one is counted from the start of the fan-out that asked it. */
const slowestProvider = (answer: Answer): number => Math.max(...answer.providers.map((outcome) => outcome.latency_ms));

/** The answer without what differs between two requests for it: how long each took, how old a cached copy was. */
function withoutTiming(answer: Answer): Omit<Answer, 'took_ms' | 'cache_age_ms'> {
  const { took_ms: _took, cache_age_ms: _age, ...rest } = answer;
  return rest;
}

/** Reads named events until `enough` holds for those read so far; returns them. */
async function readUntil(reader: SseReader, enough: (events: Event[]) => boolean): Promise<Event[]> {
  const events: Event[] = [];
  while (!enough(events)) {
    const event = await reader.nextEvent();
    if (!event) throw new Error(`the stream ended after ${JSON.stringify(events.map((read) => read.event))}`);
    events.push(event);
  }
  return events;
}

const namesOf = (events: Event[]): string[] => events.map((event) => event.event);
const providersOf = (events: Event[]): string[] => events.filter((event) => event.event === 'provider').map((event) => (event.data as Outcome).provider);
const hasResultsAfterProviders = (count: number) => (events: Event[]) => providersOf(events).length === count && events.at(-1)?.event === 'results';

/**
 * A streamed search used to run a fan-out of its own even when an identical one was in flight ("a stream cannot replay
 * the events already sent"): two tabs of the search page, or a double submit, asked every provider twice, and a plain
 * search during a stream did not join it either. Now a stream joins an identical stream in flight: it is sent at once
 * what the fan-out has heard so far, then the rest as it comes; a caller leaving cuts only its own wait.
 */
describe('identical streamed searches in flight share one fan-out', () => {
  let upstream: FakeUpstream | undefined;
  let service: RunningService | undefined;
  /** Exa's requests, held until the test answers them. */
  const heldExa: ServerResponse[] = [];
  afterEach(async () => {
    heldExa.length = 0;
    await service?.stop();
    await upstream?.stop();
  });

  async function start(): Promise<RunningService> {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://fast.example/1', 'https://both.example/') });
    upstream.on(EXA, { kind: 'handler', handle: (_request, response) => void heldExa.push(response) });
    // tavily has no key: reported not_configured at once, one more provider event to replay.
    service = await startService({ ...providerEnv(upstream.origin), ...KEYS, LOG_LEVEL: 'warn' });
    return service;
  }

  function answerExa(): void {
    expect(heldExa).toHaveLength(1);
    heldExa[0]!.writeHead(200, { 'content-type': 'application/json' }).end(exaBody('https://both.example/', 'https://slow.example/1'));
  }

  async function openStream(running: RunningService, path: string, signal?: AbortSignal): Promise<SseReader> {
    const response = await fetch(`${running.origin}${path}`, { signal });
    expect(response.status).toBe(200);
    return new SseReader(response.body!);
  }

  it('sends a stream that joins late every event it missed at once, then the rest, with one upstream request per provider', async () => {
    const running = await start();
    const path = '/v1/search/web/stream?q=two+tabs&providers=brave,exa,tavily&limit=5';
    const first = await openStream(running, path);
    // Brave and tavily have answered; exa is held, so the fan-out stays in flight.
    const firstEarly = await readUntil(first, hasResultsAfterProviders(2));
    await expect.poll(() => heldExa.length).toBe(1);

    const second = await openStream(running, path);
    // What the flight heard before this stream came, at once: each provider event, then the latest results.
    const secondEarly = await readUntil(second, hasResultsAfterProviders(2));
    expect(namesOf(secondEarly)).toEqual(['provider', 'provider', 'results']);
    expect(providersOf(secondEarly)).toEqual(providersOf(firstEarly));
    expect(secondEarly.filter((event) => event.event === 'provider')).toEqual(firstEarly.filter((event) => event.event === 'provider'));
    // The same results the first stream was last shown (`done` counts the providers heard so far: both of them).
    const firstResults = firstEarly.filter((event) => event.event === 'results').at(-1)!.data as { results: unknown[] };
    expect(secondEarly.at(-1)!.data).toEqual({ results: firstResults.results, done: 2, total: 3 });
    expect(firstResults.results).not.toEqual([]);
    expect(await sharedCount(running)).toBe(1);

    answerExa();
    const firstRest = await first.rest();
    const secondRest = await second.rest();
    expect(namesOf(firstRest)).toEqual(['provider', 'results', 'done']);
    expect(namesOf(secondRest)).toEqual(['provider', 'results', 'done']);
    expect(firstRest[0]).toMatchObject({ data: { provider: 'exa', status: 'ok' } });
    expect(secondRest.slice(0, 2)).toEqual(firstRest.slice(0, 2));
    const firstDone = firstRest[2]!.data as Answer;
    const secondDone = secondRest[2]!.data as Answer;
    expect(firstDone.results.map((result) => result.url)).toEqual(['https://both.example/', 'https://fast.example/1', 'https://slow.example/1']);
    expect(withoutTiming(secondDone)).toEqual(withoutTiming(firstDone));
    expect(secondDone.cached).toBe(false);
    // Every provider asked once, for both streams.
    expect(upstream!.requestsTo(BRAVE)).toHaveLength(1);
    expect(upstream!.requestsTo(EXA)).toHaveLength(1);
  });

  it('keeps the fan-out going for the stream that joined when the first one leaves', async () => {
    const running = await start();
    const path = '/v1/search/web/stream?q=first+tab+closed&providers=brave,exa';
    const leaving = new AbortController();
    const first = await openStream(running, path, leaving.signal);
    await readUntil(first, hasResultsAfterProviders(1));
    const second = await openStream(running, path);
    await readUntil(second, hasResultsAfterProviders(1));
    expect(await sharedCount(running)).toBe(1);

    leaving.abort();
    await first.cancel().catch(() => undefined);
    // The service has seen the first client go before exa answers.
    await expect.poll(() => streamsAborted(running)).toBe(1);
    expect(heldExa[0]!.destroyed).toBe(false);
    answerExa();
    const rest = await second.rest();
    expect(namesOf(rest)).toEqual(['provider', 'results', 'done']);
    const done = rest.at(-1)!.data as Answer;
    expect(done.providers.map((outcome) => [outcome.provider, outcome.status])).toEqual([
      ['brave', 'ok'],
      ['exa', 'ok'],
    ]);
    expect(upstream!.requestsTo(EXA)).toHaveLength(1);
  });

  it('keeps the fan-out going for the first stream when the one that joined leaves, and stops it once both have', async () => {
    const running = await start();
    const path = '/v1/search/web/stream?q=second+tab+closed&providers=brave,exa';
    const first = await openStream(running, path);
    await readUntil(first, hasResultsAfterProviders(1));
    const joinerLeaves = new AbortController();
    const second = await openStream(running, path, joinerLeaves.signal);
    await readUntil(second, hasResultsAfterProviders(1));
    joinerLeaves.abort();
    await second.cancel().catch(() => undefined);
    await expect.poll(() => streamsAborted(running)).toBe(1);
    expect(heldExa[0]!.destroyed).toBe(false);
    answerExa();
    const rest = await first.rest();
    expect(namesOf(rest)).toEqual(['provider', 'results', 'done']);
    expect((rest.at(-1)!.data as Answer).results.map((result) => result.url)).toContain('https://slow.example/1');

    // Both leave: nobody listens, and exa's request is cut rather than left to its timeout.
    const path2 = '/v1/search/web/stream?q=both+tabs+closed&providers=brave,exa';
    const clients = [new AbortController(), new AbortController()];
    const readers: SseReader[] = [];
    for (const client of clients) {
      const reader = await openStream(running, path2, client.signal);
      await readUntil(reader, hasResultsAfterProviders(1));
      readers.push(reader);
    }
    expect(heldExa).toHaveLength(2);
    clients[0]!.abort();
    await readers[0]!.cancel().catch(() => undefined);
    clients[1]!.abort();
    await readers[1]!.cancel().catch(() => undefined);
    await expect.poll(() => heldExa[1]!.destroyed).toBe(true);
  });

  it('lets a plain search arriving during a stream join its fan-out, with the same answer as the stream', async () => {
    const running = await start();
    const path = '/v1/search/web/stream?q=plain+joins+stream&providers=brave,exa';
    const stream = await openStream(running, path);
    await readUntil(stream, hasResultsAfterProviders(1));
    const plain = request(running.origin, path.replace('/stream?', '?'));
    await expect.poll(() => sharedCount(running)).toBe(1);
    answerExa();
    const done = (await stream.rest()).at(-1)!.data as Answer;
    const answer = (await (await plain).json()) as Answer;
    expect(answer.cached).toBe(false);
    expect(withoutTiming(answer)).toEqual(withoutTiming(done));
    expect(upstream!.requestsTo(BRAVE)).toHaveLength(1);
    expect(upstream!.requestsTo(EXA)).toHaveLength(1);
  });

  /**
   * A stream arriving while only an identical plain search was in flight used to run a fan-out of its own (the plain
   * one keeps none of the answers it hears as it goes): every provider asked twice. Then it joined it, but was sent
   * nothing but heartbeats until that search ended: on the page, the bars of providers that had answered long before
   * stayed pending for the whole fan-out. It is sent at once the providers that search has heard from now, with the
   * results they add up to, then each other one as it finishes, as a stream joining a stream is.
   */
  it('sends a stream joining an identical plain search in flight the providers already finished at once, then each as it finishes', async () => {
    const running = await start();
    const plainPath = '/v1/search/web?q=stream+after+plain&providers=brave,exa,tavily';
    const plain = request(running.origin, plainPath);
    await expect.poll(() => heldExa.length).toBe(1);
    const stream = await openStream(running, plainPath.replace('?', '/stream?'));
    // Brave has answered and tavily (no key) was never asked; exa is held, so the plain search is still in flight.
    const early = await readUntil(stream, hasResultsAfterProviders(2));
    expect(heldExa[0]!.writableEnded).toBe(false);
    expect(await sharedCount(running)).toBe(1);
    expect(namesOf(early)).toEqual(['provider', 'provider', 'results']);
    const earlyByName = new Map(early.filter((event) => event.event === 'provider').map((event) => [(event.data as Outcome).provider, event.data as Outcome]));
    expect([...earlyByName.keys()].sort()).toEqual(['brave', 'tavily']);
    expect(earlyByName.get('brave')).toMatchObject({ status: 'ok', count: 2 });
    expect(earlyByName.get('tavily')).toMatchObject({ status: 'not_configured', count: 0 });
    // Brave's results so far, in brave's order: the items of a plain search's providers are fused as a stream's are.
    const earlyResults = early[2]!.data as { results: Array<{ url: string }>; done: number; total: number };
    expect(earlyResults.results.map((result) => result.url)).toEqual(['https://fast.example/1', 'https://both.example/']);
    expect(earlyResults).toMatchObject({ done: 2, total: 3 });

    answerExa();
    const rest = await stream.rest();
    expect(namesOf(rest)).toEqual(['provider', 'results', 'done']);
    expect(rest[0]!.data).toMatchObject({ provider: 'exa', status: 'ok', count: 2 });
    const done = rest[2]!.data as Answer;
    expect(rest[1]!.data).toEqual({ results: done.results, done: 3, total: 3 });
    // Each provider event is the outcome the answer reports (status, latency, count), as a stream of its own sends it.
    const byName = new Map(done.providers.map((outcome) => [outcome.provider, outcome]));
    for (const event of [...early, ...rest].filter((read) => read.event === 'provider')) expect(event.data).toEqual(byName.get((event.data as Outcome).provider));
    expect(done.results.map((result) => result.url)).toEqual(['https://both.example/', 'https://fast.example/1', 'https://slow.example/1']);
    const answer = (await (await plain).json()) as Answer;
    expect(withoutTiming(done)).toEqual(withoutTiming(answer));
    expect(upstream!.requestsTo(BRAVE)).toHaveLength(1);
    expect(upstream!.requestsTo(EXA)).toHaveLength(1);
  });

  it('keeps a plain search\'s fan-out going for the stream that joined it when the plain caller leaves, and the other way round', async () => {
    const running = await start();
    const plainPath = '/v1/search/web?q=plain+caller+leaves&providers=brave,exa';
    const plainLeaves = new AbortController();
    const plain = fetch(`${running.origin}${plainPath}`, { signal: plainLeaves.signal }).catch((error: unknown) => error);
    await expect.poll(() => heldExa.length).toBe(1);
    const stream = await openStream(running, plainPath.replace('?', '/stream?'));
    // Brave, already in, is heard at once; exa only once it answers, after the plain caller has gone.
    expect(providersOf(await readUntil(stream, hasResultsAfterProviders(1)))).toEqual(['brave']);
    expect(await sharedCount(running)).toBe(1);
    plainLeaves.abort();
    expect(await plain).toBeInstanceOf(Error);
    await expect.poll(() => requestsAborted(running, '/v1/search/web')).toBe(1);
    expect(heldExa[0]!.destroyed).toBe(false);
    answerExa();
    const events = await stream.rest();
    expect(namesOf(events)).toEqual(['provider', 'results', 'done']);
    expect(events[0]!.data).toMatchObject({ provider: 'exa', status: 'ok' });
    expect((events.at(-1)!.data as Answer).providers.map((outcome) => [outcome.provider, outcome.status])).toEqual([
      ['brave', 'ok'],
      ['exa', 'ok'],
    ]);

    // The stream that joined leaves: the plain search still gets exa's answer.
    const otherPath = '/v1/search/web?q=joined+stream+leaves&providers=brave,exa';
    const stays = request(running.origin, otherPath);
    await expect.poll(() => heldExa.length).toBe(2);
    const streamLeaves = new AbortController();
    const leaving = await openStream(running, otherPath.replace('?', '/stream?'), streamLeaves.signal);
    await readUntil(leaving, hasResultsAfterProviders(1));
    expect(await sharedCount(running)).toBe(2);
    streamLeaves.abort();
    await leaving.cancel().catch(() => undefined);
    await expect.poll(() => streamsAborted(running)).toBe(1);
    expect(heldExa[1]!.destroyed).toBe(false);
    heldExa[1]!.writeHead(200, { 'content-type': 'application/json' }).end(exaBody('https://slow.example/1'));
    const answer = (await (await stays).json()) as Answer;
    expect(answer.providers.map((outcome) => outcome.status)).toEqual(['ok', 'ok']);
    expect(answer.results.map((result) => result.url)).toContain('https://slow.example/1');
    expect(upstream!.requestsTo(EXA)).toHaveLength(2);
  });

  /**
   * A search that joins is answered with the fan-out's outcomes, each provider's latency counted from that fan-out's
   * start. Its took_ms counted from its own, later, arrival: a provider took longer than the whole answer, on the page a
   * bar longer than the total. It counts from the fan-out's start now, as the providers' times and the deadline do.
   */
  it('reports a search that joined with the time of the fan-out it joined, no provider longer than its took_ms', async () => {
    const running = await start();
    const plainPath = '/v1/search/web?q=joined+timings&providers=brave,exa';
    const first = request(running.origin, plainPath);
    await expect.poll(() => heldExa.length).toBe(1);
    const joinedPlain = request(running.origin, plainPath);
    const joinedStream = await openStream(running, plainPath.replace('?', '/stream?'));
    await expect.poll(() => sharedCount(running)).toBe(2);
    answerExa();
    const done = (await joinedStream.rest()).at(-1)!.data as Answer;
    const answers = [(await (await first).json()) as Answer, (await (await joinedPlain).json()) as Answer, done];
    for (const answer of answers) {
      expect(answer.cached).toBe(false);
      expect(answer.took_ms).toBeGreaterThanOrEqual(slowestProvider(answer));
    }
    expect(upstream!.requestsTo(EXA)).toHaveLength(1);
  });

  /**
   * Ties between results break by the order the providers' lists are fused in. Callers naming the same providers in
   * another order share a fan-out (and a cached answer): the one that joined must be shown, as it streams, the
   * ranking its `done` gives, which is the first caller's.
   */
  it('streams a caller that joined naming its providers in another order the tied ranking its answer gives', async () => {
    const running = await start();
    const first = await openStream(running, '/v1/search/web/stream?q=tied+scores&providers=exa,brave');
    await readUntil(first, hasResultsAfterProviders(1));
    const second = await openStream(running, '/v1/search/web/stream?q=tied+scores&providers=brave,exa');
    await readUntil(second, hasResultsAfterProviders(1));
    expect(await sharedCount(running)).toBe(1);
    // Exa's first result ties with brave's: each one source at rank 1.
    heldExa[0]!.writeHead(200, { 'content-type': 'application/json' }).end(exaBody('https://exa-first.example/'));
    for (const reader of [first, second]) {
      await reader.rest();
      const lastResults = reader.events.filter((event) => event.event === 'results').at(-1)!.data as { results: Answer['results'] };
      const done = reader.events.at(-1)!.data as Answer;
      expect(lastResults.results.map((result) => result.url)).toEqual(done.results.map((result) => result.url));
    }
    const firstDone = first.events.at(-1)!.data as Answer;
    expect(firstDone.results.map((result) => result.url).sort()).toEqual(['https://both.example/', 'https://exa-first.example/', 'https://fast.example/1']);
    expect(withoutTiming(second.events.at(-1)!.data as Answer)).toEqual(withoutTiming(firstDone));
    expect(upstream!.requestsTo(EXA)).toHaveLength(1);
  });
});
