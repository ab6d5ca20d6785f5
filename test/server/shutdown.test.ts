import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv } from '../support/service.js';
import { holdAnswer, startServer, type ServerProcess } from './server-process.js';

/**
 * Starts the server with a page that never answers, and asks fetch_url for it: a request in flight that no shutdown
 * cuts short (a provider call would be, shutdown-cut.ts, and one still arriving is answered 503), so only the end of
 * the grace, or a second signal, ends the process. Resolves once the server is asking for the page.
 */
async function serverHeldByAFetch(upstream: FakeUpstream, env: Record<string, string>): Promise<{ server: ServerProcess; answer: Promise<unknown> }> {
  const hangs = `/hangs/${env.SHUTDOWN_GRACE_MS}`;
  upstream.on(hangs, { kind: 'hang' });
  const server = await startServer({ ...env, FETCH_ALLOW_PRIVATE: 'true', FETCH_TIMEOUT_MS: '120000', READ_TIMEOUT_MS: '600000' });
  const answer = fetch(`${server.origin}/v1/ops/fetch_url`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${upstream.origin}${hangs}`, engine: 'direct' }),
  }).catch((error: unknown) => error);
  await expect.poll(() => upstream.requestsTo(hangs).length).toBe(1);
  return { server, answer };
}

describe('graceful shutdown', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.stop());

  it('lets an in-flight search finish on SIGTERM, then exits 0', async () => {
    const held = holdAnswer(JSON.stringify({ web: { results: [{ title: 'Finished', url: 'https://done.example/' }] } }));
    upstream.on('/brave/res/v1/web/search', held.behaviour);
    const server = await startServer({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', BRAVE_TIMEOUT_MS: '60000', SHUTDOWN_GRACE_MS: '10000' });
    try {
      const pending = fetch(`${server.origin}/v1/search/web?q=slow&providers=brave&timeout_ms=30000`).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { results: Array<{ url: string }> },
      }));
      await held.reached;
      server.child.kill('SIGTERM');
      await server.waitForOutput('"msg":"shutting down"');
      held.release();
      const answer = await pending;
      expect(answer.status).toBe(200);
      expect(answer.body.results.map((result) => result.url)).toEqual(['https://done.example/']);
      expect(await server.exited).toBe(0);
      await expect(fetch(`${server.origin}/healthz`)).rejects.toThrow();
    } finally {
      held.release();
      server.child.kill('SIGKILL');
    }
  });

  it('answers a search whose provider still hangs before the grace period ends, the provider reported as a timeout, then exits 0', async () => {
    upstream.on('/brave/res/v1/web/search', { kind: 'hang' });
    upstream.json('/searxng/search', { results: [{ title: 'Answered', url: 'https://answered.example/', content: 'in time' }] });
    const graceMs = 3000;
    const server = await startServer({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'k-123456',
      BRAVE_TIMEOUT_MS: '60000',
      SEARXNG_TIMEOUT_MS: '60000',
      SHUTDOWN_GRACE_MS: String(graceMs),
    });
    try {
      const pending = fetch(`${server.origin}/v1/search/web?q=hang&providers=brave,searxng&timeout_ms=30000`).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { results: Array<{ url: string }>; providers: Array<{ provider: string; status: string; message?: string }> },
      }));
      await expect.poll(() => upstream.requestsTo('/brave/res/v1/web/search').filter((r) => r.url.searchParams.get('q') === 'hang').length).toBe(1);
      await expect.poll(() => upstream.requestsTo('/searxng/search').length).toBeGreaterThan(0);
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      const answer = await pending;
      expect(answer.status).toBe(200);
      expect(answer.body.results.map((result) => result.url)).toEqual(['https://answered.example/']);
      expect(answer.body.providers.find((outcome) => outcome.provider === 'brave')).toMatchObject({
        status: 'timeout',
        message: 'no answer before the service shut down',
      });
      expect(await server.exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(graceMs);
      expect(server.output.join('')).not.toContain('grace period over');
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('exits 0 when the grace period ends with a request still open', async () => {
    const { server, answer } = await serverHeldByAFetch(upstream, { SHUTDOWN_GRACE_MS: '300' });
    try {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      // The request still open had its connection cut when the process ended: no answer.
      expect(await answer).toBeInstanceOf(Error);
      expect(server.output.join('')).toContain('grace period over');
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('ends at once on a second signal while shutting down, with 128 + its number, however long the grace', async () => {
    // The longest grace allowed: only the second signal can end this shutdown before the test's own timeout.
    const { server, answer } = await serverHeldByAFetch(upstream, { SHUTDOWN_GRACE_MS: '600000' });
    try {
      server.child.kill('SIGTERM');
      await server.waitForOutput('"msg":"shutting down"');
      server.child.kill('SIGINT');
      // 130 = 128 + SIGINT's 2, as a shell reports a process a Ctrl-C ended: not the 0 of a shutdown that finished.
      expect(await server.exited).toBe(130);
      expect(await answer).toBeInstanceOf(Error);
      expect(server.output.join('')).toContain('"signal":"SIGINT","msg":"second signal while shutting down; exiting now');
      expect(server.output.join('')).not.toContain('grace period over');
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('ends a connection that never sent a request, so the shutdown does not wait out the grace period for it', async () => {
    // A browser's preconnect, or a client pool's spare socket: open, never used. Node's close() left it open.
    const server = await startServer({ SHUTDOWN_GRACE_MS: '25000' });
    const { port } = new URL(server.origin);
    const unused = connect(Number(port), '127.0.0.1');
    await once(unused, 'connect');
    const closed = once(unused, 'close');
    try {
      await expect.poll(() => fetch(`${server.origin}/healthz`).then((response) => response.status)).toBe(200);
      server.child.kill('SIGTERM');
      await closed;
      expect(await server.exited).toBe(0);
      expect(server.output.join('')).toContain('"msg":"closed"');
      expect(server.output.join('')).not.toContain('grace period over');
    } finally {
      unused.destroy();
      server.child.kill('SIGKILL');
    }
  });

  it("keeps the default grace under Docker's 10 s stop timeout, and compose waits longer than the grace", () => {
    const dockerStopTimeoutMs = 10_000;
    // After the grace period the process still has to log and exit before Docker's SIGKILL.
    const exitMarginMs = 1000;
    const graceMs = loadConfig({}).SHUTDOWN_GRACE_MS;
    expect(graceMs + exitMarginMs).toBeLessThanOrEqual(dockerStopTimeoutMs);
    const compose = readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8');
    const stopGracePeriod = /^ {4}stop_grace_period: (\d+)s$/m.exec(compose);
    expect(stopGracePeriod).not.toBeNull();
    expect(Number(stopGracePeriod![1]) * 1000).toBeGreaterThanOrEqual(graceMs + exitMarginMs);
  });
});
