import { CallToolResultSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { SseReader } from '../support/sse-reader.js';
import { braveBody, connect, type Connected } from './mcp-client.js';

const BRAVE = '/brave/res/v1/web/search';
const EXA = '/exa/search';
const KEYS = { BRAVE_API_KEY: 'brave-progress-join-key-0123456789', EXA_API_KEY: 'exa-progress-join-key-0123456789' };

async function sharedCount(service: RunningService): Promise<number> {
  const lines = (await (await request(service.origin, '/metrics')).text()).split('\n');
  const line = lines.find((candidate) => candidate.startsWith('fedsearch_cache_shared_total '));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

/**
 * An MCP search that reports progress hears each provider's answer, as a stream does: arriving while an identical
 * stream is in flight, it joins that fan-out and is told at once of the providers already finished; so it is when it
 * arrives while only an identical plain search is (which keeps no log of its providers' answers).
 */
describe('an MCP search with progress during an identical stream or plain search', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;
  const heldExa: ServerResponse[] = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://brave.example/joined') });
    upstream.on(EXA, { kind: 'handler', handle: (_request, response) => void heldExa.push(response) });
    service = await startService({ ...providerEnv(upstream.origin), ...KEYS, MCP_TOOLS: 'split', LOG_LEVEL: 'warn' });
    connected = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  it('joins the stream, reports every provider, and the providers are asked once', async () => {
    const response = await fetch(`${service.origin}/v1/search/web/stream?q=progress+joins&providers=brave,exa&limit=5`);
    const stream = new SseReader(response.body!);
    expect(await stream.nextEvent()).toMatchObject({ event: 'provider', data: { provider: 'brave' } });
    await expect.poll(() => heldExa.length).toBe(1);

    const progress: Progress[] = [];
    const call = connected.client.callTool({ name: 'web_search', arguments: { query: 'progress joins', providers: ['brave', 'exa'], max_results: 5 } }, CallToolResultSchema, {
      onprogress: (update) => void progress.push(update),
    });
    // Joined, and told of brave, which finished before it came.
    await expect.poll(() => progress.map((update) => update.message?.split(' ')[0])).toEqual(['brave']);
    expect(await sharedCount(service)).toBe(1);
    heldExa[0]!.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [{ title: 'Exa', url: 'https://exa.example/joined' }] }));
    const result = (await call) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(progress.map((update) => [update.message?.split(' ')[0], update.progress, update.total])).toEqual([
      ['brave', 1, 2],
      ['exa', 2, 2],
    ]);
    const done = (await stream.rest()).at(-1)!;
    expect(done.event).toBe('done');
    const streamed = (done.data as { results: Array<{ url: string }> }).results.map((found) => found.url);
    expect((result.structuredContent as { results: Array<{ url: string }> }).results.map((found) => found.url)).toEqual(streamed);
    expect(upstream.requestsTo(BRAVE)).toHaveLength(1);
    expect(upstream.requestsTo(EXA)).toHaveLength(1);
  });
  it('joins an identical plain search in flight too, reporting at once the providers already finished, and the providers are asked once', async () => {
    const braveBefore = upstream.requestsTo(BRAVE).length;
    const exaBefore = upstream.requestsTo(EXA).length;
    const sharedBefore = await sharedCount(service);
    const plain = request(service.origin, '/v1/search/web?q=progress+joins+plain&providers=brave,exa&limit=5');
    await expect.poll(() => heldExa.length).toBe(2);
    const progress: Progress[] = [];
    const call = connected.client.callTool({ name: 'web_search', arguments: { query: 'progress joins plain', providers: ['brave', 'exa'], max_results: 5 } }, CallToolResultSchema, {
      onprogress: (update) => void progress.push(update),
    });
    // Told of brave, which finished before it came, while exa is still held.
    await expect.poll(() => progress.map((update) => update.message?.split(' ')[0])).toEqual(['brave']);
    expect(await sharedCount(service)).toBe(sharedBefore + 1);
    heldExa[1]!.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [{ title: 'Exa', url: 'https://exa.example/plain' }] }));
    const result = (await call) as CallToolResult;
    expect(result.isError).toBeFalsy();
    // In the order they finished, each counted as a search of its own counts them.
    expect(progress.map((update) => [update.message?.split(' ')[0], update.progress, update.total])).toEqual([
      ['brave', 1, 2],
      ['exa', 2, 2],
    ]);
    const answer = (await (await plain).json()) as { results: Array<{ url: string }> };
    expect((result.structuredContent as { results: Array<{ url: string }> }).results.map((found) => found.url)).toEqual(answer.results.map((found) => found.url));
    expect(upstream.requestsTo(BRAVE)).toHaveLength(braveBefore + 1);
    expect(upstream.requestsTo(EXA)).toHaveLength(exaBefore + 1);
  });
});
