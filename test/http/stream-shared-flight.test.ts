import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { SseReader } from '../support/sse-reader.js';

const BRAVE = '/brave/res/v1/web/search';
const EXA = '/exa/search';
const KEYS = { BRAVE_API_KEY: 'brave-shared-stream-key-0123456789', EXA_API_KEY: 'exa-shared-stream-key-0123456789' };

type Outcome = { provider: string; status: string };
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

/** How many streams' clients went away before their end, read off /metrics. */
async function streamsAborted(service: RunningService): Promise<number> {
  const metrics = await (await request(service.origin, '/metrics')).text();
  const line = metrics.split('\n').find((candidate) => candidate.startsWith('fedsearch_http_requests_aborted_total{') && candidate.includes('route="/v1/search/web/stream"'));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

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

  it('gives a stream arriving during an identical plain search a fan-out of its own, with every provider event', async () => {
    const running = await start();
    const plainPath = '/v1/search/web?q=stream+after+plain&providers=brave,exa';
    const plain = request(running.origin, plainPath);
    await expect.poll(() => heldExa.length).toBe(1);
    // The plain search's fan-out kept nothing of what it heard: the stream could not be told brave's answer.
    const stream = await openStream(running, plainPath.replace('?', '/stream?'));
    await readUntil(stream, hasResultsAfterProviders(1));
    await expect.poll(() => heldExa.length).toBe(2);
    for (const held of heldExa) held.writeHead(200, { 'content-type': 'application/json' }).end(exaBody('https://slow.example/1'));
    const events = await stream.rest();
    expect(namesOf(events)).toEqual(['provider', 'results', 'done']);
    expect(((await (await plain).json()) as Answer).providers.map((outcome) => outcome.status)).toEqual(['ok', 'ok']);
  });
});
