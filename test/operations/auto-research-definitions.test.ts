import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveBody } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

interface Section {
  operation: string;
  output?: { results: Array<{ title: string; url: string }>; providers: Array<{ provider: string; status: string }> };
  text?: string;
  error?: string;
}

/** The search words Wikipedia was sent, in the order they came. */
function wikipediaSearches(upstream: FakeUpstream): string[] {
  return upstream.requestsTo('/wikipedia/w/api.php').map((request) => request.url.searchParams.get('srsearch')!);
}

describe('auto_research of a definitional question', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .json('/brave/res/v1/web/search', braveBody('https://brave.example/1'))
      // An article titled by the words searched for; "Ada Lovelace" finds the wiki down.
      .on('/wikipedia/w/api.php', {
        kind: 'handler',
        handle: (request, response) => {
          const words = request.url.searchParams.get('srsearch')!;
          if (words === 'Ada Lovelace') return void response.writeHead(503, { 'content-type': 'text/html' }).end('<html>busy</html>');
          const search = [{ ns: 0, title: words, pageid: 1, snippet: `${words} is the subject of this article`, timestamp: '2026-01-01T00:00:00Z' }];
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ batchcomplete: true, query: { search } }));
        },
      });
    // Brave answers web_search; searxng's unrouted address fails, as it may: neither sinks the Wikipedia section.
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  async function research(query: string): Promise<{ plan: Array<{ operation: string; params: Record<string, unknown> }>; sections: Section[] }> {
    const response = await callOperation(service, 'auto_research', { query, depth: 2 });
    expect(response.status).toBe(200);
    return response.json();
  }

  it('searches Wikipedia for the subject asked about, and shows its article in a section of its own', async () => {
    const before = wikipediaSearches(upstream).length;
    const answer = await research('What is a transformer model?');
    expect(answer.plan.map((step) => step.operation)).toEqual(['web_search', 'wikipedia_search']);
    expect(answer.plan[1]!.params).toEqual({ query: 'transformer model', max_results: 8 });
    const section = answer.sections.find((candidate) => candidate.operation === 'wikipedia_search')!;
    expect(section.output!.results[0]).toMatchObject({ title: 'transformer model', url: `${upstream.origin}/wikipedia/wiki/transformer_model` });
    expect(section.text).toContain('transformer model is the subject of this article');
    // The subject went to Wikipedia for its section; web_search asks it with the whole question, as it asks every web provider.
    expect(wikipediaSearches(upstream).slice(before).sort()).toEqual(['What is a transformer model?', 'transformer model']);
  });

  it('reports Wikipedia failing in its section while the web search still answers', async () => {
    const answer = await research('who was Ada Lovelace');
    expect(answer.plan.map((step) => step.operation)).toEqual(['web_search', 'wikipedia_search']);
    const wikipedia = answer.sections.find((candidate) => candidate.operation === 'wikipedia_search')!;
    expect(wikipedia.error ?? JSON.stringify(wikipedia.output!.providers)).toMatch(/503/);
    const web = answer.sections.find((candidate) => candidate.operation === 'web_search')!;
    expect(web.output!.results.map((result) => result.url)).toContain('https://brave.example/1');
  });

  it('leaves Wikipedia out of a question another topic outranks', async () => {
    const before = wikipediaSearches(upstream).length;
    const answer = await research('what is the latest news on the tokio release');
    expect(answer.plan.map((step) => step.operation)).not.toContain('wikipedia_search');
    // Nothing reached Wikipedia: web_search's news range (a week) skips a provider that dates no article.
    expect(wikipediaSearches(upstream).slice(before)).toEqual([]);
  });
});
