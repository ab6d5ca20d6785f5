import { createServer, get, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { lazyClientGoneSignal } from '../../src/http/request-signal.js';
import { braveBody } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';

/** A real server whose one request is held: the test decides when to answer and when to ask for the signal. */
async function heldRequest(): Promise<{ response: ServerResponse; closed: Promise<void>; client: AbortController; stop(): void }> {
  let held!: (response: ServerResponse) => void;
  const arrived = new Promise<ServerResponse>((resolve) => (held = resolve));
  const server = createServer((_request, response) => held(response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new AbortController();
  fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { signal: client.signal }).catch(() => undefined);
  const response = await arrived;
  const closed = new Promise<void>((resolve) => response.once('close', () => resolve()));
  return { response, closed, client, stop: () => server.close() };
}

describe('lazyClientGoneSignal', () => {
  it('makes a signal aborted as cancelled when asked for after the client left', async () => {
    const held = await heldRequest();
    const signal = lazyClientGoneSignal({ raw: held.response });
    held.client.abort();
    await held.closed;
    const made = signal();
    expect(made.aborted).toBe(true);
    expect(made.reason).toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(signal()).toBe(made);
    held.stop();
  });

  it('aborts a signal asked for earlier when the client leaves, and not one whose answer was written', async () => {
    const left = await heldRequest();
    const early = lazyClientGoneSignal({ raw: left.response })();
    expect(early.aborted).toBe(false);
    left.client.abort();
    await left.closed;
    expect(early.aborted).toBe(true);
    left.stop();

    const answered = await heldRequest();
    const signal = lazyClientGoneSignal({ raw: answered.response });
    answered.response.end('done');
    await answered.closed;
    expect(signal().aborted).toBe(false);
    answered.stop();
  });

  it('adds no close listener to the response until the signal is asked for', async () => {
    const held = await heldRequest();
    const listeners = held.response.listenerCount('close');
    const signal = lazyClientGoneSignal({ raw: held.response });
    expect(held.response.listenerCount('close')).toBe(listeners);
    const made = signal();
    expect(held.response.listenerCount('close')).toBe(listeners + 1);
    held.client.abort();
    await held.closed;
    expect(made.aborted).toBe(true);
    held.stop();
  });
});

describe('a search route and its client', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', braveBody('https://brave.example/1')).on('/searxng/search', { kind: 'hang' });
    // SearXNG's timeout (60 s) far past the polls below: its request can only end early because the client left.
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test-key-0123456789',
      SEARXNG_TIMEOUT_MS: '60000',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** node:http, so the test's own client makes no AbortController. */
  const answerOf = (path: string) =>
    new Promise<{ providers: Array<{ provider: string; status: string }> }>((resolve, reject) => {
      get(`${service.origin}${path}`, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve(JSON.parse(body)));
      }).on('error', reject);
    });

  it('stops asking the providers when the client goes away', async () => {
    const client = new AbortController();
    const asked = upstream.requestsTo('/searxng/search').length;
    fetch(`${service.origin}/v1/search/web?q=leaving&providers=searxng`, { signal: client.signal }).catch(() => undefined);
    // Polled for longer than the default second: on a loaded machine the request, and then the abort, cross two
    // sockets and the event loops of the service and the fake upstream (it failed at 1 s under a parallel suite).
    await expect.poll(() => upstream.requestsTo('/searxng/search').length, { timeout: 10_000 }).toBe(asked + 1);
    client.abort();
    // The upstream saw its connection closed: the request was aborted, not left to run into its timeout.
    await expect.poll(() => upstream.abortedPaths, { timeout: 10_000 }).toContain('/searxng/search');
  });

  it('makes one AbortController per search, for the providers\' deadline, and none to pass the client\'s abort along', async () => {
    let made = 0;
    vi.stubGlobal(
      'AbortController',
      class CountingAbortController extends AbortController {
        constructor() {
          super();
          made += 1;
        }
      },
    );
    const answer = await answerOf('/v1/search/web?q=counted&providers=brave');
    expect(answer.providers).toMatchObject([{ provider: 'brave', status: 'ok' }]);
    expect(made).toBe(1);
  });
});
