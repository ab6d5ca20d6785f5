import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PendingRequests } from '../../src/mcp/pending-requests.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, INITIALIZE_MESSAGE, MCP_POST_HEADERS, rawRequest } from './mcp-client.js';

const CALL: JSONRPCMessage = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'research', arguments: {} } };
const ANSWER: JSONRPCMessage = { jsonrpc: '2.0', id: 7, result: { content: [] } };

/** Whether `promise` has settled once every message already queued has been handled. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise<void>((resolve) => setImmediate(resolve));
  return settled;
}

describe('a client that reuses the JSON-RPC id of a call still running in its session', () => {
  it('has each call waited for on its own: the first answer does not end the wait for the second', async () => {
    // The SDK's own linked transports: what the client sends arrives at the server side's onmessage.
    const [client, server] = InMemoryTransport.createLinkedPair();
    const pending = new PendingRequests(server);
    await server.start();
    await client.start();
    try {
      await client.send(CALL);
      await client.send(CALL);
      await expect.poll(() => pending.size).toBe(2);

      const answered = pending.answered();
      await server.send(ANSWER);
      expect(pending.size).toBe(1);
      // The shutdown waits on: the second call with that id is still running.
      expect(await settledYet(answered)).toBe(false);

      await server.send(ANSWER);
      expect(pending.size).toBe(0);
      await answered;
    } finally {
      await client.close();
    }
  });
});

const BRAVE_PATH = '/brave/res/v1/web/search';
const REUSED_ID = 7;
const PROTOCOL_HEADERS = { 'mcp-protocol-version': '2025-06-18' };

/** A tools/call of a web search of brave for `query`, with the JSON-RPC `id`. */
function searchCall(id: number, query: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'research', arguments: { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: 30_000 } } },
  });
}

interface Answer {
  id: unknown;
  result?: { content: Array<{ text?: string }> };
  error?: unknown;
}

/** The text of a tool call's result. */
const resultText = (answer: Answer | undefined): string => answer?.result?.content.map((part) => part.text).join('\n') ?? '';

/** The events of a text/event-stream, read as they come: what a session sends on one stream. */
class StreamMessages {
  private text = '';

  constructor(body: ReadableStream<Uint8Array>) {
    void (async () => {
      for await (const chunk of body.pipeThrough(new TextDecoderStream())) this.text += chunk;
    })().catch(() => undefined);
  }

  /** The `data:` of each event named `name` read so far. */
  dataOf(name: string): string[] {
    return [...this.text.matchAll(new RegExp(`event: ${name}\\n(?:id: .*\\n)?data: (.*)\\n`, 'g'))].map((match) => match[1]!);
  }

  /** Every JSON-RPC answer (a result or an error) read so far. */
  get answers(): Answer[] {
    return this.dataOf('message')
      .map((data) => JSON.parse(data) as Answer)
      .filter((message) => 'result' in message || 'error' in message);
  }
}

