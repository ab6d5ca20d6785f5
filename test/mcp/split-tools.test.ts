import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolDescription } from '../../src/mcp/tools.js';
import { OPERATIONS } from '../../src/operations/registry.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, callTool, connect, textOf, TRANSPORT_KINDS, type Connected } from './mcp-client.js';

describe.each(TRANSPORT_KINDS)('MCP_TOOLS=split over %s', (kind) => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', JSON.parse(braveBody('https://brave.example/split')));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', MCP_TOOLS: 'split', LOG_LEVEL: 'warn' });
    connected = await connect(service.origin, kind);
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  it('lists one tool per operation, each with its own input schema', async () => {
    const { tools } = await connected.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(OPERATIONS.map((operation) => operation.name));
    for (const operation of OPERATIONS) {
      const tool = tools.find((candidate) => candidate.name === operation.name)!;
      expect(tool.description).toBe(toolDescription(operation));
      expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(Object.keys(operation.input.shape));
    }
    const webSearch = tools.find((tool) => tool.name === 'web_search')!;
    expect(webSearch.inputSchema).toMatchObject({ type: 'object', required: ['query'], additionalProperties: false });
    expect(webSearch.inputSchema.properties).toMatchObject({ max_results: { type: 'integer', minimum: 1, maximum: 50, default: 10 } });
    const listProviders = tools.find((tool) => tool.name === 'list_providers')!;
    expect(listProviders.inputSchema.properties).toMatchObject({ kind: { enum: ['web', 'papers', 'code', 'video', 'content'] } });
  });

  it('runs every operation through its own tool', async () => {
    const web = await callTool(connected.client, 'web_search', { query: 'provider', providers: ['brave'] });
    expect((web.structuredContent as { results: Array<{ url: string }> }).results.map((result) => result.url)).toEqual(['https://brave.example/split']);
    const papers = await callTool(connected.client, 'paper_search', { query: 'fusion', providers: ['arxiv'], timeout_ms: 2000 });
    // The fake upstream does not serve arXiv: the search ran, and failed as a search no provider answered does.
    expect(papers.isError).toBe(true);
    expect(papers.structuredContent).toMatchObject({ kind: 'papers', providers: [{ provider: 'arxiv', status: 'error' }] });
    const providers = await callTool(connected.client, 'list_providers', {});
    expect((providers.structuredContent as { providers: unknown[] }).providers.length).toBeGreaterThan(5);
    const operations = await callTool(connected.client, 'list_operations', {});
    expect(textOf(operations)).toContain('- paper_search: ');
  });

  it('rejects invalid arguments with the same messages, the example shaped for the tool', async () => {
    const result = await callTool(connected.client, 'web_search', { query: 7, max_results: 0 });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('query: 7 is not a string; allowed: a string (1–500 characters)');
    expect(text).toContain('max_results: 0 is too small; allowed: 1–50');
    expect(text).toContain('Example: {"query":"reciprocal rank fusion","max_results":5}');
    const unknown = await callTool(connected.client, 'research', { operation: 'web_search' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain(`unknown tool "research"; tools: ${OPERATIONS.map((operation) => operation.name).join(', ')}`);
  });
});
