import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config.js';
import { FedsearchError } from '../../src/domain/errors.js';
import type { SearchResult } from '../../src/domain/result.js';
import type { SearchService } from '../../src/engine/search-service.js';
import type { OperationContext } from '../../src/operations/operation.js';
import { downloadPaper } from '../../src/operations/paper-download.js';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { minimalPdf } from '../fetch/minimal-pdf.js';

const FETCH_TIMEOUT_MS = 300;
const MAX_BYTES = 4096;
const pdf = minimalPdf({ lines: ['Read from the second location.'] });

/**
 * downloadPaper over real loopback servers. Only the lookup is stubbed: it answers a paper whose sources gave
 * the listed PDF links, so the test chooses which location hangs, is too large or serves the file.
 */
function contextFor(links: string[]): OperationContext {
  const paper: SearchResult = { title: 'Two Links', url: links[0]!, pdf_url: links[0], pdf_urls: links } as SearchResult;
  const search = {
    lookupPaper: async () => ({ result: paper, providers: [] }),
    baseUrlOf: () => undefined,
  } as unknown as SearchService;
  const config = { fetch: { allowPrivate: true, maxBytes: MAX_BYTES, timeoutMs: FETCH_TIMEOUT_MS, readTimeoutMs: 10_000 } } as AppConfig;
  return { search, config, operations: () => [], signal: new AbortController().signal, logger: pino({ level: 'silent' }) };
}

async function failureOf(promise: Promise<unknown>): Promise<FedsearchError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FedsearchError);
  return error as FedsearchError;
}

describe('downloadPaper passing over a location that hangs or is too large', () => {
  let site: LoopbackSite;
  const at = (path: string): string => `${site.origin}${path}`;

  beforeAll(async () => {
    site = await new LoopbackSite()
      // Never answers: the request ends only when the fetcher gives up on it.
      .on('/hangs.pdf', () => undefined)
      .serve('/large.pdf', 'application/pdf', Buffer.alloc(MAX_BYTES * 2, 0x20))
      .serve('/paper.pdf', 'application/pdf', pdf)
      .start();
  });
  afterEach(() => {
    site.requestedPaths.length = 0;
  });
  afterAll(async () => {
    await site.stop();
  });

  it('reads the second location when the first runs out of FETCH_TIMEOUT_MS with time left on the deadline', async () => {
    const links = [at('/hangs.pdf'), at('/paper.pdf')];
    const { document, tried } = await downloadPaper({ id: '10.5555/two', timeout_ms: 20_000 }, contextFor(links));
    expect(document.kind).toBe('pdf');
    expect(document.body.equals(pdf)).toBe(true);
    expect(tried).toEqual(links);
  });

  it('reads the second location when the first is larger than FETCH_MAX_BYTES', async () => {
    const links = [at('/large.pdf'), at('/paper.pdf')];
    const { document, tried } = await downloadPaper({ id: '10.5555/two' }, contextFor(links));
    expect(document.body.equals(pdf)).toBe(true);
    expect(tried).toEqual(links);
  });

  it('ends at once with a timeout when the first location used up the caller\'s deadline, naming the one left untried', async () => {
    const links = [at('/hangs.pdf'), at('/paper.pdf')];
    const error = await failureOf(downloadPaper({ id: '10.5555/two', timeout_ms: 200 }, contextFor(links)));
    expect(error.code).toBe('FETCH_TIMEOUT');
    expect(error.httpStatus).toBe(504);
    expect(error.message).toContain(`not tried: ${at('/paper.pdf')}`);
    expect(site.requestedPaths).toEqual(['/hangs.pdf']);
  });

  it('reads as a timeout (504) naming both locations when each runs out of its time', async () => {
    const links = [at('/hangs.pdf'), `${at('/hangs.pdf')}?copy`];
    const error = await failureOf(downloadPaper({ id: '10.5555/two' }, contextFor(links)));
    expect(error.code).toBe('FETCH_TIMEOUT');
    expect(error.httpStatus).toBe(504);
    expect(error.message).toMatch(/^none of the 2 PDF locations known for 10\.5555\/two could be read: /);
    for (const link of links) expect(error.message).toContain(`fetching ${link} took longer than ${FETCH_TIMEOUT_MS} ms`);
  });

  it('names the too-large location and the failed one, with the first one\'s code, when neither gives the PDF', async () => {
    const links = [at('/large.pdf'), at('/missing.pdf')];
    const error = await failureOf(downloadPaper({ id: '10.5555/two' }, contextFor(links)));
    expect(error.code).toBe('FETCH_TOO_LARGE');
    expect(error.message).toBe(
      `none of the 2 PDF locations known for 10.5555/two could be read: ${at('/large.pdf')} is larger than the ${MAX_BYTES}-byte limit (FETCH_MAX_BYTES); ` +
        `it declares ${MAX_BYTES * 2} bytes; ${at('/missing.pdf')} answered HTTP 404`,
    );
  });
});
