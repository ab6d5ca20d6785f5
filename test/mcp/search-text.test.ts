import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { callTool, connect, textOf, type Connected } from './mcp-client.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

/**
 * What a model reads of a search (the tool's text, not its JSON): how to reach the next page, and why a
 * provider gave nothing, whatever the reason: a clients that shows only the text leaves the model nothing else.
 */
describe('the text of a search tool', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Three articles and two repositories: more than one page at max_results 2 and 1.
    upstream.json('/wikipedia/w/api.php', fixture('wikipedia/list-search.json'));
    upstream.json('/github/search/repositories', fixture('github/search-repositories.json'));
    upstream.json('/hackernews/api/v1/search', { message: 'down' }, 500);
    // One failure suspends a provider, for a minute: the next search does not ask it.
    service = await startService({ ...providerEnv(upstream.origin), MCP_TOOLS: 'split', BREAKER_FAILURES: '1', BREAKER_COOLDOWN_MS: '60000', LOG_LEVEL: 'warn' });
    connected = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  it('tells the model how to reach the next page of every search that takes page, not only web_search', async () => {
    const wikipedia = await callTool(connected.client, 'wikipedia_search', { query: 'rank fusion', max_results: 2 });
    expect(wikipedia.structuredContent).toMatchObject({ page: 1, has_more: true });
    expect(textOf(wikipedia)).toMatch(/\n\nPage 1; more results: wikipedia_search with page: 2\.$/);
    const last = await callTool(connected.client, 'wikipedia_search', { query: 'rank fusion', max_results: 2, page: 2 });
    expect(last.structuredContent).toMatchObject({ page: 2, has_more: false });
    expect(textOf(last)).toMatch(/\n\nPage 2; no further pages\.$/);

    const github = await callTool(connected.client, 'github_search', { query: 'rank fusion', max_results: 1 });
    expect(github.structuredContent).toMatchObject({ page: 1, has_more: true });
    expect(textOf(github)).toMatch(/\n\nPage 1; more results: github_search with page: 2\.$/);
  });

  it('says why a provider that was not asked gave nothing, instead of a bare "No results."', async () => {
    const videos = await callTool(connected.client, 'youtube_search', { query: 'rank fusion' });
    // No provider answered: a failed tool call, whose text still says why.
    expect(videos.isError).toBe(true);
    expect(textOf(videos).startsWith('Search failed: no provider answered (youtube: not_configured)')).toBe(true);
    expect(textOf(videos)).toContain('No results.\nProviders not asked:\n- youtube: not_configured (set YOUTUBE_API_KEY to enable)');
  });

  it('names a suspended provider among those that failed, with when it is tried again', async () => {
    const failed = await callTool(connected.client, 'hackernews_search', { query: 'rank fusion' });
    expect(textOf(failed)).toContain('Providers that failed:\n- hackernews: error (HTTP 500: the provider is failing on its side: down; retry later)');
    const suspended = await callTool(connected.client, 'hackernews_search', { query: 'rank fusion again' });
    expect(suspended.structuredContent).toMatchObject({ providers: [{ provider: 'hackernews', status: 'suspended' }] });
    expect(textOf(suspended)).toMatch(/No results\.\nProviders that failed:\n- hackernews: suspended \(suspended after 1 consecutive failures?; retry after \d+ s\)$/);
    // list_providers, where a model picks providers by name, says so too: with our words only, as every caller reads it.
    const providers = textOf(await callTool(connected.client, 'list_providers', { kind: 'web' }));
    expect(providers).toMatch(/^- hackernews \(web\): configured, suspended \(retry after \d+ s; last error: HTTP 500: the provider is failing on its side; retry later\)$/m);
    expect(providers).toMatch(/^- wikipedia \(mediawiki, web\): configured$/m);
  });
});

/** A lone half of a surrogate pair: JSON carries it as `\udXXX`, and a client encoding the text as UTF-8 refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('the text of a search tool, cut', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-cut-key-0123456789', LOG_LEVEL: 'warn' });
    connected = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  it('shortens a long snippet without splitting a character written as two UTF-16 units (an emoji)', async () => {
    // The text shows 300 characters of a snippet: the 299th and 300th are the two halves of one emoji.
    const description = `${'a'.repeat(298)}\u{1F600}${'b'.repeat(100)}`;
    upstream.json('/brave/res/v1/web/search', { web: { results: [{ title: 'Emoji', url: 'https://emoji.example/', description }] } });
    const result = await callTool(connected.client, 'research', { operation: 'web_search', params: { query: 'emoji at the cut', providers: ['brave'] } });
    expect(result.isError).toBeFalsy();
    // The JSON has the whole snippet; the text a shortened one.
    expect(result.structuredContent).toMatchObject({ results: [{ snippet: description }] });
    const text = textOf(result);
    expect(text).toContain(`${'a'.repeat(298)}…`);
    expect(text).not.toMatch(LONE_SURROGATE);
  });
});
