import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { connect } from './mcp-client.js';

/** Every search provider auto_research may ask for a news question: none answers, so its steps are in flight when cancelled. */
const SEARCH_PATHS = ['/brave/res/v1/web/search', '/hackernews/api/v1/search', '/wikipedia/w/api.php', '/searxng/search'];

interface LogLine {
  level?: number;
  msg?: string;
}

/**
 * notifications/cancelled carries a `reason` of the client's choosing, and the SDK aborts the call's signal with it: the
 * steps of an auto_research then fail with that text, which must not reach the error log as a defect of the service.
 */
describe('an auto_research call its MCP client cancels', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    for (const path of SEARCH_PATHS) upstream.on(path, { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('logs no step as failed, and none of the reason the client gave', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      const reason = `client-reason-${'r'.repeat(20_000)}`;
      const controller = new AbortController();
      const call = connected.client
        .callTool({ name: 'research', arguments: { operation: 'auto_research', params: { query: 'latest news about rust compilers', depth: 2 } } }, undefined, {
          signal: controller.signal,
          timeout: 60_000,
        })
        .catch((error: unknown) => error);
      await expect.poll(() => upstream.requests.filter((recorded) => SEARCH_PATHS.includes(recorded.path)).length).toBeGreaterThanOrEqual(2);
      controller.abort(reason);
      expect(await call).toBeDefined();
      // Written once every step has settled: their lines, if any, come before it.
      await expect.poll(() => service.logs.some((line) => line.includes('"MCP tool call cancelled"'))).toBe(true);

      const lines = service.logs.map((line) => JSON.parse(line) as LogLine);
      expect(lines.filter((line) => line.msg === 'auto_research step failed')).toEqual([]);
      expect(lines.filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
      expect(service.logs.filter((line) => line.includes('client-reason-'))).toEqual([]);
    } finally {
      await connected.leave();
    }
  });
});
