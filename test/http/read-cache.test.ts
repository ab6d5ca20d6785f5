import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const SCRAPE = '/firecrawl/v2/scrape';
/** A page long enough for several pages of 500 characters, each paragraph told apart by its number. */
const LONG_TEXT = Array.from({ length: 40 }, (_, index) => `Paragraph ${index + 1} of the long page, with words enough to fill a line.`).join('\n\n');
const paper = minimalPdf({ lines: Array.from({ length: 30 }, (_, index) => `Line ${index + 1} of the paper, long enough to need paging.`) });

interface TextPage {
  text: string;
  offset: number;
  next_offset: number | null;
  total_chars: number;
  engine?: string;
}

async function pageOf(service: RunningService, operation: string, body: Record<string, unknown>): Promise<TextPage> {
  const response = await callOperation(service, operation, body);
  const answer = (await response.json()) as TextPage;
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

/** Every page of a document, offset after offset, as a caller pages through it. */
async function readAll(service: RunningService, operation: string, body: Record<string, unknown>): Promise<{ text: string; pages: number }> {
  let text = '';
  let pages = 0;
  let offset: number | null = 0;
  while (offset !== null) {
    const page: TextPage = await pageOf(service, operation, { ...body, offset, max_chars: 500 });
    text += page.text;
    pages += 1;
    offset = page.next_offset;
  }
  return { text, pages };
}

function serveCounted(upstream: FakeUpstream, path: string, contentType: string, body: string | Buffer): void {
  upstream.on(path, {
    kind: 'handler',
    handle: (_recorded, response) => response.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }).end(body),
  });
}

describe('fetch_url and paper_read page through a document read once', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let uncached: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    serveCounted(upstream, '/site/long.txt', 'text/plain; charset=utf-8', LONG_TEXT);
    serveCounted(upstream, '/files/paper.pdf', 'application/pdf', paper);
    // Fails on its first request only: a failure must not be what the next call is given.
    let firstFlaky = true;
    upstream.on('/site/flaky.txt', {
      kind: 'handler',
      handle: (_recorded, response) => {
        if (firstFlaky) {
          firstFlaky = false;
          response.writeHead(500, { 'content-type': 'text/plain' }).end('busy');
        } else response.writeHead(200, { 'content-type': 'text/plain' }).end(LONG_TEXT);
      },
    });
    // Firecrawl's answer to POST /v2/scrape (its documented shape), for a page this site does not serve itself.
    const scraped = { success: true, data: { markdown: LONG_TEXT, metadata: { title: 'Scraped', sourceURL: `${upstream.origin}/site/scraped`, url: `${upstream.origin}/site/scraped`, statusCode: 200 } } };
    upstream.on(SCRAPE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: JSON.stringify(scraped) });
    const env = { ...providerEnv(upstream.origin), FIRECRAWL_API_KEY: 'fc-test-key-1', FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' };
    service = await startService(env);
    uncached = await startService({ ...env, READ_CACHE_TTL_SECONDS: '0' });
  });
  afterAll(async () => {
    await service.stop();
    await uncached.stop();
    await upstream.stop();
  });

  it('fetch_url downloads a page once for all of its pages, and the pages join into the whole text', async () => {
    const url = `${upstream.origin}/site/long.txt`;
    const { text, pages } = await readAll(service, 'fetch_url', { url, engine: 'direct' });
    expect(pages).toBeGreaterThan(3);
    expect(text).toBe(LONG_TEXT);
    expect(upstream.requestsTo('/site/long.txt')).toHaveLength(1);
  });

  it('paper_read downloads and reads a PDF once for all of its pages', async () => {
    const url = `${upstream.origin}/files/paper.pdf`;
    const { text, pages } = await readAll(service, 'paper_read', { url });
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain('Line 1 of the paper');
    expect(text).toContain('Line 30 of the paper');
    expect(upstream.requestsTo('/files/paper.pdf')).toHaveLength(1);
  });

  it('a Firecrawl scrape is paid once for all of its pages, and auto pages on through the same text', async () => {
    const url = `${upstream.origin}/site/scraped`;
    const first = await pageOf(service, 'fetch_url', { url, engine: 'firecrawl', max_chars: 500 });
    expect(first.engine).toBe('firecrawl');
    expect(first.next_offset).not.toBeNull();
    const second = await pageOf(service, 'fetch_url', { url, engine: 'auto', offset: first.next_offset, max_chars: 500 });
    expect({ engine: second.engine, offset: second.offset, total: second.total_chars }).toEqual({ engine: 'firecrawl', offset: first.next_offset, total: first.total_chars });
    expect(upstream.requestsTo(SCRAPE)).toHaveLength(1);
    // A direct read is never answered with what Firecrawl read: the caller chose the engine.
    const direct = await callOperation(service, 'fetch_url', { url, engine: 'direct' });
    expect(direct.status).toBe(502);
    expect(upstream.requestsTo('/site/scraped')).toHaveLength(1);
  });

  it('a failed read is not kept: the next call reads the document again', async () => {
    const url = `${upstream.origin}/site/flaky.txt`;
    const failed = await callOperation(service, 'fetch_url', { url, engine: 'direct' });
    expect(failed.status).toBe(502);
    const page = await pageOf(service, 'fetch_url', { url, engine: 'direct', max_chars: 500 });
    expect(page.text).toBe(LONG_TEXT.slice(0, 500));
    expect(upstream.requestsTo('/site/flaky.txt')).toHaveLength(2);
  });

  it('with READ_CACHE_TTL_SECONDS=0 every page is downloaded again', async () => {
    const before = upstream.requestsTo('/site/long.txt').length;
    const { pages } = await readAll(uncached, 'fetch_url', { url: `${upstream.origin}/site/long.txt`, engine: 'direct' });
    expect(upstream.requestsTo('/site/long.txt').length - before).toBe(pages);
  });
});