describe.each(['streamable', 'sse'] as const)('a %s session whose client reuses the id of a tool call still running', (kind) => {
  let upstream: FakeUpstream;
  let service: RunningService;
  /** Brave's answers held for the searches of this query, until the test releases them. */
  const HELD_QUERY = `held first call over ${kind}`;
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, {
      kind: 'handler',
      handle: (request, response) => {
        const query = request.url.searchParams.get('q') ?? '';
        response.setHeader('content-type', 'application/json');
        if (query === HELD_QUERY) held.push(response);
        else response.end(braveBody(`https://later.example/${encodeURIComponent(query)}`));
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-reused-id-key-0123456789', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    for (const response of held) response.destroy();
    await service?.stop();
    await upstream?.stop();
  });

  const braveAskedFor = (query: string): number => upstream.requestsTo(BRAVE_PATH).filter((recorded) => recorded.url.searchParams.get('q') === query).length;

  /** Opens a session; returns how to post a message to it (its response as fetch gives it) and, over SSE, its stream. */
  async function openSession(): Promise<{ post: (body: string) => Promise<Response>; stream?: StreamMessages; close: () => Promise<void> }> {
    if (kind === 'streamable') {
      const initialized = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: INITIALIZE_MESSAGE });
      expect(initialized.status).toBe(200);
      const headers = { ...MCP_POST_HEADERS, ...PROTOCOL_HEADERS, 'mcp-session-id': initialized.headers['mcp-session-id'] as string };
      const post = (body: string): Promise<Response> => fetch(`${service.origin}/mcp`, { method: 'POST', headers, body });
      expect((await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
      return { post, close: async () => void (await fetch(`${service.origin}/mcp`, { method: 'DELETE', headers })) };
    }
    const controller = new AbortController();
    const opened = await fetch(`${service.origin}/sse`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    expect(opened.status).toBe(200);
    const stream = new StreamMessages(opened.body!);
    await expect.poll(() => stream.dataOf('endpoint').length).toBe(1);
    const endpoint = new URL(stream.dataOf('endpoint')[0]!, service.origin);
    const post = (body: string): Promise<Response> => fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await post(INITIALIZE_MESSAGE)).status).toBe(202);
    await expect.poll(() => stream.answers.length).toBe(1);
    expect((await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
    return { post, stream, close: async () => controller.abort() };
  }

  it("refuses the second call at once with -32600, and the first call's answer comes on the first call's stream", async () => {
    const session = await openSession();
    try {
      const first = await session.post(searchCall(REUSED_ID, HELD_QUERY));
      expect(first.status).toBe(kind === 'streamable' ? 200 : 202);
      // Over Streamable HTTP each call has a stream of its own; over SSE every answer comes on the session's one stream.
      const firstAnswers = session.stream ?? new StreamMessages(first.body!);
      await expect.poll(() => braveAskedFor(HELD_QUERY)).toBe(1);

      const duplicateQuery = `second call with a reused id over ${kind}`;
      const duplicate = await session.post(searchCall(REUSED_ID, duplicateQuery));
      expect(duplicate.status).toBe(400);
      const refusal = (await duplicate.json()) as { id: unknown; error: { code: number; message: string; data: { code: string } } };
      expect(refusal.error.code).toBe(-32600);
      expect(refusal.error.data.code).toBe('QUERY_INVALID');
      expect(refusal.error.message).toBe(
        `Invalid Request: id ${REUSED_ID} is in use by a request of this session still running; JSON-RPC ids must be unique among a client's requests in flight: send it again with another id`,
      );
      expect(refusal.id).toBeNull();

      // The first call's search answers: its result, found by the first call's query, comes where the first call reads.
      held.shift()!.end(braveBody('https://first.example/held'));
      await expect.poll(() => firstAnswers.answers.length).toBe(kind === 'streamable' ? 1 : 2);
      const answer = firstAnswers.answers.at(-1)!;
      expect(answer.id).toBe(REUSED_ID);
      expect(resultText(answer)).toContain('https://first.example/held');
      // The refused call ran nothing.
      expect(braveAskedFor(duplicateQuery)).toBe(0);

      // Answered, the id is free again: a call with it runs.
      const againQuery = `a call reusing an answered id over ${kind}`;
      const again = await session.post(searchCall(REUSED_ID, againQuery));
      expect(again.status).toBe(kind === 'streamable' ? 200 : 202);
      const againAnswers = session.stream ?? new StreamMessages(again.body!);
      await expect.poll(() => againAnswers.answers.filter((message) => message.id === REUSED_ID).length).toBe(kind === 'streamable' ? 1 : 2);
      expect(resultText(againAnswers.answers.at(-1))).toContain(`https://later.example/${encodeURIComponent(againQuery)}`);
    } finally {
      await session.close();
    }
  });
});

// The rate limit's count in Redis is awaited before the route: two POSTs whose counts come back in one reply from Redis
// reach the route in one turn of the event loop, where the transport reads the first one's message only after an
// await (the SDK converts the request first). Checked in between, the second found no call of that id running, and ran.
describeWithRedis('two Streamable HTTP POSTs of one session, with one id, sent at once', () => {
  // Whether two counts come back in one reply is up to timing: tried often enough that one pair at least does.
  const PAIRS = 20;
  let redis: RedisServer;
  let upstream: FakeUpstream;
  let service: RunningService;
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    upstream = await startFakeUpstream();
    // Every search held until the test releases it: each call still running when its twin is checked.
    upstream.on(BRAVE_PATH, { kind: 'handler', handle: (_request, response) => void held.push(response) });
    service = await startService({
      ...providerEnv(upstream.origin),
      REDIS_URL: redis.url,
      BRAVE_API_KEY: 'brave-reused-id-key-0123456789',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'warn',
    });
  });
  afterAll(async () => {
    for (const response of held) response.destroy();
    await service?.stop();
    await upstream?.stop();
    await redis?.stop();
  });

  it('runs one call of each pair and refuses the other with -32600', async () => {
    const initialized = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: INITIALIZE_MESSAGE });
    expect(initialized.status).toBe(200);
    const headers = { ...MCP_POST_HEADERS, ...PROTOCOL_HEADERS, 'mcp-session-id': initialized.headers['mcp-session-id'] as string };
    const post = (body: string): Promise<Response> => fetch(`${service.origin}/mcp`, { method: 'POST', headers, body });
    try {
      for (let pair = 0; pair < PAIRS; pair += 1) {
        const id = 100 + pair;
        const responses = await Promise.all(['first', 'second'].map((which) => post(searchCall(id, `${which} of pair ${pair}`))));
        expect(responses.map((response) => response.status).sort(), `pair ${pair}`).toEqual([200, 400]);
        const refused = (await responses.find((response) => response.status === 400)!.json()) as { id: unknown; error: { code: number } };
        expect(refused.error.code).toBe(-32600);
        expect(refused.id).toBeNull();
        // The call that ran answers on its own stream once its search is released; the refused one searched nothing.
        const answers = new StreamMessages(responses.find((response) => response.status === 200)!.body!);
        await expect.poll(() => held.length).toBe(1);
        held.shift()!.end(braveBody(`https://pair.example/${pair}`));
        await expect.poll(() => answers.answers.map((answer) => answer.id)).toEqual([id]);
        expect(resultText(answers.answers[0])).toContain(`https://pair.example/${pair}`);
      }
      expect(upstream.requestsTo(BRAVE_PATH)).toHaveLength(PAIRS);
    } finally {
      await fetch(`${service.origin}/mcp`, { method: 'DELETE', headers });
    }
  });
});
