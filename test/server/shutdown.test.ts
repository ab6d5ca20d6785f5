import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv } from '../support/service.js';
import { holdAnswer, startServer } from './server-process.js';

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
    const server = await startServer({ SHUTDOWN_GRACE_MS: '300' });
    // A request whose body never comes in full: no provider call to cut short, so only the grace ends it.
    const { port } = new URL(server.origin);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write('POST /v1/ops/web_search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query"');
    const closed = once(socket, 'close');
    try {
      await expect.poll(() => fetch(`${server.origin}/healthz`).then((response) => response.status)).toBe(200);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      await closed;
      expect(server.output.join('')).toContain('grace period over');
    } finally {
      socket.destroy();
      server.child.kill('SIGKILL');
    }
  });

  it('ends at once on a second signal while shutting down, with 128 + its number, however long the grace', async () => {
    // The longest grace allowed: only the second signal can end this shutdown before the test's own timeout.
    const server = await startServer({ SHUTDOWN_GRACE_MS: '600000' });
    const { port } = new URL(server.origin);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    // A request whose body never comes in full holds the shutdown open for the whole grace.
    socket.write('POST /v1/ops/web_search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query"');
    const closed = once(socket, 'close');
    try {
      await expect.poll(() => fetch(`${server.origin}/healthz`).then((response) => response.status)).toBe(200);
      server.child.kill('SIGTERM');
      await server.waitForOutput('"msg":"shutting down"');
      server.child.kill('SIGINT');
      // 130 = 128 + SIGINT's 2, as a shell reports a process a Ctrl-C ended: not the 0 of a shutdown that finished.
      expect(await server.exited).toBe(130);
      await closed;
      expect(server.output.join('')).toContain('"signal":"SIGINT","msg":"second signal while shutting down; exiting now');
      expect(server.output.join('')).not.toContain('grace period over');
    } finally {
      socket.destroy();
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
