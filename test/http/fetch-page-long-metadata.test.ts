import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { temporaryDirectory } from '../support/temporary-directory.js';

/**
 * A page whose title, byline and link text are each about 200 KB: max_chars pages the text, and the rest of the answer
 * comes with every page, so it has bounds of its own (docs/api.md, fetch_url). Written out here, not read from the code.
 */
const TITLE_CHARS = 300;
const BYLINE_CHARS = 300;
const LINK_TEXT_CHARS = 300;
const MAX_CHARS = 500;

const words = (word: string): string => Array.from({ length: 20_000 }, (_, index) => `${word}${index}`).join(' ');

type Page = { title: string; byline?: string; text: string; engine: string; links: Array<{ text: string; url: string }> };

/** A cut field: within `max`, ending with the ellipsis, and what comes before it is how `original` starts. */
function expectCutFrom(value: string, original: string, max: number): void {
  expect(value.length).toBeLessThanOrEqual(max);
  expect(value.endsWith('…')).toBe(true);
  expect(original.startsWith(value.slice(0, -1))).toBe(true);
}

describe('fetch_url of a page whose metadata is huge', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const title = words('title');
  const byline = words('byline');
  const linkText = words('link');

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const article = Array.from({ length: 6 }, (_, index) => `<p>Paragraph ${index} of the article, long enough for a reader to take it as the article's body text.</p>`).join('');
    const page =
      `<!doctype html><html><head><title>${title}</title><meta property="og:title" content="${title}"><meta name="author" content="${byline}"></head>` +
      `<body><article>${article}<p><a href="https://elsewhere.example/next">${linkText}</a></p></article></body></html>`;
    upstream.on('/site/huge.html', { kind: 'respond', headers: { 'content-type': 'text/html; charset=utf-8' }, body: page });
    upstream.json('/firecrawl/v2/scrape', {
      success: true,
      data: { markdown: '# A scraped page\n\nSome text.\n', metadata: { title, url: 'http://93.184.215.14/page', statusCode: 200 } },
    });
    service = await startService({ ...providerEnv(upstream.origin), FIRECRAWL_API_KEY: 'fc-key-1234567890', FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const fetchUrl = async (body: unknown): Promise<{ status: number; text: string }> => {
    const response = await request(service.origin, '/v1/ops/fetch_url', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, text: await response.text() };
  };

  it('answers the page read here with its title, byline and link text cut, and max_chars of its text', async () => {
    const { status, text } = await fetchUrl({ url: `${upstream.origin}/site/huge.html`, max_chars: MAX_CHARS, engine: 'direct' });
    expect(status).toBe(200);
    expect(text.length).toBeLessThan(5_000);
    const page = JSON.parse(text) as Page;
    expectCutFrom(page.title, title, TITLE_CHARS);
    expectCutFrom(page.byline!, byline, BYLINE_CHARS);
    expect(page.links).toHaveLength(1);
    expect(page.links[0]!.url).toBe('https://elsewhere.example/next');
    expectCutFrom(page.links[0]!.text, linkText, LINK_TEXT_CHARS);
    expect(page.text.length).toBeLessThanOrEqual(MAX_CHARS);
    expect(page.text).toContain('Paragraph 0 of the article');
  });

  it("reads a page whose URL is as long as a result's may be (8,192 characters), and refuses a longer one saying so", async () => {
    const path = `/site/huge.html?${'p'.repeat(8_192 - `${upstream.origin}/site/huge.html?`.length)}`;
    const longest = `${upstream.origin}${path}`;
    expect(longest).toHaveLength(8_192);
    upstream.on(path.split('?')[0]!, { kind: 'respond', headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<title>Long address</title><p>Reached by a long address.</p>' });
    const read = await fetchUrl({ url: longest, max_chars: MAX_CHARS, engine: 'direct' });
    expect(read.status).toBe(200);
    const refused = await fetchUrl({ url: `${longest}q`, max_chars: MAX_CHARS, engine: 'direct' });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).message).toContain('8192');
  });

  it('answers a page Firecrawl scraped with its title cut', async () => {
    const { status, text } = await fetchUrl({ url: 'http://93.184.215.14/page', max_chars: MAX_CHARS, engine: 'firecrawl' });
    expect(status).toBe(200);
    expect(text.length).toBeLessThan(2_000);
    const page = JSON.parse(text) as Page;
    expect(page.engine).toBe('firecrawl');
    expectCutFrom(page.title, title, TITLE_CHARS);
    expect(page.text).toContain('Some text.');
  });
});

describe('a local document whose title is huge', () => {
  it('is found with its title cut, and fetch_url reads it with its title cut', async () => {
    const folder = temporaryDirectory('fedsearch-long-title-');
    const title = words('capybara');
    writeFileSync(path.join(folder, 'capybaras.jsonl'), `${JSON.stringify({ title, text: 'The capybara swims well.' })}\n`);
    const service = await startService({ LOCAL_INDEX_DIR: folder, LOG_LEVEL: 'silent' });
    try {
      const search = await request(service.origin, '/v1/search/web?q=capybara+swims&providers=local');
      expect(search.status).toBe(200);
      const [result] = (await search.json()).results as Array<{ title: string; url: string }>;
      expectCutFrom(result!.title, title, TITLE_CHARS);
      const response = await request(service.origin, '/v1/ops/fetch_url', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: result!.url, max_chars: MAX_CHARS }),
      });
      expect(response.status).toBe(200);
      const page = (await response.json()) as Page;
      expect(page.engine).toBe('local');
      expectCutFrom(page.title, title, TITLE_CHARS);
      expect(page.text).toContain('The capybara swims well.');
    } finally {
      await service.stop();
    }
  });
});
