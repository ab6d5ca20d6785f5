import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLimiters, gatherResults, type ProviderAnswer } from '../../src/engine/gather.js';
import { createUpstreamTransport } from '../../src/engine/upstream-transport.js';
import type { Provider } from '../../src/providers/provider.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { makeQuery } from '../support/run-provider.js';
import { TestProvider, resultsBody } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });
const SECRET = 'sk-test-secret-value-123456';

function dependencies(limiterFor = createLimiters()) {
  return {
    transportFor: (provider: Provider) => createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 64 * 1024 }),
    limiterFor,
    secrets: () => [SECRET],
  };
}

function byName(answers: ProviderAnswer[]): Record<string, ProviderAnswer> {
  return Object.fromEntries(answers.map((answer) => [answer.provider.name, answer]));
}

describe('gatherResults', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .json('/ok/search', resultsBody('https://a.example/1', 'https://a.example/2'))
      .on('/slow/search', { kind: 'respond', body: resultsBody('https://slow.example/'), delayMs: 300, headers: { 'content-type': 'application/json' } })
      .on('/hang/search', { kind: 'hang' })
      .json('/500/search', { error: 'boom' }, 500)
      .json('/429/search', { error: 'slow down' }, 429, { 'retry-after': '7' })
      .json('/401/search', { error: `bad key ${SECRET}` }, 401)
      .on('/html/search', { kind: 'respond', headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html><body>Captcha</body></html>' })
      .on('/truncated/search', { kind: 'truncate', body: resultsBody('https://t.example/1', 'https://t.example/2'), headers: { 'content-type': 'application/json' } })
      .on('/reset/search', { kind: 'reset' })
      .on('/huge/search', { kind: 'respond', body: 'x'.repeat(200 * 1024) })
      .json('/weird/search', { results: 'not a list' });
  });
  afterAll(() => upstream.stop());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const provider = (name: string, timeoutMs = 5000) => new TestProvider(name, `${upstream.origin}/${name}`, { timeoutMs });

  it('reports every provider outcome and keeps the good results when others fail', async () => {
    const names = ['ok', '500', '429', '401', 'html', 'truncated', 'reset', 'huge', 'weird'];
    const answers = byName(await gatherResults(names.map((name) => provider(name)), makeQuery('q'), {}, dependencies()));
    expect(answers.ok!.outcome).toMatchObject({ status: 'ok', count: 2 });
    expect(answers.ok!.items.map((item) => item.url)).toEqual(['https://a.example/1', 'https://a.example/2']);
    expect(answers['500']!.outcome).toMatchObject({ status: 'error', code: 'PROVIDER_HTTP', message: 'HTTP 500: the provider is failing on its side; retry later' });
    expect(answers['429']!.outcome).toMatchObject({ status: 'error', code: 'PROVIDER_RATE_LIMITED', retry_after_ms: 7000 });
    expect(answers['401']!.outcome).toMatchObject({ status: 'error', code: 'PROVIDER_AUTH' });
    expect(answers.html!.outcome).toMatchObject({ status: 'error', code: 'PROVIDER_PARSE' });
    expect(answers.html!.outcome.message).toMatch(/HTML/);
    expect(answers.truncated!.outcome.status).toBe('error');
    expect(answers.truncated!.outcome.message).toMatch(/truncated|network error/);
    expect(answers.reset!.outcome).toMatchObject({ status: 'error', code: 'PROVIDER_NETWORK' });
    expect(answers.huge!.outcome.message).toMatch(/larger than/);
    expect(answers.weird!.outcome).toMatchObject({ status: 'ok', count: 0 });
    for (const answer of Object.values(answers)) {
      expect(answer.outcome.latency_ms).toBeGreaterThanOrEqual(0);
      expect(JSON.stringify(answer.outcome)).not.toContain(SECRET);
    }
  });

  it('answers by the deadline with a hanging provider marked timeout and its request aborted', async () => {
    const abortedBefore = upstream.abortedPaths.length;
    const answers = byName(await gatherResults([provider('ok'), provider('hang')], makeQuery('q'), { timeoutMs: 200 }, dependencies()));
    expect(answers.ok!.outcome.status).toBe('ok');
    expect(answers.hang!.outcome).toMatchObject({ status: 'timeout', code: 'PROVIDER_TIMEOUT', message: 'no answer within 200 ms' });
    // The upstream saw its connection closed: the late request was aborted, not left running.
    await expect.poll(() => upstream.abortedPaths.slice(abortedBefore)).toContain('/hang/search');
  });

  it('uses the provider timeout when it is shorter than the request deadline', async () => {
    const answers = byName(await gatherResults([provider('slow', 100)], makeQuery('q'), { timeoutMs: 5000 }, dependencies()));
    expect(answers.slow!.outcome).toMatchObject({ status: 'timeout', message: 'no answer within 100 ms' });
  });

  it('aborts every provider when the caller goes away', async () => {
    const controller = new AbortController();
    const pending = gatherResults([provider('hang')], makeQuery('q'), { signal: controller.signal }, dependencies());
    await expect.poll(() => upstream.requestsTo('/hang/search').length).toBeGreaterThan(0);
    controller.abort(new Error('client gone'));
    const [answer] = await pending;
    expect(answer!.outcome.status).toBe('error');
    expect(answer!.outcome.message).toMatch(/client went away/);
  });

  it('never opens more requests to one upstream than its concurrency limit', async () => {
    let inFlight = 0;
    let peak = 0;
    upstream.on('/limited/search', {
      kind: 'handler',
      handle: (_request, response) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        setImmediate(() => {
          inFlight -= 1;
          response.writeHead(200, { 'content-type': 'application/json' }).end(resultsBody('https://l.example/'));
        });
      },
    });
    const limited = new TestProvider('limited', `${upstream.origin}/limited`, { concurrency: 2 });
    const shared = dependencies();
    const runs = await Promise.all(Array.from({ length: 8 }, () => gatherResults([limited], makeQuery('q'), {}, shared)));
    expect(runs.every(([answer]) => answer!.outcome.status === 'ok')).toBe(true);
    expect(peak).toBeLessThanOrEqual(2);
    expect(peak).toBeGreaterThan(0);
  });

  it('reports a provider missing a required setting as not configured without calling it', async () => {
    const before = upstream.requests.length;
    const unconfigured = new TestProvider('needs-key', `${upstream.origin}/ok`);
    unconfigured.settings.credentials.push({ env: 'NEEDS_KEY_API_KEY', required: true, secret: true });
    const [answer] = await gatherResults([unconfigured], makeQuery('q'), {}, dependencies());
    expect(answer!.outcome).toMatchObject({ status: 'not_configured', missing: ['NEEDS_KEY_API_KEY'] });
    expect(upstream.requests.length).toBe(before);
  });

  it('stops what a finished call left running with one reason made once, not a new exception per call', async () => {
    const signals: AbortSignal[] = [];
    const task = async (_provider: Provider, _transport: unknown, signal: AbortSignal) => {
      signals.push(signal);
      return [];
    };
    await gatherResults([provider('ok'), provider('slow')], makeQuery('q'), { task }, dependencies());
    await gatherResults([provider('ok')], makeQuery('q'), { task }, dependencies());
    expect(signals).toHaveLength(3);
    await expect.poll(() => signals.every((signal) => signal.aborted)).toBe(true);
    expect(signals[0]!.reason).toMatchObject({ name: 'AbortError' });
    expect(new Set(signals.map((signal) => signal.reason)).size).toBe(1);
  });

  it('sets the deadline timer only after every provider has started its work, and still keeps the deadline', async () => {
    const order: string[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
      // Only the deadline's own timer: the test runner's worker sets timers of its own (reporting to the main
      // process), which a loaded machine lets fall inside this test.
      if (new Error().stack?.includes('call-deadline')) order.push('timer');
      return realSetTimeout(callback, ms);
    }) as typeof setTimeout);
    const task = async (asked: Provider, _transport: unknown, signal: AbortSignal) => {
      order.push(asked.name);
      if (asked.name === 'ok') return [];
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      throw signal.reason;
    };
    const answers = byName(await gatherResults([provider('ok'), provider('hang')], makeQuery('q'), { task, timeoutMs: 100 }, dependencies()));
    vi.mocked(globalThis.setTimeout).mockRestore();
    expect(order).toEqual(['ok', 'hang', 'timer']);
    expect(answers.hang!.outcome).toMatchObject({ status: 'timeout', message: 'no answer within 100 ms' });
  });

  it('answers before it stops what the finished calls left running: the answer does not wait for the abort', async () => {
    let signal: AbortSignal | undefined;
    const task = async (_provider: Provider, _transport: unknown, given: AbortSignal) => {
      signal = given;
      return [];
    };
    const answered = gatherResults([provider('ok')], makeQuery('q'), { task }, dependencies()).then(() => signal!.aborted);
    expect(await answered).toBe(false);
    await expect.poll(() => signal!.aborted).toBe(true);
  });

  it('leaves no rejection unhandled when a provider that ignores its signal fails after its deadline', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      let failLate!: (error: Error) => void;
      const late = new Promise<never>((_, reject) => {
        failLate = reject;
      });
      const task = () => late;
      const [answer] = await gatherResults([provider('ok', 50)], makeQuery('q'), { task }, dependencies());
      expect(answer!.outcome).toMatchObject({ status: 'timeout', code: 'PROVIDER_TIMEOUT' });
      failLate(new Error('the upstream failed after the deadline'));
      // Node reports an unhandled rejection once the microtasks of the turn are done: one turn later it would be in.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('gives providers with the same timeout one deadline signal, and a shorter timeout its own', async () => {
    const seen: Record<string, { signal: AbortSignal; abortedWhenDone?: boolean }> = {};
    let hangTimedOut!: () => void;
    const hangAborted = new Promise<void>((resolve) => {
      hangTimedOut = resolve;
    });
    const task = async (asked: Provider, _transport: unknown, signal: AbortSignal) => {
      seen[asked.name] = { signal };
      if (asked.name === 'hang') signal.addEventListener('abort', () => hangTimedOut());
      // The others answer only once the shorter deadline has passed.
      await hangAborted;
      seen[asked.name]!.abortedWhenDone = signal.aborted;
      return [];
    };
    const answers = byName(await gatherResults([provider('ok'), provider('slow'), provider('hang', 100)], makeQuery('q'), { task }, dependencies()));
    expect(seen.ok!.signal).toBe(seen.slow!.signal);
    expect(seen.hang!.signal).not.toBe(seen.ok!.signal);
    expect(answers.hang!.outcome).toMatchObject({ status: 'timeout', code: 'PROVIDER_TIMEOUT', message: 'no answer within 100 ms' });
    expect(answers.ok!.outcome).toMatchObject({ status: 'ok' });
    expect(answers.slow!.outcome).toMatchObject({ status: 'ok' });
    expect(seen.ok!.abortedWhenDone).toBe(false);
    await expect.poll(() => seen.ok!.signal.aborted).toBe(true);
  });
});
