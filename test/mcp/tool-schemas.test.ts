import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, callTool, connect, textOf, type Connected } from './mcp-client.js';

/**
 * What tools/list advertises is what an agent builds its calls from (and what some clients check arguments against
 * before sending them): every bound it states must be one the service keeps, and nothing it accepts may be refused
 * by the schema.
 */
describe('MCP tool schemas, as an agent reads them', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;
  let tools: Tool[];
  const ajv = new Ajv({ strict: false });

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', JSON.parse(braveBody('https://brave.example/one', 'https://brave.example/two')));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', MCP_TOOLS: 'split', LOG_LEVEL: 'warn' });
    connected = await connect(service.origin, 'streamable');
    ({ tools } = await connected.client.listTools());
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  const schemaOf = (name: string): Tool['inputSchema'] => tools.find((tool) => tool.name === name)!.inputSchema;

  it('says every tool only reads, and which reach outside the service (MCP: the defaults are "may destroy" and "open world")', () => {
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name)).toEqual([]);
    const closed = tools.filter((tool) => tool.annotations?.openWorldHint === false).map((tool) => tool.name);
    expect(closed.sort()).toEqual(['list_operations', 'list_providers']);
    expect(tools.filter((tool) => tool.annotations?.openWorldHint === true)).toHaveLength(tools.length - 2);
  });

  it('describes every parameter of every tool', () => {
    const undescribed = tools.flatMap((tool) =>
      Object.entries(tool.inputSchema.properties ?? {})
        .filter(([, field]) => typeof (field as { description?: unknown }).description !== 'string')
        .map(([name]) => `${tool.name}.${name}`),
    );
    expect(undescribed).toEqual([]);
  });

  it("admits web_search's include_domains in any letter case in the schema, as the tool does", async () => {
    const webArguments = { query: 'provider', providers: ['brave'], include_domains: ['Brave.Example'] };
    expect(ajv.validate(schemaOf('web_search'), webArguments), ajv.errorsText()).toBe(true);
    const web = await callTool(connected.client, 'web_search', webArguments);
    expect(web.isError).toBeFalsy();
    expect((web.structuredContent as { results: Array<{ url: string }> }).results.map((result) => result.url)).toEqual([
      'https://brave.example/one',
      'https://brave.example/two',
    ]);
  });

  it('admits in the schema the white space around a domain that the tools trim and take', async () => {
    const webArguments = { query: 'provider', providers: ['brave'], include_domains: [' brave.example ', '\tBrave.Example/one\n'] };
    expect(ajv.validate(schemaOf('web_search'), webArguments), ajv.errorsText()).toBe(true);
    const web = await callTool(connected.client, 'web_search', webArguments);
    expect(web.isError, textOf(web)).toBeFalsy();
    expect((web.structuredContent as { results: Array<{ url: string }> }).results.map((result) => result.url)).toContain('https://brave.example/one');
    const companyArguments = { company: 'Brave', domain: '  Brave.Example ', max_results: 2 };
    expect(ajv.validate(schemaOf('company_research'), companyArguments), ajv.errorsText()).toBe(true);
    const company = await callTool(connected.client, 'company_research', companyArguments);
    expect(company.isError, textOf(company)).toBeFalsy();
    expect(textOf(company)).toContain('From brave.example');
  });

  it("admits company_research's domain in any letter case in the schema, as the tool does", async () => {
    const companyArguments = { company: 'Brave', domain: 'Brave.Example', max_results: 2 };
    expect(ajv.validate(schemaOf('company_research'), companyArguments), ajv.errorsText()).toBe(true);
    const company = await callTool(connected.client, 'company_research', companyArguments);
    expect(company.isError).toBeFalsy();
    expect(textOf(company)).toContain('From brave.example');
  });

  it('refuses a domain whose xn-- label is not punycode of a name beyond ASCII, as it refuses any name that is no domain', async () => {
    for (const entry of ['xn--zz.com', 'xn--.com', 'xn--a-.com']) {
      const web = await callTool(connected.client, 'web_search', { query: 'provider', providers: ['brave'], include_domains: [entry] });
      expect(web.isError, entry).toBe(true);
      expect(textOf(web)).toContain('not a domain name; allowed: a domain such as example.com');
      const company = await callTool(connected.client, 'company_research', { company: 'Brave', domain: entry, max_results: 2 });
      expect(company.isError, entry).toBe(true);
      expect(textOf(company)).toContain('not a domain name');
    }
  });

  it("states paper_read's rule (exactly one of id and url) where a model reads it, without a oneOf that function calling refuses", async () => {
    const paperRead = tools.find((tool) => tool.name === 'paper_read')!;
    // OpenAI-style function calling refuses oneOf, anyOf, allOf, not and enum at the top of a tool's parameters.
    expect(Object.keys(paperRead.inputSchema).filter((keyword) => ['oneOf', 'anyOf', 'allOf', 'not', 'enum'].includes(keyword))).toEqual([]);
    expect(paperRead.inputSchema.required ?? []).toEqual([]);
    // A client that shows a model only the tool's description, or only each parameter's, still tells it the rule.
    expect(paperRead.description).toMatch(/exactly one of id .* or url .*never both/);
    const descriptionOf = (name: string) => (paperRead.inputSchema.properties?.[name] as { description?: string }).description ?? '';
    expect(descriptionOf('id')).toContain('Give this or url: exactly one of the two.');
    expect(descriptionOf('url')).toContain('Give this or id: exactly one of the two.');
    // paper_details takes id alone: its description says nothing of a url.
    const paperDetails = tools.find((tool) => tool.name === 'paper_details')!;
    expect((paperDetails.inputSchema.properties?.id as { description?: string }).description).not.toContain('url');
    // The rule the descriptions state is the one kept: neither, or both, is refused saying so.
    for (const args of [{}, { id: 'arXiv:1706.03762', url: 'https://arxiv.org/pdf/1706.03762' }]) {
      const refused = await callTool(connected.client, 'paper_read', args);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('allowed: exactly one of id or url');
    }
  });

  it('says in every description of a tool that reaches outside when it fails, and what it needs that may be missing', async () => {
    // Agents choose tools by description: one that reads as always answering is called, and its failure is a surprise.
    const silent = tools.filter((tool) => tool.annotations?.openWorldHint === true && !/\bFails\b/.test(tool.description ?? ''));
    expect(silent.map((tool) => tool.name)).toEqual([]);
    const descriptionOf = (name: string) => tools.find((tool) => tool.name === name)!.description ?? '';
    // Searches and auto_research fail by the rules their isError follows (test/mcp/failed-searches, failed-research).
    expect(descriptionOf('web_search')).toContain('Fails only when no provider answered.');
    expect(descriptionOf('auto_research')).toContain('Fails only when every step failed');
    // company_research reads the company's own site only when given its domain.
    expect(descriptionOf('company_research')).toMatch(/given its domain, what its own site says/);
    // youtube_video_details needs YouTube's key, as the description says: this service has none, and the call says so.
    expect(descriptionOf('youtube_video_details')).toContain('needs YOUTUBE_API_KEY');
    const details = await callTool(connected.client, 'youtube_video_details', { ids: ['dQw4w9WgXcQ'] });
    expect(details.isError).toBe(true);
    expect(textOf(details)).toContain('YOUTUBE_API_KEY');
  });

  it("states the auto_research query's length bound that it enforces", async () => {
    const description = (schemaOf('auto_research').properties?.query as { description?: string }).description ?? '';
    const stated = /at most (\d+) characters besides its links/.exec(description);
    expect(stated, description).not.toBeNull();
    const bound = Number(stated![1]);
    const over = await callTool(connected.client, 'auto_research', { query: 'w'.repeat(bound + 1), depth: 1 });
    expect(over.isError).toBe(true);
    expect(textOf(over)).toContain(`allowed: at most ${bound}`);
    const within = await callTool(connected.client, 'auto_research', { query: 'w'.repeat(bound), depth: 1 });
    expect(within.isError, textOf(within)).toBeFalsy();
  });
});
