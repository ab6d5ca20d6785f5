import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, callTool, connect, textOf, type Connected } from './mcp-client.js';

const BRAVE = '/brave/res/v1/web/search';

type Answer = { results: Array<{ url: string }>; page: number; has_more: boolean; cached: boolean };

describe('web_search pages over MCP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const urls = Array.from({ length: 9 }, (_, index) => `https://brave.example/mcp/${index + 1}`);
    upstream.json(BRAVE, JSON.parse(braveBody(...urls)));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-key-0123456789', MCP_TOOLS: 'split', LOG_LEVEL: 'warn' });
    connected = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  it('documents page in the tool and answers page 2 from the cached list, telling the model how to go on', async () => {
    const { tools } = await connected.client.listTools();
    const webSearch = tools.find((tool) => tool.name === 'web_search')!;
    expect(webSearch.inputSchema.properties).toMatchObject({ page: { type: 'integer', minimum: 1, maximum: 10, default: 1 } });
    expect(webSearch.description).toContain('page (1–10)');

    const first = await callTool(connected.client, 'web_search', { query: 'pages over mcp', providers: ['brave'], max_results: 3 });
    // Page 1 read Brave's nine results only as deep as it asked (four): page 2 asks deeper, once, and keeps the list.
    await callTool(connected.client, 'web_search', { query: 'pages over mcp', providers: ['brave'], max_results: 3, page: 2 });
    const requests = upstream.requestsTo(BRAVE).length;
    const second = await callTool(connected.client, 'web_search', { query: 'pages over mcp', providers: ['brave'], max_results: 3, page: 2 });
    expect(upstream.requestsTo(BRAVE).length).toBe(requests);

    const [firstAnswer, secondAnswer] = [first.structuredContent as Answer, second.structuredContent as Answer];
    expect(firstAnswer).toMatchObject({ page: 1, has_more: true });
    expect(secondAnswer).toMatchObject({ page: 2, has_more: true, cached: true });
    expect(secondAnswer.results.map((result) => result.url)).toEqual(['https://brave.example/mcp/4', 'https://brave.example/mcp/5', 'https://brave.example/mcp/6']);
    expect(textOf(second)).toContain('Page 2; more results: web_search with page: 3.');
  });

  it('refuses a page out of range with the allowed range', async () => {
    const result = await callTool(connected.client, 'web_search', { query: 'pages over mcp', page: 11 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('page: 11 is too large; allowed: 1–10');
  });
});
