import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveBody, callTool, connect, type TransportKind } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv } from '../support/service.js';
import { holdAnswer, MCP_FINISHING_LINE, startServer } from './server-process.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

const cases: Array<{ name: string; kind: TransportKind; stateless: boolean }> = [
  { name: 'legacy SSE', kind: 'sse', stateless: false },
  { name: 'Streamable HTTP with sessions', kind: 'streamable', stateless: false },
  { name: 'stateless Streamable HTTP', kind: 'streamable', stateless: true },
];

describe('graceful shutdown of MCP', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.stop());

  it.each(cases)('over $name, a tool call in flight on SIGTERM delivers its result, then the process exits 0', async ({ kind, stateless }) => {
    const url = `https://finished.example/${kind}-${stateless ? 'stateless' : 'sessions'}`;
    const held = holdAnswer(braveBody(url));
    upstream.on(BRAVE_PATH, held.behaviour);
    const server = await startServer({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test-key-0123456789',
      BRAVE_TIMEOUT_MS: '60000',
      MCP_STATELESS: String(stateless),
      SHUTDOWN_GRACE_MS: '20000',
    });
    const connected = await connect(server.origin, kind);
    try {
      const call = callTool(connected.client, 'research', {
        operation: 'web_search',
        params: { query: 'in flight during shutdown', providers: ['brave'], timeout_ms: 30_000 },
      });
      await held.reached;
      server.child.kill('SIGTERM');
      await server.waitForOutput(MCP_FINISHING_LINE);

      // Shutting down: a new client is turned away rather than left waiting.
      await expect(connect(server.origin, kind)).rejects.toThrow();

      held.release();
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { results: Array<{ url: string }> }).results.map((entry) => entry.url)).toEqual([url]);
      expect(await server.exited).toBe(0);
      expect(server.output.join('')).not.toContain('grace period over');
    } finally {
      held.release();
      await connected.close();
      server.child.kill('SIGKILL');
    }
  });
});
