import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

function call(service: RunningService, operation: string, body: unknown) {
  return request(service.origin, `/v1/ops/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const DOI = '10.5555/lookup.2020.3';

describe('research operations over loopback providers', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let safeService: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const origin = () => upstream.origin;
    upstream
      .json(`/crossref/works/${DOI}`, fixture('crossref/work-lookup.json'))
      .json(`/semanticscholar/graph/v1/paper/DOI:${DOI}`, fixture('semanticscholar/paper-lookup.json'))
      .json('/semanticscholar/graph/v1/paper/*', { error: 'Paper not found' }, 404)
      .json(`/openalex/works/doi:${DOI}`, fixture('openalex/work-lookup.json'))
      .on('/pubmed/entrez/eutils/esearch.fcgi', { kind: 'respond', headers: { 'content-type': 'text/xml' }, body: fixture('pubmed/esearch-doi.xml') })
      .on('/pubmed/entrez/eutils/efetch.fcgi', {
        kind: 'handler',
        handle: (recorded, response) =>
          response
            .writeHead(200, { 'content-type': 'text/xml' })
            .end(recorded.url.searchParams.get('id') === '32000003' ? fixture('pubmed/efetch-lookup.xml') : '<?xml version="1.0"?><PubmedArticleSet></PubmedArticleSet>'),
      })
      .json('/brave/res/v1/web/search', {
        web: {
          results: [
            { title: 'A thread', url: 'https://www.reddit.com/r/rust/comments/abc', description: 'people talk' },
            { title: 'A blog', url: 'https://blog.example.org/rust', description: 'a post' },
          ],
        },
      })
      .json('/youtube/youtube/v3/videos', fixture('youtube/videos.json'))
      // Landing where it was asked (https://93.184.215.14/): a landing on another host is checked, and tests do not use DNS.
      .json('/firecrawl/v2/scrape', fixture('firecrawl/scrape-v2.json').replace('https://www.example.com/', 'https://93.184.215.14/'))
      .on('/site/article.html', {
        kind: 'respond',
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body:
          '<!doctype html><html><head><title>Merging results</title><meta name="author" content="Ada Lovelace"></head><body>' +
          '<nav>menu</nav><article><h1>Merging results</h1><p>Reciprocal rank fusion adds weight over k plus rank for every list that found a result, ' +
          'which rewards agreement between providers more than any single high position.</p><p>Read <a href="/site/more.html">more</a>.</p>' +
          '<p>Deduplication by canonical URL comes first, so the same page found twice counts as one result with two sources.</p></article></body></html>',
      })
      .on('/yt/watch', {
        kind: 'handler',
        handle: (_request, response) => {
          const player = {
            playabilityStatus: { status: 'OK' },
            captions: {
              playerCaptionsTracklistRenderer: {
                captionTracks: [
                  { baseUrl: `${origin()}/yt/api/timedtext?v=abcDEF12345&lang=de`, languageCode: 'de', name: { simpleText: 'German' } },
                  { baseUrl: `${origin()}/yt/api/timedtext?v=abcDEF12345&lang=en&kind=asr`, languageCode: 'en', kind: 'asr', name: { runs: [{ text: 'English (auto)' }] } },
                ],
              },
            },
          };
          response
            .writeHead(200, { 'content-type': 'text/html' })
            .end(`<html><script>var ytInitialPlayerResponse = ${JSON.stringify(player)};var meta = {"a": "}"};</script></html>`);
        },
      })
      .on('/yt/api/timedtext', {
        kind: 'respond',
        headers: { 'content-type': 'text/xml' },
        body: '<?xml version="1.0" encoding="utf-8" ?><transcript><text start="0.5" dur="2">Hello &amp;amp; welcome</text><text start="61" dur="3">it&amp;#39;s a minute in</text></transcript>',
      });
    const env = {
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-key-123456',
      YOUTUBE_API_KEY: 'yt-key-1234567890',
      FIRECRAWL_API_KEY: 'fc-key-1234567890',
      YOUTUBE_WEB_BASE_URL: `${upstream.origin}/yt`,
      LOG_LEVEL: 'silent',
    };
    service = await startService({ ...env, FETCH_ALLOW_PRIVATE: 'true' });
    safeService = await startService(env);
  });
  afterAll(async () => {
    await service.stop();
    await safeService.stop();
    await upstream.stop();
  });

  it('paper_details merges one record from every paper provider that knows the DOI', async () => {
    const response = await call(service, 'paper_details', { id: `https://doi.org/${DOI.toUpperCase()}` });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.identifier).toEqual({ type: 'doi', value: DOI });
    expect(body.paper.doi).toBe(DOI);
    expect(body.paper.sources.map((source: { provider: string }) => source.provider).sort()).toEqual(['crossref', 'openalex', 'pubmed', 'semanticscholar']);
    expect(body.paper.citation_count).toBeGreaterThanOrEqual(12);
    expect(body.paper.arxiv_id).toBe('2401.00007');
    const arxiv = body.providers.find((outcome: { provider: string }) => outcome.provider === 'arxiv');
    expect(arxiv).toMatchObject({ status: 'skipped', message: 'cannot look up doi identifiers' });
  });

  it('paper_details answers 404 when no provider knows the paper, and 400 for something that is not an id', async () => {
    const missing = await call(service, 'paper_details', { id: 'PMID:1' });
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toContain('no provider knows pmid 1');
    const invalid = await call(service, 'paper_details', { id: 'just some words' });
    expect(invalid.status).toBe(400);
  });

  it('fetch_url turns a page into Markdown with title and links', async () => {
    const response = await call(service, 'fetch_url', { url: `${upstream.origin}/site/article.html`, max_chars: 500 });
    expect(response.status).toBe(200);
    const page = await response.json();
    expect(page).toMatchObject({ engine: 'direct', title: 'Merging results', content_type: 'text/html', offset: 0 });
    expect(page.text).toContain('Reciprocal rank fusion');
    expect(page.text).not.toContain('menu');
    expect(page.links).toContainEqual({ text: 'more', url: `${upstream.origin}/site/more.html` });
  });

  it('fetch_url pages through long text by offset', async () => {
    const first = await (await call(service, 'fetch_url', { url: `${upstream.origin}/site/article.html`, max_chars: 500 })).json();
    if (first.next_offset === null) {
      expect(first.total_chars).toBeLessThanOrEqual(500);
      return;
    }
    const second = await (await call(service, 'fetch_url', { url: `${upstream.origin}/site/article.html`, max_chars: 500, offset: first.next_offset })).json();
    expect(second.offset).toBe(first.next_offset);
    expect(second.total_chars).toBe(first.total_chars);
  });

  it('fetch_url refuses a loopback address by default, naming the reason', async () => {
    const response = await call(safeService, 'fetch_url', { url: `${upstream.origin}/site/article.html` });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('FETCH_FORBIDDEN');
    expect(body.message).toMatch(/loopback/);
  });

  it('fetch_url with engine firecrawl scrapes through Firecrawl', async () => {
    // A public address literal: a DNS name would have to resolve here first, and tests do not use DNS.
    const page = await (await call(safeService, 'fetch_url', { url: 'https://93.184.215.14/', engine: 'firecrawl' })).json();
    expect(page).toMatchObject({ engine: 'firecrawl', title: 'Example page', text: '# Example page\n\nSome text.' });
    const sent = upstream.requestsTo('/firecrawl/v2/scrape').at(-1)!;
    expect(JSON.parse(sent.body)).toMatchObject({ url: 'https://93.184.215.14/' });
    expect(sent.headers.authorization).toBe('Bearer fc-key-1234567890');
  });

  it('youtube_video_details reads ids and links, and reports the ids it did not find', async () => {
    const body = await (await call(service, 'youtube_video_details', { ids: ['https://youtu.be/abcDEF12345', 'xyz_-789012', 'zzzzzzzzzzz'] })).json();
    expect(body.videos.map((video: { url: string }) => video.url)).toEqual([
      'https://www.youtube.com/watch?v=abcDEF12345',
      'https://www.youtube.com/watch?v=xyz_-789012',
    ]);
    expect(body.not_found).toEqual(['zzzzzzzzzzz']);
    const sent = upstream.requestsTo('/youtube/youtube/v3/videos').at(-1)!;
    expect(sent.url.searchParams.get('id')).toBe('abcDEF12345,xyz_-789012,zzzzzzzzzzz');
  });

  it('youtube_transcript chooses the language asked for and returns the captions as text', async () => {
    const body = await (await call(service, 'youtube_transcript', { video: 'https://www.youtube.com/watch?v=abcDEF12345', language: 'en' })).json();
    expect(body).toMatchObject({
      video_id: 'abcDEF12345',
      language: 'en',
      automatic: true,
      available_languages: ['de', 'en'],
      text: "Hello & welcome it's a minute in",
      timestamps: [
        { start: 0.5, text: 'Hello & welcome' },
        { start: 61, text: "it's a minute in" },
      ],
    });
    expect(upstream.requestsTo('/yt/api/timedtext').at(-1)!.url.searchParams.get('lang')).toBe('en');
  });

  it('reddit_search keeps only reddit.com results, whatever the providers found', async () => {
    const body = await (await call(service, 'reddit_search', { query: 'rust async', max_results: 5 })).json();
    expect(body.results.map((result: { url: string }) => result.url)).toEqual(['https://www.reddit.com/r/rust/comments/abc']);
  });

  it('github_search for code without a token reports github not configured, naming GITHUB_TOKEN, not a crash', async () => {
    const body = await (await call(service, 'github_search', { query: 'fastify plugin', type: 'code' })).json();
    expect(body.results).toEqual([]);
    expect(body.providers[0]).toMatchObject({ provider: 'github', status: 'not_configured', missing: ['GITHUB_TOKEN'], message: 'set GITHUB_TOKEN for this search' });
  });

  it('web_search with providers "auto" says which providers it chose and why', async () => {
    const body = await (await call(service, 'web_search', { query: 'what is federated search', providers: 'auto' })).json();
    // Configured here: brave (key), searxng (its URL), wikipedia and local (no key); tavily is not.
    expect(body.routing.providers).toEqual(['wikipedia', 'brave', 'searxng', 'local']);
    expect(body.routing.reasons[0]).toMatch(/^definition query/);
    expect(body.providers.map((outcome: { provider: string }) => outcome.provider).sort()).toEqual(['brave', 'local', 'searxng', 'wikipedia']);
  });

  it('auto_research plans by the query, runs the steps in parallel and returns each with its reason', async () => {
    const response = await call(service, 'auto_research', { query: `what is new about ${DOI}`, depth: 2 });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.plan.map((step: { operation: string }) => step.operation)).toEqual(['paper_details', 'paper_read', 'web_search']);
    const details = body.sections.find((section: { operation: string }) => section.operation === 'paper_details');
    expect(details.output.paper.doi).toBe(DOI);
    expect(details.text).toContain('found by:');
    // paper_read fails here (the PDF is on the real arXiv): that step reports its error, the others still answer.
    const read = body.sections.find((section: { operation: string }) => section.operation === 'paper_read');
    expect(read.error ?? read.output).toBeDefined();
    expect(body.sections.find((section: { operation: string }) => section.operation === 'web_search').output.results.length).toBeGreaterThan(0);
  });

  it('auto_research reads a site: term as where to search, fetching no page of it, and sends it whole', async () => {
    const response = await call(service, 'auto_research', { query: 'rust async runtimes site:https://blog.example.org/', depth: 1 });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.plan.map((step: { operation: string }) => step.operation)).not.toContain('fetch_url');
    // Brave reads site: itself, so it is sent the term whole, as the filter reads it (no scheme, no trailing slash); the
    // answer keeps only that site's results.
    expect(upstream.requestsTo('/brave/res/v1/web/search').at(-1)!.url.searchParams.get('q')).toBe('rust async runtimes site:blog.example.org');
    const search = body.sections.find((section: { operation: string }) => section.operation === 'web_search');
    expect(search.output.results.map((result: { url: string }) => result.url)).toEqual(['https://blog.example.org/rust']);
  });

  it('auto_research refuses a query its searches could not send, saying why, rather than answering with failed sections', async () => {
    const refusal = async (query: string): Promise<string> => {
      const response = await call(service, 'auto_research', { query, depth: 1 });
      expect(response.status).toBe(400);
      return ((await response.json()) as { message: string }).message;
    };
    expect(await refusal(`${'word '.repeat(119)}wordy`)).toContain('has 600 characters besides its links; allowed: at most 500');
    const links = Array.from({ length: 6 }, (_, index) => `https://example.com/${String(index).repeat(80)}`).join(' ');
    expect(await refusal(links)).toContain(`is links alone, which its searches send as they are: ${links.length} characters; allowed: at most 500`);
    expect(await refusal('find the  bell')).toContain('holds the control character U+0007');
  });

  it('company_research takes a domain under an internationalised top-level domain, in its ASCII form', async () => {
    const response = await call(service, 'company_research', { company: 'Example', domain: 'xn--e1afmkfd.xn--p1ai' });
    expect(response.status).toBe(200);
    const sections = ((await response.json()) as { sections: Array<{ title: string }> }).sections;
    expect(sections.map((section) => section.title)).toContain('From xn--e1afmkfd.xn--p1ai');
  });

  it('company_research refuses a domain longer than DNS allows before any provider hears of it', async () => {
    const response = await call(service, 'company_research', { company: 'Example', domain: `${'a'.repeat(250)}.example.com` });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('not a domain name; allowed: a domain such as example.com (at most 253 characters)');
  });
});

