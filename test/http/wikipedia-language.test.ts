import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connect, textOf } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

const WIKIPEDIA_PATH = '/wikipedia/w/api.php';
const OTHER_WIKI_PATH = '/otherwiki/w/api.php';
/** The file entry's reason: a site outside wikipedia.org whose language was not set. */
const OTHER_WIKI_UNSET = "skipped: cannot tell its site's language: language of otherwiki in PROVIDERS_FILE is not set";

type Outcome = { provider: string; status: string; message?: string };

/**
 * A MediaWiki site outside wikipedia.org (here a loopback fake) is one language: the one its operator configured
 * (WIKIPEDIA_LANGUAGE, `language` in PROVIDERS_FILE). A search in that language asks it; a search in another, or
 * any language when none is configured, skips it.
 */
describe('a MediaWiki site and a search language, over real HTTP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const scratch = mkdtempSync(path.join(tmpdir(), 'fedsearch-wiki-language-'));

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // One page of list=search (https://www.mediawiki.org/wiki/API:Search), with only what the adapter reads.
    const page = (title: string) => ({ query: { search: [{ title, snippet: 'text' }] } });
    upstream.json(WIKIPEDIA_PATH, page('Rangfusion')).json(OTHER_WIKI_PATH, page('Other'));
    const providersFile = path.join(scratch, 'providers.yaml');
    writeFileSync(providersFile, `providers:\n  - name: otherwiki\n    use: mediawiki\n    base_url: ${upstream.origin}/otherwiki\n`);
    service = await startService({
      ...providerEnv(upstream.origin),
      WIKIPEDIA_LANGUAGE: 'de',
      PROVIDERS_FILE: providersFile,
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  const outcomes = (providers: Outcome[]): Record<string, string> =>
    Object.fromEntries(providers.map((outcome) => [outcome.provider, outcome.message ? `${outcome.status}: ${outcome.message}` : outcome.status]));

  it('asks the site in its configured language, and links its articles there', async () => {
    const response = await request(service.origin, '/v1/search/web?q=rank+fusion&providers=wikipedia,otherwiki&language=de');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(outcomes(body.providers)).toEqual({ wikipedia: 'ok', otherwiki: OTHER_WIKI_UNSET });
    expect(body.results.map((result: { url: string }) => result.url)).toEqual([`${upstream.origin}/wikipedia/wiki/Rangfusion`]);
    expect(upstream.requestsTo(WIKIPEDIA_PATH).at(-1)?.url.searchParams.get('srsearch')).toBe('rank fusion');
    expect(upstream.requestsTo(OTHER_WIKI_PATH)).toHaveLength(0);
  });

  it('takes the language with a region, in any letter case, through the operation too', async () => {
    const asked = upstream.requestsTo(WIKIPEDIA_PATH).length;
    const response = await callOperation(service, 'web_search', { query: 'rank fusion', providers: ['wikipedia'], language: 'DE-at' });
    expect(response.status).toBe(200);
    expect(outcomes((await response.json()).providers)).toEqual({ wikipedia: 'ok' });
    expect(upstream.requestsTo(WIKIPEDIA_PATH)).toHaveLength(asked + 1);
  });

  it('skips the site for another language, and asks both for none', async () => {
    const asked = upstream.requestsTo(WIKIPEDIA_PATH).length;
    const other = await (await request(service.origin, '/v1/search/web?q=rank+fusion&providers=wikipedia,otherwiki&language=fr')).json();
    expect(outcomes(other.providers)).toEqual({ wikipedia: 'skipped: searches in de only: WIKIPEDIA_LANGUAGE=de', otherwiki: OTHER_WIKI_UNSET });
    expect(upstream.requestsTo(WIKIPEDIA_PATH)).toHaveLength(asked);
    const none = await (await request(service.origin, '/v1/search/web?q=rank+fusion&providers=wikipedia,otherwiki')).json();
    expect(outcomes(none.providers)).toEqual({ wikipedia: 'ok', otherwiki: 'ok' });
  });
});

/**
 * Why Wikipedia was skipped for a search's language, as REST, the operation and an MCP client read it: "cannot filter
 * by language" said neither that Wikipedia has no edition in it nor that the operator kept an instance to one edition.
 * Both are decided before any request, so the instances stay on their real editions and nothing is sent.
 */
describe('the reason a Wikipedia edition was not asked, over real HTTP and MCP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const scratch = mkdtempSync(path.join(tmpdir(), 'fedsearch-wiki-editions-'));

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const providersFile = path.join(scratch, 'providers.yaml');
    writeFileSync(providersFile, 'providers:\n  - name: dewiki\n    use: mediawiki\n    base_url: https://de.wikipedia.org\n    language: de\n');
    const { WIKIPEDIA_BASE_URL: _onTheFake, ...env } = providerEnv(upstream.origin);
    service = await startService({ ...env, PROVIDERS_FILE: providersFile, CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('says Wikipedia has no edition in the language, on the route and through the operation', async () => {
    const viaRoute = await request(service.origin, '/v1/search/web?q=rank+fusion&providers=wikipedia&language=qq-DE');
    expect(viaRoute.status).toBe(200);
    expect((await viaRoute.json()).providers).toEqual([expect.objectContaining({ provider: 'wikipedia', status: 'skipped', message: 'has no edition in qq' })]);
    const viaOperation = await callOperation(service, 'web_search', { query: 'rank fusion', providers: ['wikipedia'], language: 'QQ' });
    expect((await viaOperation.json()).providers).toEqual([expect.objectContaining({ provider: 'wikipedia', status: 'skipped', message: 'has no edition in qq' })]);
  });

  it('says an edition kept to its language by its PROVIDERS_FILE entry searches only in it', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=rank+fusion&providers=dewiki&language=fr')).json();
    expect(body.providers).toEqual([
      expect.objectContaining({ provider: 'dewiki', status: 'skipped', message: 'searches in de only: language of dewiki in PROVIDERS_FILE is de' }),
    ]);
    expect(upstream.requests).toHaveLength(0);
  });

  it('gives an MCP client the same reason in its text', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      const text = textOf(
        await callTool(connected.client, 'research', {
          operation: 'web_search',
          params: { query: 'rank fusion', providers: ['wikipedia', 'dewiki'], language: 'qq' },
        }),
      );
      expect(text).toContain('- wikipedia: skipped (has no edition in qq)');
      expect(text).toContain('- dewiki: skipped (searches in de only: language of dewiki in PROVIDERS_FILE is de)');
    } finally {
      await connected.close();
    }
  });
});
