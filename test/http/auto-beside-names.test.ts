import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connect, textOf, type Connected } from '../mcp/mcp-client.js';
import { callOperation, request, startService, type RunningService } from '../support/service.js';

/**
 * `providers: "auto"` chooses the providers itself, so it takes no name beside it. Named with others (a link's
 * `providers=auto,local`, an agent's `["auto", "local"]`), it was refused as an `unknown provider "auto"`: a name
 * the same parameter's description offers, so the caller was sent looking for a typo instead of told to drop one.
 */
describe('"auto" named beside provider names', () => {
  let service: RunningService;
  let mcp: Connected;
  beforeAll(async () => {
    service = await startService({ LOCAL_WEIGHT: '1' });
    mcp = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await mcp.close();
    await service.stop();
  });

  /** What the refusal must say, whatever the surface: auto goes alone, or names of the kind instead. */
  function expectAloneMessage(message: string, kind: 'web' | 'papers'): void {
    expect(message).not.toContain('unknown provider');
    expect(message).toContain('providers: "auto"');
    expect(message).toContain('stands alone');
    expect(message).toMatch(new RegExp(`allowed: "auto" by itself, or names of ${kind} providers: .*${kind === 'web' ? 'local' : 'arxiv'}`));
  }

  it('is a 400 saying auto stands alone, on a GET search', async () => {
    const response = await request(service.origin, '/v1/search/web?q=rust&providers=auto,local');
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('QUERY_INVALID');
    expectAloneMessage(body.message, 'web');
  });

  it('is the same in any letter case and after a name, in a paper search body', async () => {
    const response = await request(service.origin, '/v1/search/papers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'attention', providers: ['arxiv', 'AUTO'] }),
    });
    expect(response.status).toBe(400);
    expectAloneMessage((await response.json()).message, 'papers');
  });

  it('is the same when named twice, to an operation', async () => {
    const response = await callOperation(service, 'web_search', { query: 'rust', providers: ['auto', 'auto'] });
    expect(response.status).toBe(400);
    expectAloneMessage((await response.json()).message, 'web');
  });

  it('is a tool error saying so over MCP', async () => {
    const result = await callTool(mcp.client, 'research', { operation: 'web_search', params: { query: 'rust', providers: ['auto', 'local'] } });
    expect(result.isError).toBe(true);
    expectAloneMessage(textOf(result), 'web');
  });
});