describe('paper reading and download', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const pdf = minimalPdf({ lines: ['Federated search asks many engines at once.', 'Results are merged.'], title: 'A Tiny Paper' });

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/files/paper.pdf', { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: pdf.toString('latin1') });
    upstream.on('/arxiv/api/query', {
      kind: 'handler',
      handle: (_request, response) =>
        response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(
          `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">` +
            `<entry><id>http://arxiv.org/abs/2401.00099v1</id><title>A Tiny Paper</title><summary>Tiny.</summary>` +
            `<published>2024-01-05T00:00:00Z</published><author><name>Ada Lovelace</name></author>` +
            `<link title="pdf" href="${upstream.origin}/files/paper.pdf" rel="related" type="application/pdf"/></entry></feed>`,
        ),
    });
    upstream.json('/semanticscholar/graph/v1/paper/*', { error: 'Paper not found' }, 404);
    service = await startService({ ...providerEnv(upstream.origin), FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('paper_read finds the PDF through the lookup and returns its text, paged', async () => {
    const response = await call(service, 'paper_read', { id: 'arXiv:2401.00099v1', max_chars: 500 });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.url).toBe(`${upstream.origin}/files/paper.pdf`);
    expect(body.content_type).toBe('application/pdf');
    expect(body.text).toContain('Federated search asks many engines at once.');
    expect(body.paper.arxiv_id).toBe('2401.00099');
  });

  it('paper_read needs exactly one of id and url', async () => {
    const response = await call(service, 'paper_read', {});
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('id: missing, and so is url; allowed: exactly one of id or url');
  });

  it('GET /v1/papers/download returns the PDF itself', async () => {
    const response = await request(service.origin, '/v1/papers/download?id=2401.00099');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="2401.00099.pdf"');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(pdf)).toBe(true);
  });
});

