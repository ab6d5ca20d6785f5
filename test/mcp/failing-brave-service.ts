import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, connect, type Connected } from './mcp-client.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

export interface FailingBraveService {
  service: RunningService;
  connected: Connected;
  stop(): Promise<void>;
}

/**
 * A service, and an MCP client of it, where Brave answers by query: HTTP 500 when `fails(query)`, no result for a
 * query holding "nothing", one page otherwise. Every other provider is routed nowhere, so it fails (the fake's 404),
 * and the local index's folder is gone (removed after start-up, as an unmounted volume), so it fails too: what a
 * search no provider answered looks like.
 */
export async function startFailingBrave(fails: (query: string) => boolean): Promise<FailingBraveService> {
  const upstream = await startFakeUpstream();
  upstream.on(BRAVE_PATH, {
    kind: 'handler',
    handle: (request, response) => {
      const query = request.url.searchParams.get('q') ?? '';
      if (fails(query)) response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}');
      else response.writeHead(200, { 'content-type': 'application/json' }).end(query.includes('nothing') ? braveBody() : braveBody('https://found.example/page'));
    },
  });
  const localIndex = mkdtempSync(path.join(tmpdir(), 'fedsearch-gone-index-'));
  // The breaker would suspend brave after a few failures here; each failure is a test's own.
  const service = await startService({
    ...providerEnv(upstream.origin),
    BRAVE_API_KEY: 'brave-test-key-0123456789',
    BREAKER_FAILURES: '1000',
    LOCAL_INDEX_DIR: localIndex,
    LOG_LEVEL: 'silent',
  });
  rmSync(localIndex, { recursive: true, force: true });
  const connected = await connect(service.origin, 'streamable');
  return {
    service,
    connected,
    stop: async () => {
      await connected.close();
      await service.stop();
      await upstream.stop();
    },
  };
}
