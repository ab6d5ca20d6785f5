import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { connect, MCP_POST_HEADERS, rawRequest, streamableSessionId, type Connected } from './mcp-client.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
/** Far below the SDK's own 60 s: a call left unanswered fails with the SDK's timeout error, which the test tells apart. */
const CALL_TIMEOUT_MS = 10_000;

/** A web_search of brave (which the fake holds) over `connected`: its error once it ends, or a word that it was answered. */
function heldSearch(connected: Connected, query: string): Promise<unknown> {
  return connected.client
    .callTool({ name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } }, undefined, {
      timeout: CALL_TIMEOUT_MS,
    })
    .then(
      () => 'answered with a result',
      (error: unknown) => error,
    );
}

describe('a Streamable HTTP session ended by DELETE while a tool call of it runs', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const braveRequestsFor = (query: string) => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query);

  it('answers the call with a JSON-RPC error naming SESSION_CLOSED, instead of leaving its client to time out', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      const query = 'a session ended under a running call';
      const call = heldSearch(connected, query);
      await expect.poll(() => braveRequestsFor(query).length).toBe(1);
      const abortedBefore = upstream.abortedPaths.length;

      // Another client holding the session's id ends it.
      const headers = { ...MCP_POST_HEADERS, 'mcp-session-id': streamableSessionId(connected)!, 'mcp-protocol-version': '2025-06-18' };
      expect((await rawRequest(service.origin, '/mcp', { method: 'DELETE', headers })).status).toBe(200);

      const error = await call;
      expect(error).toBeInstanceOf(McpError);
      // -32000 (connection closed), not the SDK's -32001 "Request timed out" it gave after waiting CALL_TIMEOUT_MS.
      expect(error).toMatchObject({ code: -32000, data: { code: 'SESSION_CLOSED', request_id: expect.any(String) } });
      expect((error as McpError).message).toContain('a DELETE ended it');
      // The search behind it stops too.
      await expect.poll(() => upstream.abortedPaths.length).toBe(abortedBefore + 1);
    } finally {
      await connected.close();
    }
  });
});

describe.each(['sse', 'streamable'] as const)('a shutdown whose grace ends with a tool call still running, over %s', (kind) => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, { kind: 'hang' });
  });
  afterAll(() => upstream.stop());

  it('answers the call with a JSON-RPC error naming SHUTTING_DOWN before the session ends', async () => {
    // No grace at all: the sessions close as the shutdown begins, before the provider calls are cut short and the
    // search answers with what it has (which a grace of any length gives a search first).
    const service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test-key-0123456789',
      LOG_LEVEL: 'silent',
      SHUTDOWN_GRACE_MS: '0',
    });
    const connected = await connect(service.origin, kind);
    try {
      const query = `still running when the grace ended, over ${kind}`;
      const call = heldSearch(connected, query);
      await expect.poll(() => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query).length).toBe(1);
      await service.stop();
      const error = await call;
      expect(error).toBeInstanceOf(McpError);
      expect(error).toMatchObject({ code: -32000, data: { code: 'SHUTTING_DOWN', request_id: expect.any(String) } });
    } finally {
      await connected.close();
      await service.stop();
    }
  });
});
