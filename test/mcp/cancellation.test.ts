import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest, type ServerResponse } from 'node:http';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, connect, MCP_POST_HEADERS, streamableSessionId, type TransportKind } from './mcp-client.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

interface Mode {
  name: string;
  kind: TransportKind;
  env: Record<string, string>;
}

const MODES: Mode[] = [
  { name: 'legacy SSE', kind: 'sse', env: {} },
  { name: 'stateful Streamable HTTP', kind: 'streamable', env: {} },
  { name: 'stateless Streamable HTTP', kind: 'streamable', env: { MCP_STATELESS: 'true' } },
];

describe.each(MODES)('MCP cancellation over $name', ({ kind, env }) => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', LOG_LEVEL: 'info', ...env });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const braveRequestsFor = (query: string) => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query);
  const abortedBraveRequests = () => upstream.abortedPaths.filter((path) => path === BRAVE_PATH).length;
  /** The outcome line brave's call was logged with. */
  const braveOutcomes = () =>
    service.logs
      .map((line) => JSON.parse(line) as { provider?: { provider?: string; status?: string; code?: string } })
      .flatMap((entry) => (entry.provider?.provider === 'brave' ? [entry.provider] : []));

  it('stops the search behind a call the client cancels (notifications/cancelled), reported as cancelled', async () => {
    const connected = await connect(service.origin, kind);
    try {
      const query = `cancelled over ${kind} ${JSON.stringify(env)}`;
      const controller = new AbortController();
      const call = connected.client
        .callTool({ name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } }, undefined, {
          signal: controller.signal,
          timeout: 120_000,
        })
        .catch((error: unknown) => error);
      await expect.poll(() => braveRequestsFor(query).length).toBe(1);
      const abortedBefore = abortedBraveRequests();
      controller.abort('the user changed their mind');
      expect(await call).toBeDefined();
      await expect.poll(abortedBraveRequests).toBe(abortedBefore + 1);
      await expect.poll(braveOutcomes).toContainEqual(expect.objectContaining({ status: 'error', code: 'REQUEST_CANCELLED' }));
    } finally {
      await connected.close();
    }
  });

  it('logs and counts a cancelled call as cancelled, not as a failed tool, and ends the POST that carried it', async () => {
    const connected = await connect(service.origin, kind);
    try {
      const query = `counted as cancelled over ${kind} ${JSON.stringify(env)}`;
      const linesBefore = toolCallLines().length;
      const countsBefore = await toolCallCounts();
      const controller = new AbortController();
      const call = connected.client
        .callTool({ name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } }, undefined, {
          signal: controller.signal,
          timeout: 120_000,
        })
        .catch((error: unknown) => error);
      await expect.poll(() => braveRequestsFor(query).length).toBe(1);
      controller.abort('the user changed their mind');
      await call;
      await expect.poll(() => toolCallLines().length, { timeout: 10_000 }).toBe(linesBefore + 1);
      const line = toolCallLines().at(-1)!;
      expect(line).toMatchObject({ msg: 'MCP tool call cancelled', outcome: 'cancelled' });
      expect(line).not.toHaveProperty('isError');
      const counts = await toolCallCounts();
      expect(counts.get('outcome="cancelled"')).toBe((countsBefore.get('outcome="cancelled"') ?? 0) + 1);
      expect(counts.get('outcome="error"')).toBe(countsBefore.get('outcome="error"'));
      // Over Streamable HTTP the call's POST was held open (pinged) until the session ended: it ends now, and with
      // nothing more (an answer for the cancelled id would reach the client as one for an unknown request).
      await expect
        .poll(() => service.logs.some((logged) => logged.includes('"request completed"') && logged.includes(`"reqId":"${line.reqId}"`)), { timeout: 10_000 })
        .toBe(true);
      // The session goes on.
      const listed = await connected.client.callTool({ name: 'research', arguments: { operation: 'list_operations' } });
      expect(listed.isError).not.toBe(true);
    } finally {
      await connected.close();
    }
  });

  /** The lines of web_search tool calls logged so far. */
  const toolCallLines = () =>
    service.logs
      .map((line) => JSON.parse(line) as { msg?: string; reqId?: string; mcpRequestId?: unknown; operation?: string; outcome?: string })
      .filter((line) => line.msg?.startsWith('MCP tool call') && line.operation === 'web_search');

  /** fedsearch_mcp_tool_calls_total for research's web_search, by its outcome label. */
  const toolCallCounts = async () => {
    const text = await (await fetch(`${service.origin}/metrics`)).text();
    const prefix = 'fedsearch_mcp_tool_calls_total{tool="research",operation="web_search",';
    return new Map(
      text
        .split('\n')
        .filter((line) => line.startsWith(prefix))
        .map((line) => [line.slice(prefix.length, line.indexOf('}')), Number(line.slice(line.lastIndexOf(' ') + 1))]),
    );
  };
});

