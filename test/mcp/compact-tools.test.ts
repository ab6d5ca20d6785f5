import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpSessionCounts } from '../../src/mcp/register.js';
import { toolDescription } from '../../src/mcp/tools.js';
import { OPERATIONS } from '../../src/operations/registry.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { braveBody, callTool, connect, textOf, TRANSPORT_KINDS, type Connected } from './mcp-client.js';

const OPERATION_NAMES = OPERATIONS.map((operation) => operation.name);

/** "query: string" for a required field, "max_results?: " for one a caller may leave out, as zod sees them. */
function parameterMarks(operation: (typeof OPERATIONS)[number]): string[] {
  return Object.entries(operation.input.shape).map(([name, field]) =>
    (field as { safeParse(value: unknown): { success: boolean } }).safeParse(undefined).success ? `${name}?: ` : `${name}: `,
  );
}
const arxivFeed = readFileSync(new URL('../fixtures/arxiv/search.xml', import.meta.url), 'utf8');

interface Outcome {
  provider: string;
  status: string;
  count: number;
}
const outcomeSummary = (outcomes: Outcome[]) => outcomes.map(({ provider, status, count }) => ({ provider, status, count }));

describe.each(TRANSPORT_KINDS)('MCP research tool over %s', (kind) => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Brave echoes the query in its URLs, so concurrent sessions can tell their answers apart.
    upstream.on('/brave/res/v1/web/search', {
      kind: 'handler',
      handle: (recorded, response) => {
        const query = recorded.url.searchParams.get('q') ?? '';
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(braveBody(`https://brave.example/${encodeURIComponent(query)}/1`, `https://brave.example/${encodeURIComponent(query)}/2`));
      },
    });
    upstream.on('/arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'application/atom+xml' }, body: arxivFeed });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', LOG_LEVEL: 'warn' });
    connected = await connect(service.origin, kind);
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  const research = (operation: unknown, params?: unknown) =>
    callTool(connected.client, 'research', params === undefined ? { operation } : { operation, params });
  const rest = async (operation: string, body: unknown) =>
    request(service.origin, `/v1/ops/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.json());

  it('lists one tool, research, whose description gives every operation with its parameters', async () => {
    const { tools } = await connected.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['research']);
    const [tool] = tools;
    expect(tool!.inputSchema.properties).toMatchObject({ operation: { type: 'string', enum: OPERATION_NAMES }, params: { type: 'object' } });
    expect(tool!.inputSchema.required).toEqual(['operation']);
    const lines = tool!.description!.split('\n');
    for (const operation of OPERATIONS) {
      const line = lines.find((candidate) => candidate.startsWith(`- ${operation.name}(`));
      expect(line, operation.name).toBeDefined();
      const description = toolDescription(operation);
      expect(line!.endsWith(`): ${description}`)).toBe(true);
      const signature = line!.slice(0, line!.length - description.length);
      for (const mark of parameterMarks(operation)) expect(signature).toContain(mark);
    }
    expect(lines.find((line) => line.startsWith('- web_search('))).toContain('(query: string, providers?: ');
    expect(lines.find((line) => line.startsWith('- web_search('))).toContain(', max_results?: integer, timeout_ms?: integer');
    expect(lines.find((line) => line.startsWith('- list_providers('))).toContain('(kind?: "web"|"papers"');
    expect(lines.find((line) => line.startsWith('- list_operations('))).toContain('list_operations(): ');
    // Every operation only reads, and most reach the web: without the hints a client must assume a tool that may destroy.
    expect(tool!.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
  });

  it('answers a call of an operation by its own name with an error naming research (README: split tools only)', async () => {
    const result = await callTool(connected.client, 'web_search', { query: 'provider' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('unknown tool "web_search"; tools: research');
  });

  it('answers web_search with the same results as REST, as text and as JSON', async () => {
    const params = { query: 'provider', max_results: 5 };
    const result = await research('web_search', params);
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as { results: Array<{ url: string; title: string }>; providers: Outcome[] };
    const restAnswer = await rest('web_search', params);
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results).toEqual(restAnswer.results);
    expect(outcomeSummary(answer.providers)).toEqual(outcomeSummary(restAnswer.providers));
    expect(new Set(answer.results.map((entry) => entry.url))).toContain('https://brave.example/provider/1');
    const text = textOf(result);
    expect(text).toMatch(/^\d+ web result\(s\) for "provider"/);
    expect(text).toContain(`1. ${answer.results[0]!.title}\n   ${answer.results[0]!.url}`);
    expect(text.length).toBeLessThanOrEqual(20_000);
  });

  it('answers paper_search with papers from arXiv, equal to REST', async () => {
    const params = { query: 'rank fusion', providers: ['arxiv'], max_results: 3 };
    const result = await research('paper_search', params);
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as { kind: string; results: unknown[]; providers: Outcome[] };
    expect(answer.kind).toBe('papers');
    expect(answer.results.length).toBeGreaterThan(0);
    expect(outcomeSummary(answer.providers)).toEqual([{ provider: 'arxiv', status: 'ok', count: expect.any(Number) }]);
    expect(answer.results).toEqual((await rest('paper_search', params)).results);
    expect(textOf(result)).toContain('Ada Lovelace');
  });

  it('lists providers, filtered by kind', async () => {
    const result = await research('list_providers', { kind: 'web' });
    const providers = (result.structuredContent as { providers: Array<{ name: string; kind: string; configured: boolean }> }).providers;
    expect(providers.every((provider) => provider.kind === 'web')).toBe(true);
    expect(providers.find((provider) => provider.name === 'brave')).toMatchObject({ configured: true });
    expect(textOf(result)).toContain('- brave (web): configured');
    expect(textOf(result)).toContain('- tavily (web): not configured, set TAVILY_API_KEY');
  });

  it('lists operations with their parameters as JSON Schema, params defaulting to {}', async () => {
    const result = await research('list_operations');
    expect(result.isError).toBeFalsy();
    const operations = (result.structuredContent as { operations: Array<{ name: string; parameters: { required?: string[] } }> }).operations;
    expect(operations.map((operation) => operation.name)).toEqual(OPERATION_NAMES);
    expect(operations[0]!.parameters.required).toEqual(['query']);
    expect(textOf(result)).toContain('- web_search: ');
  });

  it('lists each operation over MCP as the research tool describes it, with when its tool call fails; REST without', async () => {
    const { tools } = await connected.client.listTools();
    const toolText = tools[0]!.description!;
    const listed = (await research('list_operations')).structuredContent as { operations: Array<{ name: string; description: string }> };
    const lines = toolText.split('\n');
    for (const operation of listed.operations) {
      const line = lines.find((candidate) => candidate.startsWith(`- ${operation.name}(`));
      expect(line?.endsWith(`: ${operation.description}`), operation.name).toBe(true);
    }
    const webSearch = listed.operations.find((operation) => operation.name === 'web_search')!;
    expect(webSearch.description).toMatch(/ Fails only when no provider answered\.$/);
    expect(textOf(await research('list_operations'))).toMatch(/- web_search: [^\n]* Fails only when no provider answered\.\n/);
    // Over REST a search no provider answered is a 200: the rule is MCP's, and REST's list does not state it.
    const restListed = (await rest('list_operations', {})) as { operations: Array<{ name: string; description: string }> };
    expect(restListed.operations.find((operation) => operation.name === 'web_search')!.description).not.toContain('Fails only');
  });

  it('rejects invalid params naming each bad field, the parameters and an example, without a stack trace', async () => {
    const result = await research('web_search', { query: '', colour: 'red', max_results: 99 });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('query: empty; allowed: 1–500 characters');
    expect(text).toContain('max_results: 99 is too large; allowed: 1–50');
    expect(text).toContain('colour: not a known field; allowed: query, providers, max_results, timeout_ms');
    expect(text).toContain('Parameters of web_search(query: string, providers?: ');
    expect(text).toContain(', max_results?: integer, timeout_ms?: integer');
    expect(text).toContain('Example: {"operation":"web_search","params":{"query":"reciprocal rank fusion","max_results":5}}');
    expect(text).not.toMatch(/\n\s+at /);
    expect(result.structuredContent).toBeUndefined();
  });

  it('names a missing required field and the problems an operation finds itself', async () => {
    const missing = await research('web_search', { max_results: 3 });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('query: missing; allowed: a string (1–500 characters)');
    const unknownProvider = await research('web_search', { query: 'provider', providers: ['google'] });
    expect(unknownProvider.isError).toBe(true);
    expect(textOf(unknownProvider)).toContain('unknown provider "google"');
    expect(textOf(unknownProvider)).toContain('Parameters of web_search(');
  });

  it('answers an unknown operation, or parameters put beside params, with how to call it', async () => {
    const unknown = await research('image_search', { query: 'cats' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('unknown operation "image_search"; operations:');
    for (const name of OPERATION_NAMES) expect(textOf(unknown)).toContain(`- ${name}(`);
    const flattened = await callTool(connected.client, 'research', { operation: 'web_search', query: 'provider' });
    expect(flattened.isError).toBe(true);
    expect(textOf(flattened)).toContain("query is not a field of research; put web_search's parameters inside params");
  });

  it('keeps concurrent sessions apart', async () => {
    const queries = ['alpha provider', 'beta provider', 'gamma provider', 'delta provider'];
    const sessions = await Promise.all(queries.map(() => connect(service.origin, kind)));
    try {
      expect(mcpSessionCounts(service.app)[kind]).toBe(sessions.length + 1);
      const answers = await Promise.all(
        sessions.map(({ client }, index) =>
          callTool(client, 'research', { operation: 'web_search', params: { query: queries[index], providers: ['brave'] } }),
        ),
      );
      answers.forEach((answer, index) => {
        const urls = (answer.structuredContent as { results: Array<{ url: string }> }).results.map((entry) => entry.url);
        expect(urls).toEqual([1, 2].map((position) => `https://brave.example/${encodeURIComponent(queries[index]!)}/${position}`));
      });
    } finally {
      await Promise.all(sessions.map((session) => session.leave()));
    }
    await expect.poll(() => mcpSessionCounts(service.app)[kind], { timeout: 5000 }).toBe(1);
  });
});