describe('errors of direct provider calls', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const KEY = 'yt-secret-key-0123456789';

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // An upstream that echoes the key back in its error message.
    upstream.json('/youtube/youtube/v3/videos', { error: { code: 400, message: `API key ${KEY} not valid`, errors: [{ reason: 'keyInvalid' }] } }, 400);
    service = await startService({ ...providerEnv(upstream.origin), YOUTUBE_API_KEY: KEY, LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('say what failed without ever echoing a key', async () => {
    const response = await call(service, 'youtube_video_details', { ids: ['abcDEF12345'] });
    expect(response.status).toBe(502);
    const body = await response.json();
    // YouTube refuses a bad key with 400 keyInvalid: a refused key, naming the setting to check (engine/status-error.ts).
    expect(body.code).toBe('PROVIDER_AUTH');
    expect(body.message).toMatch(/^youtube: HTTP 400: the key was refused: .*\(check YOUTUBE_API_KEY\)$/);
    expect(JSON.stringify(body)).not.toContain(KEY);
  });

  it('name the missing setting of a provider that is not configured', async () => {
    const other = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
    const response = await call(other, 'youtube_video_details', { ids: ['abcDEF12345'] });
    await other.stop();
    expect(response.status).toBe(503);
    expect((await response.json()).message).toBe('youtube is not configured: set YOUTUBE_API_KEY');
  });
});
