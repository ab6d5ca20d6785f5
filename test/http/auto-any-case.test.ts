import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connect, textOf, type Connected } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

/**
 * REST reads `providers=AUTO` and `providers= auto ` as "auto" (search-plan.ts trims and lower-cases a one-name list).
 * The string form to an operation and to an MCP tool was refused instead ("matches none of the accepted forms"):
 * one spelling, one meaning, on every surface, and an advertised schema that admits it.
 */
describe('providers "auto" in any letter case and with spaces around it', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let mcp: Connected;
  beforeAll(async () => {
    // Every provider is sent to the fake upstream, where Wikipedia answers and the rest are down: no search leaves the machine.
    upstream = await startFakeUpstream();
    upstream.json('*', { error: 'down' }, 500);
    upstream.json('/wikipedia/w/api.php', fixture('wikipedia/list-search.json'));
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
    mcp = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await mcp.close();
    await service.stop();
    await upstream.stop();
  });

  it.each(['AUTO', ' auto ', 'Auto'])('routes %j by the query, over POST /v1/ops/web_search', async (providers) => {
    const response = await callOperation(service, 'web_search', { query: 'define entropy', providers });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.routing.providers).toContain('wikipedia');
  });

  it('routes " AUTO " by the query, over MCP', async () => {
    const result = await callTool(mcp.client, 'research', { operation: 'web_search', params: { query: 'define entropy', providers: ' AUTO ' } });
    expect(result.isError, textOf(result)).not.toBe(true);
    expect((result.structuredContent as { routing?: { providers: string[] } }).routing?.providers).toContain('wikipedia');
  });

  it('still refuses a string that is not auto', async () => {
    const response = await callOperation(service, 'web_search', { query: 'rust', providers: 'autos' });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain('allowed: a list of 1–20 provider names');
  });

  it('is admitted by the schema OpenAPI advertises for the operation', async () => {
    const document = await (await request(service.origin, '/openapi.json')).json();
    const schema = document.paths['/v1/ops/web_search'].post.requestBody.content['application/json'].schema;
    const forms: { type?: string; pattern?: string }[] = schema.properties.providers.anyOf;
    const stringForm = forms.find((form) => form.type === 'string');
    expect(stringForm?.pattern).toBeDefined();
    const pattern = new RegExp(stringForm!.pattern!);
    expect(['auto', 'AUTO', ' auto '].every((value) => pattern.test(value))).toBe(true);
    expect(pattern.test('autos')).toBe(false);
  });
});
