import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOperation, type RunningService } from '../support/service.js';
import { startFailingBrave, type FailingBraveService } from './failing-brave-service.js';
import { callTool, textOf, type Connected } from './mcp-client.js';

interface SearchAnswer {
  results: Array<{ url: string }>;
  providers: Array<{ provider: string; status: string }>;
}

/**
 * A search over MCP that no provider answered is a failed tool call (isError), which says so and keeps each
 * provider's outcome; a partial answer, or one whose providers answered and found nothing, is not. Brave answers by
 * query (fails, finds nothing or finds one page); every other provider is routed nowhere, so it fails (the fake's 404),
 * and the local index's folder is gone (removed after start-up, as an unmounted volume), so it fails too.
 */
describe('MCP searches that no provider answered', () => {
  let running: FailingBraveService;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    // A company called "flaky" is found, but not in the news: one of company_research's searches fails.
    running = await startFailingBrave((query) => query.includes('failing') || query === 'flaky news');
    ({ service, connected } = running);
  });
  afterAll(() => running.stop());

  const search = (query: string) => callTool(connected.client, 'research', { operation: 'web_search', params: { query, providers: ['brave', 'wikipedia'] } });

  it('marks the result isError, says plainly that no provider answered and why, and keeps the JSON', async () => {
    const result = await search('every provider failing');
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text.startsWith('Search failed: no provider answered (brave: error, wikipedia: error)')).toBe(true);
    expect(text).toContain('Providers that failed:\n- brave: error');
    const answer = result.structuredContent as unknown as SearchAnswer;
    expect(answer.results).toEqual([]);
    expect(answer.providers.map((outcome) => [outcome.provider, outcome.status])).toEqual([
      ['brave', 'error'],
      ['wikipedia', 'error'],
    ]);
  });

  it('does not mark a partial answer (one provider failed, another found something)', async () => {
    const result = await search('partly answered');
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as unknown as SearchAnswer).results.map((entry) => entry.url)).toEqual(['https://found.example/page']);
    expect(textOf(result)).not.toContain('Search failed');
  });

  it('does not mark an empty answer from a provider that answered (it found nothing: that is news about the query)', async () => {
    const result = await search('nothing anywhere');
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('No results.');
    expect(textOf(result)).not.toContain('Search failed');
  });

  it('marks company_research when none of its searches got an answer, and not when one did', async () => {
    // The company's name is in every query its searches send: brave fails them all, as every other provider does.
    const failed = await callTool(connected.client, 'research', { operation: 'company_research', params: { company: 'failing corp' } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed).startsWith('Search failed: in none of its 2 searches did any provider answer')).toBe(true);
    expect((failed.structuredContent as { sections: unknown[] }).sections).toHaveLength(2);

    const answered = await callTool(connected.client, 'research', { operation: 'company_research', params: { company: 'thriving corp' } });
    expect(answered.isError).toBeFalsy();
  });

  it('says in a partial company_research which of its searches no provider answered, as that search alone would', async () => {
    const partial = await callTool(connected.client, 'research', { operation: 'company_research', params: { company: 'flaky' } });
    expect(partial.isError).toBeFalsy();
    const [overview, news] = textOf(partial).split('\n\n## ');
    expect(overview).toContain('https://found.example/page');
    expect(overview).not.toContain('Search failed');
    expect(news).toMatch(/^Recent news\n\(published in the last month\)\nSearch failed: no provider answered \(local: error, brave: error/);
  });

  it('leaves REST as documented: the same failed search answers 200 with each provider\'s outcome', async () => {
    const response = await callOperation(service, 'web_search', { query: 'every provider failing over REST', providers: ['brave', 'wikipedia'] });
    expect(response.status).toBe(200);
    const body = (await response.json()) as SearchAnswer;
    expect(body.results).toEqual([]);
    expect(body.providers.map((outcome) => outcome.status)).toEqual(['error', 'error']);
  });
});
