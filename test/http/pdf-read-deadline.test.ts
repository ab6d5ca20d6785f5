import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfReaderThreads, PDF_READERS } from '../../src/fetch/extract-pdf.js';
import { minimalPdf, slowPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const DOI = '10.5555/slow.reading';
const READ_TIMEOUT_MS = 1500;
/**
 * What an answer may take past READ_TIMEOUT_MS on this noisy machine (reader threads starting meanwhile). Well under
 * the page grace (2 s) and a thread's start (5 s) a PDF's reading used to be given past the deadline.
 */
const MARGIN_MS = 1000;

/**
 * PDFs whose one page takes PDF.js far longer than READ_TIMEOUT_MS (slowPdf): the read answers 504 by its deadline,
 * and the reader threads stopped at it are replaced, so the next PDF is read.
 */
describe('a PDF read that runs out of READ_TIMEOUT_MS', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const at = (path: string): string => `${upstream.origin}${path}`;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // As bytes: the slow PDF's compressed stream is binary, which a string body would not carry intact.
    const pdf = (body: Buffer) => ({
      kind: 'handler' as const,
      handle: (_recorded: unknown, response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length }).end(body),
    });
    const slow = pdf(slowPdf());
    for (const path of ['/site/slow-paper.pdf', ...Array.from({ length: PDF_READERS }, (_, index) => `/site/slow-${index}.pdf`)]) upstream.on(path, slow);
    upstream.on('/site/quick.pdf', pdf(minimalPdf({ lines: ['Read after the slow ones.'] })));
    upstream.on('/semanticscholar/graph/v1/paper/*', {
      kind: 'handler',
      handle: (_recorded, response) =>
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ paperId: 'd'.repeat(40), title: 'Slow Reading', externalIds: { DOI }, openAccessPdf: { url: at('/site/slow-paper.pdf') } })),
    });
    upstream.json('/crossref/works/*', { status: 'error' }, 404);
    upstream.json('/openalex/works/*', { error: 'not found' }, 404);
    service = await startService({
      ...providerEnv(upstream.origin),
      FETCH_ALLOW_PRIVATE: 'true',
      // Each step's own time is long: only the whole read's deadline can cut the reading short.
      FETCH_TIMEOUT_MS: '20000',
      READ_TIMEOUT_MS: String(READ_TIMEOUT_MS),
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  async function timedCall(operation: string, input: unknown): Promise<{ status: number; body: { code: string; message: string }; wallMs: number }> {
    const started = performance.now();
    const response = await callOperation(service, operation, input);
    const body = (await response.json()) as { code: string; message: string };
    return { status: response.status, body, wallMs: performance.now() - started };
  }

  /** A PDF read within a caller's timeout_ms long enough for reader threads to start on this busy machine. */
  async function readQuickPdf(): Promise<void> {
    const quick = await callOperation(service, 'fetch_url', { url: at('/site/quick.pdf'), timeout_ms: 20_000 });
    const page = (await quick.json()) as { text: string };
    expect(quick.status, JSON.stringify(page)).toBe(200);
    expect(page.text).toContain('Read after the slow ones.');
  }

  it('fetch_url answers 504 by READ_TIMEOUT_MS for every PDF it cuts; the threads reading them are ended and replaced', async () => {
    // The reader threads started first, so that each slow PDF below is read by one of these.
    await readQuickPdf();
    const threadsThatRead = [...pdfReaderThreads()];
    expect(threadsThatRead.length).toBe(PDF_READERS);
    const cut = await Promise.all(threadsThatRead.map((_, index) => timedCall('fetch_url', { url: at(`/site/slow-${index}.pdf`) })));
    for (const { status, body, wallMs } of cut) {
      expect({ status, code: body.code }, body.message).toEqual({ status: 504, code: 'FETCH_TIMEOUT' });
      expect(body.message).toMatch(new RegExp(`^the read's deadline \\(READ_TIMEOUT_MS ${READ_TIMEOUT_MS} ms\\) ran out before `));
      expect(wallMs, `wall times: ${cut.map((call) => Math.round(call.wallMs)).join(', ')} ms`).toBeLessThan(READ_TIMEOUT_MS + MARGIN_MS);
    }
    // Each thread still reading at the deadline was ended (a Worker's threadId is -1 once it stopped), not left
    // reading for ever; new ones took their place and read the next PDF.
    await expect.poll(() => threadsThatRead.map((thread) => thread.threadId), { timeout: 15_000, interval: 100 }).toEqual(threadsThatRead.map(() => -1));
    expect(pdfReaderThreads().length).toBeLessThanOrEqual(PDF_READERS);
    await readQuickPdf();
  }, 60_000);

  it('paper_read answers 504 by READ_TIMEOUT_MS, naming the paper, its deadline and the PDF it was reading', async () => {
    const { status, body, wallMs } = await timedCall('paper_read', { id: DOI });
    expect({ status, code: body.code }, body.message).toEqual({ status: 504, code: 'FETCH_TIMEOUT' });
    expect(body.message).toMatch(
      new RegExp(`^the deadline for reading 10\\.5555/slow\\.reading \\(READ_TIMEOUT_MS ${READ_TIMEOUT_MS} ms\\) ran out while reading ${at('/site/slow-paper.pdf').replace(/\./g, '\\.')}: `),
    );
    expect(wallMs, `wall time ${Math.round(wallMs)} ms`).toBeLessThan(READ_TIMEOUT_MS + MARGIN_MS);
  }, 30_000);
});