describe('MCP cancellation in stateless mode', () => {
  const KEY = 'cancel-key-aaaaaaaaaaaaaaaa';
  const OTHER_KEY = 'cancel-key-bbbbbbbbbbbbbbbb';
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test-key-0123456789',
      API_KEYS: `${KEY},${OTHER_KEY}`,
      LOG_LEVEL: 'warn',
      MCP_STATELESS: 'true',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const braveRequestsFor = (query: string) => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query);

  /** A tools/call POST whose search brave never answers, left running until `destroy()`. */
  async function startCall(query: string, key: string): Promise<{ destroy(): void }> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } },
    });
    const outgoing = httpRequest(new URL('/mcp', service.origin), { method: 'POST', headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${key}` } });
    outgoing.on('error', () => undefined);
    outgoing.end(body);
    await expect.poll(() => braveRequestsFor(query).length).toBe(1);
    return { destroy: () => outgoing.destroy() };
  }

  const cancel = (key: string) =>
    fetch(`${service.origin}/mcp`, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${key}` },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'test' } }),
    });

  it('stops the search of a request its client cancels in a POST of its own', async () => {
    const call = await startCall('stateless cancelled', KEY);
    const abortedBefore = upstream.abortedPaths.length;
    expect((await cancel(KEY)).status).toBe(202);
    await expect.poll(() => upstream.abortedPaths.length).toBe(abortedBefore + 1);
    call.destroy();
  });

  it('ends the response of a request its client cancelled, without answering it', async () => {
    const query = 'stateless cancelled, response read';
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } },
    });
    const outgoing = httpRequest(new URL('/mcp', service.origin), { method: 'POST', headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${KEY}` } });
    const read = new Promise<{ status: number; text: string }>((resolve, reject) => {
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      outgoing.on('error', reject);
    });
    outgoing.end(body);
    try {
      await expect.poll(() => braveRequestsFor(query).length).toBe(1);
      expect((await cancel(KEY)).status).toBe(202);
      // Before, the stream stayed open (and pinged) until the client left: this waited forever.
      const answered = await read;
      expect(answered.status).toBe(200);
      // MCP: no answer for a cancelled request, neither a result nor an error.
      expect(answered.text).not.toContain('"id":7');
      expect(answered.text).not.toContain('"result"');
    } finally {
      outgoing.destroy();
    }
  });

  it('stops the search of a POST whose response the client closed', async () => {
    const call = await startCall('stateless response dropped', KEY);
    const abortedBefore = upstream.abortedPaths.length;
    call.destroy();
    await expect.poll(() => upstream.abortedPaths.length).toBe(abortedBefore + 1);
  });

  it("ignores another API key's cancellation of a request with the same id", async () => {
    const query = 'cancelled by another key';
    const held: ServerResponse[] = [];
    upstream.on(BRAVE_PATH, { kind: 'handler', handle: (_request, response) => void held.push(response) });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } },
    });
    const answer = fetch(`${service.origin}/mcp`, { method: 'POST', headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${KEY}` }, body }).then((response) =>
      response.text(),
    );
    await expect.poll(() => held.length).toBe(1);
    expect((await cancel(OTHER_KEY)).status).toBe(202);
    held[0]!.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://kept.example/'));
    // A cancelled request is never answered: the result arriving shows the call ran on.
    expect(await answer).toContain('https://kept.example/');
    upstream.on(BRAVE_PATH, { kind: 'hang' });
  });
});

describe('an MCP tool call whose session closes under it (stateful Streamable HTTP)', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '2000' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  /** The web_search tool call lines a service logged so far. */
  const callLines = (logs: string[]) =>
    logs.map((line) => JSON.parse(line) as { msg?: string; operation?: string; outcome?: string }).filter((line) => line.msg?.startsWith('MCP tool call') && line.operation === 'web_search');

  const outcomeCount = async (outcome: string): Promise<number> => {
    const text = await (await fetch(`${service.origin}/metrics`)).text();
    const line = text.split('\n').find((entry) => entry.startsWith(`fedsearch_mcp_tool_calls_total{tool="research",operation="web_search",outcome="${outcome}"}`));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };

  it('is logged `MCP tool call cancelled` and counted cancelled, not error, when its session is ended (DELETE) mid-call', async () => {
    const connected = await connect(service.origin, 'streamable');
    const query = 'session ended mid-call';
    const cancelledBefore = await outcomeCount('cancelled');
    const errorsBefore = await outcomeCount('error');
    const linesBefore = callLines(service.logs).length;
    const call = connected.client
      .callTool({ name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } }, undefined, { timeout: 120_000 })
      .catch((error: unknown) => error);
    try {
      await expect.poll(() => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query).length).toBe(1);
      const ended = await fetch(new URL('/mcp', service.origin), { method: 'DELETE', headers: { 'mcp-session-id': streamableSessionId(connected)! } });
      expect(ended.status).toBe(200);
      await expect.poll(() => callLines(service.logs).length, { timeout: 10_000 }).toBe(linesBefore + 1);
      expect(callLines(service.logs).at(-1)).toMatchObject({ msg: 'MCP tool call cancelled', operation: 'web_search', outcome: 'cancelled' });
      expect(await outcomeCount('cancelled')).toBe(cancelledBefore + 1);
      expect(await outcomeCount('error')).toBe(errorsBefore);
    } finally {
      // Its client is told the session closed (session-close-answers.test.ts); the tool's own answer is never sent.
      await connected.close();
      await call;
    }
  });

  it('in flight when a shutdown begins, is answered with what its providers gave within the grace, not left unanswered', async () => {
    // A service of its own: this one is stopped by the test.
    const closing = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '2000' });
    const connected = await connect(closing.origin, 'streamable');
    const query = 'in flight at shutdown';
    const call = connected.client.callTool(
      { name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } },
      undefined,
      { timeout: 120_000 },
    );
    try {
      await expect.poll(() => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query).length).toBe(1);
      const stopped = closing.stop();
      const result = await call;
      await stopped;
      // Its provider was cut short as a timeout before the grace ended: the call was answered with brave's outcome (as
      // a failed search, the only provider having given nothing), not cancelled.
      expect(result.structuredContent).toMatchObject({ results: [], providers: [{ provider: 'brave', status: 'timeout' }] });
      expect(result.isError).toBe(true);
      expect(callLines(closing.logs)).toEqual([expect.objectContaining({ msg: 'MCP tool call', outcome: 'error' })]);
    } finally {
      await connected.close();
      await closing.stop();
    }
  }, 15_000);
});
