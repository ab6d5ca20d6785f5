import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdfText, PDF_QUEUE_LENGTH, PDF_READERS, PDF_READERS_BUSY_RETRY_AFTER_MS } from '../../src/fetch/extract-pdf.js';
import { minimalPdf, slowPdf } from '../fetch/minimal-pdf.js';
import { callTool, connect } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, startService, type RunningService } from '../support/service.js';


const busyMessage =
  `the PDF readers are busy (${PDF_READERS} PDFs being read and ${PDF_QUEUE_LENGTH} waiting, as many as may wait): ` +
  `this PDF was fetched but not read; retry after ${PDF_READERS_BUSY_RETRY_AFTER_MS / 1000} s`;

/**
 * The service's reader threads (one pool per process, shared with the app started here) are kept reading and
 * their queue full from the test itself: the threads on slow PDFs for about ten seconds (8 s of time, then the
 * page grace), far longer than the requests below take. A PDF fetched through the service meanwhile must be
 * turned away at once, with 503 and when to retry.
 */
describe('a PDF fetched while every reader thread is busy and the queue is full', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let inHand: Promise<unknown>[] = [];
  const slowReadsNoLongerNeeded = new AbortController();

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/site/paper.pdf', { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: minimalPdf({ lines: ['a paper'] }).toString('latin1') });
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true' });
    const slow = slowPdf();
    inHand = [
      ...Array.from({ length: PDF_READERS }, () =>
        extractPdfText(slow, { maxChars: 1_000_000, timeMs: 8_000, signal: slowReadsNoLongerNeeded.signal }).catch((error: unknown) => error),
      ),
      ...Array.from({ length: PDF_QUEUE_LENGTH }, () => extractPdfText(minimalPdf({ lines: ['queued'] }), { maxChars: 1_000_000, timeMs: 60_000 })),
    ];
  });
  afterAll(async () => {
    // The slow reads were only there to keep the threads busy while the tests ran: stopped now, as a caller that went
    // away stops its read, rather than waited out (their time and the page grace, about ten seconds). The threads are
    // the next file's, so the reads are still awaited: every one of them has let go of its thread.
    slowReadsNoLongerNeeded.abort();
    await Promise.allSettled(inHand);
    await service.stop();
    await upstream.stop();
  }, 60_000);

  it('is answered 503 PDF_READERS_BUSY with Retry-After by fetch_url and paper_read, logged as a rejection', async () => {
    for (const operation of ['fetch_url', 'paper_read']) {
      const response = await callOperation(service, operation, { url: `${upstream.origin}/site/paper.pdf` });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe(String(PDF_READERS_BUSY_RETRY_AFTER_MS / 1000));
      expect(await response.json()).toMatchObject({ code: 'PDF_READERS_BUSY', message: busyMessage, retry_after_ms: PDF_READERS_BUSY_RETRY_AFTER_MS });
    }
    const logged = service.logs.map((line) => JSON.parse(line)).filter((entry) => entry.code === 'PDF_READERS_BUSY' || entry.msg === 'request failed');
    expect(logged.map(({ level, msg }) => [level, msg])).toEqual([
      [30, 'request rejected'],
      [30, 'request rejected'],
    ]);
  });

  it('is a tool error over MCP that says so and when to retry', async () => {
    const connected = await connect(service.origin, 'streamable');
    try {
      const result = await callTool(connected.client, 'research', { operation: 'fetch_url', params: { url: `${upstream.origin}/site/paper.pdf` } });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: `${busyMessage}\n(PDF_READERS_BUSY; retry_after_ms: ${PDF_READERS_BUSY_RETRY_AFTER_MS})` }]);
    } finally {
      await connected.leave();
    }
  });
});
