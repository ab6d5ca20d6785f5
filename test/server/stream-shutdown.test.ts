import { Agent, get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv } from '../support/service.js';
import { holdAnswer, startServer } from './server-process.js';

/**
 * A search stream's headers go out before a shutdown begins, so they promise keep-alive. A client that keeps its
 * idle connections (a proxy's upstream pool, Node's agent) then held the server's close after the stream had
 * delivered its `done`, and every redeploy waited out SHUTDOWN_GRACE_MS and logged requests still open.
 */
describe('graceful shutdown with a search stream open', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.stop());

  it('delivers the stream to its end, then exits without waiting out the grace period', async () => {
    const held = holdAnswer(JSON.stringify({ web: { results: [{ title: 'Finished', url: 'https://done.example/' }] } }));
    upstream.on('/brave/res/v1/web/search', held.behaviour);
    const graceMs = 20_000;
    const server = await startServer({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', BRAVE_TIMEOUT_MS: '60000', SHUTDOWN_GRACE_MS: String(graceMs) });
    const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    try {
      const stream = new Promise<string>((resolve, reject) => {
        get(`${server.origin}/v1/search/web/stream?q=slow&providers=brave&timeout_ms=30000`, { agent }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve(body));
          response.on('error', reject);
        }).on('error', reject);
      });
      await held.reached;
      server.child.kill('SIGTERM');
      await server.waitForOutput('"msg":"shutting down"');
      held.release();
      const body = await stream;
      expect(body).toContain('event: done');
      expect(body).toContain('https://done.example/');
      const streamEnded = Date.now();
      expect(await server.exited).toBe(0);
      expect(Date.now() - streamEnded).toBeLessThan(graceMs / 2);
      expect(server.output.join('')).not.toContain('grace period over');
      expect(server.output.join('')).toContain('"msg":"closed"');
    } finally {
      held.release();
      agent.destroy();
      server.child.kill('SIGKILL');
    }
  }, 40_000);
});
