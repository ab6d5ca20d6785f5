import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/operations/registry.js';
import { callTool, connect, type Connected } from '../mcp/mcp-client.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

interface SearchAnswer {
  results: unknown[];
  providers: Array<{ status: string }>;
}

/**
 * Where the surfaces differ by design: a search that no provider answered (no results, no provider `ok`) is a 200 on
 * REST, with each provider's outcome, and a failed tool call (isError) over MCP; so is an answer made of searches
 * (company_research's sections) when every one of them is such a search.
 */
function answeredByNobody(body: { results?: unknown; providers?: unknown; sections?: Array<{ response?: SearchAnswer }> }): boolean {
  const nobody = (search: SearchAnswer) => search.results.length === 0 && !search.providers.some((outcome) => outcome.status === 'ok');
  if (Array.isArray(body.results) && Array.isArray(body.providers)) return nobody(body as SearchAnswer);
  const searches = body.sections?.map((section) => section.response);
  if (!searches || searches.length === 0 || searches.some((search) => search === undefined)) return false;
  return (searches as SearchAnswer[]).every(nobody);
}

/**
 * Every operation of the registry, called with its own documented example, over REST and over MCP: it is
 * served on both, never answers with an unexpected 5xx, and both surfaces agree on success or failure (but for
 * searches no provider answered: answeredByNobody).
 * Providers are loopback fakes that know nothing (404), so answers are mostly empty or per-provider errors.
 */
describe('every operation over REST and MCP', () => {
  const upstream = useFakeUpstream();
  let service: RunningService;
  let mcp: Connected;

  beforeAll(async () => {
    service = await startService({
      ...providerEnv(upstream.origin),
      YOUTUBE_WEB_BASE_URL: `${upstream.origin}/youtube_web`,
      YOUTUBE_API_KEY: 'yt-key-1234567890',
      GITHUB_TOKEN: 'gh-token-1234567890',
      LOG_LEVEL: 'silent',
    });
    mcp = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await mcp.close();
    await service.stop();
  });

  it('lists every operation in list_operations', async () => {
    const body = await (await request(service.origin, '/v1/ops/list_operations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
    expect(body.operations.map((operation: { name: string }) => operation.name)).toEqual(OPERATIONS.map((operation) => operation.name));
  });

  for (const operation of OPERATIONS) {
    it(`${operation.name} answers its example on both surfaces`, async () => {
      const response = await request(service.origin, `/v1/ops/${operation.name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(operation.example),
      });
      const body = await response.json();
      // 200, or a typed error naming its code: never an internal error, never a validation error of our own example.
      expect([200, 404, 415, 502, 503, 504]).toContain(response.status);
      if (response.status !== 200) expect(body.code).not.toBe('INTERNAL');
      const result = await callTool(mcp.client, 'research', { operation: operation.name, params: operation.example });
      expect(result.isError === true).toBe(response.status !== 200 || answeredByNobody(body));
      expect(JSON.stringify(result.content)).not.toMatch(/at .*\.ts:\d+/);
    });
  }
});
