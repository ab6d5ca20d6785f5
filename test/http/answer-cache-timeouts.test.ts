import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveBody } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis } from '../support/redis-server.js';
import { startSharedReplicas, type SharedReplicas } from '../support/shared-replicas.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
const BRAVE_KEY = 'brave-test-key-0123456789';

type Outcome = { provider: string; status: string };

function search(service: RunningService, words: string, timeoutMs?: number) {
  const deadline = timeoutMs === undefined ? '' : `&timeout_ms=${timeoutMs}`;
  return request(service.origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=brave,local${deadline}`).then((response) => response.json());
}

function braveStatus(answer: { providers: Outcome[] }): string | undefined {
  return answer.providers.find((outcome) => outcome.provider === 'brave')?.status;
}

describe('the answer cache and the caller\'s timeout_ms', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: BRAVE_KEY, CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('serves a complete answer to a later caller whatever timeout_ms it gives', async () => {
    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/complete')));
    const asked = upstream.requestsTo(BRAVE_PATH).length;
    const first = await search(service, 'complete whatever the deadline', 5000);
    expect(first.cached).toBe(false);
    expect(braveStatus(first)).toBe('ok');
    for (const timeoutMs of [8000, 1000, undefined]) {
      const again = await search(service, 'complete whatever the deadline', timeoutMs);
      expect(again.cached).toBe(true);
      expect(again.results).toEqual(first.results);
    }
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);
  });

  it('serves a partial answer only to callers that wait no longer than the one it was made for', async () => {
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    const partial = await search(service, 'partial within its deadline', 400);
    expect(braveStatus(partial)).toBe('timeout');
    const asked = upstream.requestsTo(BRAVE_PATH).length;

    // As long, or shorter: waiting would not have found more.
    expect(await search(service, 'partial within its deadline', 400)).toMatchObject({ cached: true });
    expect(await search(service, 'partial within its deadline', 200)).toMatchObject({ cached: true });
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked);

    // Longer (or no timeout_ms: each provider's own): the providers are asked again, and Brave answers in time now.
    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/in-time')));
    const longer = await search(service, 'partial within its deadline', 8000);
    expect(longer.cached).toBe(false);
    expect(braveStatus(longer)).toBe('ok');
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);

    // The complete answer replaced the partial one, for every caller.
    expect(await search(service, 'partial within its deadline', 400)).toMatchObject({ cached: true, results: longer.results });
  });

  it('does not serve a partial answer made within a timeout_ms to a caller that gives none', async () => {
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    expect(braveStatus(await search(service, 'partial and no deadline', 300))).toBe('timeout');
    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/no-deadline')));
    const unbounded = await search(service, 'partial and no deadline');
    expect(unbounded.cached).toBe(false);
    expect(braveStatus(unbounded)).toBe('ok');
  });

  it('never lets a partial answer that finished later replace a complete one kept already', async () => {
    // The first request to Brave hangs (the short search's), every later one answers at once.
    let first = true;
    let arrived!: () => void;
    const hanging = new Promise<void>((resolve) => (arrived = resolve));
    upstream.on(BRAVE_PATH, {
      kind: 'handler',
      handle: (_request, response) => {
        if (first) {
          first = false;
          arrived();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://brave.example/whole'));
      },
    });
    const words = 'complete before the partial';
    const short = search(service, words, 400);
    await hanging;
    const whole = await search(service, words);
    expect(braveStatus(whole)).toBe('ok');
    expect(braveStatus(await short)).toBe('timeout');
    // The complete answer serves a caller of the short deadline too: the partial one, which came after it, was not kept.
    expect(await search(service, words, 400)).toMatchObject({ cached: true, results: whole.results });
  });

  it('lets no caller join a search in flight with another deadline', async () => {
    upstream.on(BRAVE_PATH, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://brave.example/slow'), delayMs: 800 });
    const asked = upstream.requestsTo(BRAVE_PATH).length;
    // Sent together: whichever arrives first, the other must run its own fan-out with its own deadline.
    const [short, long] = await Promise.all([search(service, 'two deadlines in flight', 300), search(service, 'two deadlines in flight', 8000)]);
    expect(braveStatus(short)).toBe('timeout');
    expect(braveStatus(long)).toBe('ok');
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 2);
  });
});

describeWithRedis('the shared answer cache and the caller\'s timeout_ms', () => {
  let replicas: SharedReplicas;

  beforeAll(async () => {
    replicas = await startSharedReplicas({ BRAVE_API_KEY: BRAVE_KEY });
  });
  afterAll(() => replicas.stop());

  it('serves one replica\'s complete answer to the other whatever timeout_ms it gives', async () => {
    replicas.upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/shared')));
    const asked = replicas.upstream.requestsTo(BRAVE_PATH).length;
    const first = await search(replicas.a, 'shared whatever the deadline', 5000);
    expect(first.cached).toBe(false);
    await expect.poll(async () => (await replicas.sharedAnswers()).length).toBe(1);
    const fromB = await search(replicas.b, 'shared whatever the deadline', 8000);
    expect(fromB.cached).toBe(true);
    expect(fromB.results).toEqual(first.results);
    expect(replicas.upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);
  });

  it('keeps a partial answer from a caller that waits longer, and finds the better answer another replica kept', async () => {
    replicas.upstream.on(BRAVE_PATH, { kind: 'hang' });
    const words = 'shared partial answer';
    expect(braveStatus(await search(replicas.a, words, 400))).toBe('timeout');
    await expect.poll(async () => (await replicas.sharedAnswers()).some((answer) => answer.partialTimeoutMs === 400)).toBe(true);
    expect(await search(replicas.b, words, 400)).toMatchObject({ cached: true });

    replicas.upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/later')));
    const asked = replicas.upstream.requestsTo(BRAVE_PATH).length;
    const longer = await search(replicas.b, words, 8000);
    expect(longer.cached).toBe(false);
    expect(braveStatus(longer)).toBe('ok');
    expect(replicas.upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);
    await expect.poll(async () => (await replicas.sharedAnswers()).some((answer) => answer.partialTimeoutMs === 400)).toBe(false);

    // Replica A still holds the partial answer in process; behind it, Redis holds B's complete one.
    const fromA = await search(replicas.a, words, 8000);
    expect(fromA).toMatchObject({ cached: true, results: longer.results });
    expect(replicas.upstream.requestsTo(BRAVE_PATH).length).toBe(asked + 1);
  });
});
