import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchResponseOutput } from '../../src/operations/output-schemas.js';
import { OPERATIONS } from '../../src/operations/registry.js';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const DOI = '10.5555/lookup.2020.3';

/**
 * The 200 schema the OpenAPI document gives each operation is its `output` zod schema (strict objects): here
 * every operation answers over REST from loopback providers with recorded bodies, and each answer must fit it
 * exactly, so a field added to an answer but not to its schema (or documented but never sent) is noticed.
 */
describe('every operation answers what its output schema documents', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  /** Parameters for each operation: its example, or one that reaches the loopback fakes instead of the internet. */
  const params = (): Record<string, unknown> => ({
    fetch_url: { url: `${upstream.origin}/site/article.html` },
    paper_details: { id: DOI },
    paper_read: { url: `${upstream.origin}/site/paper.pdf` },
    youtube_video_details: { ids: ['abcDEF12345', 'zzzzzzzzzzz'] },
    youtube_transcript: { video: 'abcDEF12345' },
  });

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const page = '<!doctype html><html><head><title>Fusion</title></head><body><article><h1>Fusion</h1><p>Reciprocal rank fusion rewards agreement.</p><p><a href="/site/more.html">more</a></p></article></body></html>';
    const xml = (body: string) => ({ kind: 'respond' as const, headers: { 'content-type': 'text/xml' }, body });
    upstream
      .json('/brave/res/v1/web/search', fixture('brave/web-search.json'))
      .on('/arxiv/api/query', xml(fixture('arxiv/search.xml')))
      .json('/github/search/repositories', fixture('github/search-repositories.json'))
      .json('/youtube/youtube/v3/search', fixture('youtube/search.json'))
      .json('/youtube/youtube/v3/videos', fixture('youtube/videos.json'))
      .json('/wikipedia/w/api.php', fixture('wikipedia/list-search.json'))
      .json('/hackernews/api/v1/search', fixture('hackernews/search.json'))
      .json(`/crossref/works/${DOI}`, fixture('crossref/work-lookup.json'))
      .json(`/semanticscholar/graph/v1/paper/DOI:${DOI}`, fixture('semanticscholar/paper-lookup.json'))
      .json(`/openalex/works/doi:${DOI}`, fixture('openalex/work-lookup.json'))
      .on('/site/article.html', { kind: 'respond', headers: { 'content-type': 'text/html; charset=utf-8' }, body: page })
      .on('/site/paper.pdf', {
        kind: 'respond',
        headers: { 'content-type': 'application/pdf' },
        body: minimalPdf({ lines: ['Reciprocal rank fusion'], title: 'Fusion' }).toString('latin1'),
      })
      .on('/yt/watch', {
        kind: 'handler',
        handle: (_request, response) => {
          const track = { baseUrl: `${upstream.origin}/yt/api/timedtext?lang=en`, languageCode: 'en', name: { simpleText: 'English' } };
          const player = { playabilityStatus: { status: 'OK' }, captions: { playerCaptionsTracklistRenderer: { captionTracks: [track] } } };
          response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><script>var ytInitialPlayerResponse = ${JSON.stringify(player)};</script></html>`);
        },
      })
      .on('/yt/api/timedtext', xml('<?xml version="1.0"?><transcript><text start="0.5" dur="2">Hello</text><text start="61" dur="3">a minute in</text></transcript>'));
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-key-123456',
      YOUTUBE_API_KEY: 'yt-key-1234567890',
      YOUTUBE_WEB_BASE_URL: `${upstream.origin}/yt`,
      FETCH_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  for (const operation of OPERATIONS) {
    it(`${operation.name}`, async () => {
      const body = params()[operation.name] ?? operation.example;
      const response = await request(service.origin, `/v1/ops/${operation.name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      expect(response.status, JSON.stringify(answer)).toBe(200);
      const checked = operation.output.safeParse(answer);
      expect(checked.error?.issues ?? []).toEqual([]);
    });
  }

  it('answers with content, not only empty lists, so the item schemas are exercised', async () => {
    const call = async (name: string, body: unknown) =>
      (await request(service.origin, `/v1/ops/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    expect((await call('web_search', { query: 'fusion', providers: ['brave'] })).results.length).toBeGreaterThan(0);
    expect((await call('paper_search', { query: 'fusion', providers: ['arxiv'] })).results.length).toBeGreaterThan(0);
    expect((await call('youtube_video_details', { ids: ['abcDEF12345'] })).videos.length).toBeGreaterThan(0);
    expect((await call('paper_details', { id: DOI })).paper.sources.length).toBeGreaterThan(1);
  });

  it('the REST search with explain=true fits the same search schema', async () => {
    const response = await request(service.origin, '/v1/search/web?q=fusion&providers=brave,wikipedia&explain=true');
    const answer = await response.json();
    expect(answer.results[0].explain.length).toBeGreaterThan(0);
    expect(searchResponseOutput.safeParse(answer).error?.issues ?? []).toEqual([]);
  });
});
