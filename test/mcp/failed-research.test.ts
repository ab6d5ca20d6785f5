import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOperation, type RunningService } from '../support/service.js';
import { startFailingBrave, type FailingBraveService } from './failing-brave-service.js';
import { callTool, textOf, type Connected } from './mcp-client.js';

/** A link fetch_url refuses at once (a loopback address), so its step fails without leaving the machine. */
const REFUSED_LINK = 'http://127.0.0.1:9/page';

interface ResearchSections {
  sections: Array<{ operation: string; output?: unknown; text?: string; error?: string }>;
}

/**
 * auto_research over MCP is a failed tool call (isError) when every one of its steps failed, as each would alone (a
 * step that threw, a search no provider answered), and not when any section holds an answer. Brave answers by query
 * (fails, finds nothing, or finds one page); every other provider is routed nowhere, so it fails (the fake's 404), and
 * the local index's folder is gone, so it fails too.
 */
describe('MCP auto_research whose steps failed', () => {
  let running: FailingBraveService;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    running = await startFailingBrave((query) => query.includes('failing'));
    ({ service, connected } = running);
  });
  afterAll(() => running.stop());

  const research = (query: string) => callTool(connected.client, 'research', { operation: 'auto_research', params: { query, depth: 1 } });
  const sectionsOf = (result: Awaited<ReturnType<typeof research>>) => (result.structuredContent as unknown as ResearchSections).sections;

  it('marks a research whose only step is a search no provider answered, saying so first, and keeps the JSON', async () => {
    const result = await research('failing question');
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text.startsWith('Research failed: its one step (web_search) failed, so nothing was found or ruled out')).toBe(true);
    // The section says what the search alone would: that no provider answered, and why each did not.
    expect(text).toContain('Search failed: no provider answered (local: error, brave: error');
    expect(text).toContain('- brave: error (HTTP 500');
    const sections = sectionsOf(result);
    expect(sections.map((section) => section.operation)).toEqual(['web_search']);
    expect((sections[0]!.output as { results: unknown[] }).results).toEqual([]);
  });

  it('marks a research each of whose steps failed in its own way: a refused page and a search nobody answered', async () => {
    const result = await research(`failing ${REFUSED_LINK}`);
    expect(result.isError).toBe(true);
    expect(textOf(result).startsWith('Research failed: all 2 of its steps (fetch_url, web_search) failed')).toBe(true);
    const sections = sectionsOf(result);
    expect(sections.map((section) => [section.operation, section.error === undefined])).toEqual([
      ['fetch_url', false],
      ['web_search', true],
    ]);
  });

  it('does not mark a research one of whose steps answered, and says which section failed', async () => {
    const refusedPage = await research(`thriving ${REFUSED_LINK}`);
    expect(refusedPage.isError).toBeFalsy();
    expect(textOf(refusedPage)).not.toContain('Research failed');
    expect(textOf(refusedPage)).toContain('https://found.example/page');

    // News words plan hackernews_search beside web_search: Hacker News is routed nowhere, brave finds a page.
    const failedSearch = await research('latest news partly answered');
    expect(failedSearch.isError).toBeFalsy();
    const sections = sectionsOf(failedSearch);
    expect(sections.map((section) => section.operation).sort()).toEqual(['hackernews_search', 'web_search']);
    const hackernews = sections.find((section) => section.operation === 'hackernews_search')!;
    expect(hackernews.text?.startsWith('Search failed: no provider answered (hackernews: error)')).toBe(true);
    expect(sections.find((section) => section.operation === 'web_search')!.text).not.toContain('Search failed');
  });

  it('does not mark a research whose search was answered and found nothing: that is news about the question', async () => {
    const result = await research('nothing anywhere');
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('No results.');
    expect(textOf(result)).not.toMatch(/Research failed|Search failed/);
  });

  it('leaves REST as documented: the same failed research answers 200 with every section', async () => {
    const response = await callOperation(service, 'auto_research', { query: `failing over REST ${REFUSED_LINK}`, depth: 1 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as ResearchSections;
    expect(body.sections.map((section) => section.operation)).toEqual(['fetch_url', 'web_search']);
  });
});
