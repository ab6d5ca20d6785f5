import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

const WIKIPEDIA_PATH = '/wikipedia/w/api.php';
const OTHER_WIKI_PATH = '/otherwiki/w/api.php';

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
    expect(outcomes(body.providers)).toEqual({ wikipedia: 'ok', otherwiki: 'skipped: cannot filter by language' });
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
    const skipped = 'skipped: cannot filter by language';
    expect(outcomes(other.providers)).toEqual({ wikipedia: skipped, otherwiki: skipped });
    expect(upstream.requestsTo(WIKIPEDIA_PATH)).toHaveLength(asked);
    const none = await (await request(service.origin, '/v1/search/web?q=rank+fusion&providers=wikipedia,otherwiki')).json();
    expect(outcomes(none.providers)).toEqual({ wikipedia: 'ok', otherwiki: 'ok' });
  });
});
