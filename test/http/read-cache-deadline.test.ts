import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, startService, type RunningService } from '../support/service.js';

/**
 * A PDF that takes far longer to read than the shortest timeout_ms: 3000 pages of 30 lines from one shared content
 * stream (a small file). Read within HURRIED_MS, only its first pages are; read with no timeout_ms, as much as
 * FETCH_MAX_BYTES allows (most of it: 4–6 s of reading on a 2-core machine), never stopped for time.
 */
const LINE = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit sed.';
const heavy = minimalPdf({ lines: Array.from({ length: 30 }, () => LINE), pages: 3000 });
/**
 * A timeout_ms that leaves a warm reader thread time for its first pages on a busy machine, far from the whole: the
 * deadline bounds the reading too (the caller is answered by it), so a read within 100 ms was often a 504 before any page,
 * and one within 1000 ms was once, on a machine busy with other work (opening a document of this many pages takes a
 * good part of a second there). 1500 ms reads about a third of it on a quiet machine.
 */
const HURRIED_MS = 1500;
const STOPPED_FOR_TIME = /\[Reading stopped after \d+ ms/;

interface TextPage {
  text: string;
  total_chars: number;
  next_offset: number | null;
}

async function read(service: RunningService, operation: string, body: Record<string, unknown>): Promise<TextPage> {
  const response = await callOperation(service, operation, { max_chars: 100_000, ...body });
  const answer = (await response.json()) as TextPage;
  expect(response.status, JSON.stringify(answer).slice(0, 500)).toBe(200);
  return answer;
}

/**
 * The text's last 200 characters, where a note that reading stopped would be: from the page when it reached the end,
 * else asked for as the same caller (the text it was given is kept, so the last page comes from it).
 */
async function endOf(service: RunningService, operation: string, body: Record<string, unknown>, page: TextPage): Promise<string> {
  if (page.next_offset === null) return page.text.slice(-200);
  return (await read(service, operation, { ...body, offset: page.total_chars - 500, max_chars: 500 })).text.slice(-200);
}

describe('a read cut short by the caller\'s timeout_ms', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    for (const path of ['/site/heavy-a.pdf', '/site/heavy-b.pdf', '/site/heavy-c.pdf']) {
      upstream.on(path, { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: heavy.toString('latin1') });
    }
    // A patient read stops at FETCH_MAX_BYTES (as many characters as ten times the file's bytes: most of its text).
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', FETCH_TIMEOUT_MS: '30000', FETCH_MAX_BYTES: String(heavy.length * 10), LOG_LEVEL: 'silent' });
    // The reader threads started before the hurried reads: timeout_ms bounds a PDF's reading, a thread's start included.
    upstream.on('/site/warm-up.pdf', { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: minimalPdf({ lines: ['warm'] }).toString('latin1') });
    await read(service, 'fetch_url', { url: `${upstream.origin}/site/warm-up.pdf` });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('is not what fetch_url gives a later caller that waits longer', async () => {
    const url = `${upstream.origin}/site/heavy-a.pdf`;
    const hurried = await read(service, 'fetch_url', { url, timeout_ms: HURRIED_MS });
    expect(await endOf(service, 'fetch_url', { url, timeout_ms: HURRIED_MS }, hurried)).toMatch(STOPPED_FOR_TIME);

    const patient = await read(service, 'fetch_url', { url });
    expect(await endOf(service, 'fetch_url', { url }, patient)).not.toMatch(STOPPED_FOR_TIME);
    expect(patient.total_chars).toBeGreaterThan(hurried.total_chars);
  });

  it('is not what paper_read gives a later caller that waits longer', async () => {
    const url = `${upstream.origin}/site/heavy-b.pdf`;
    const hurried = await read(service, 'paper_read', { url, timeout_ms: HURRIED_MS });
    expect(await endOf(service, 'paper_read', { url, timeout_ms: HURRIED_MS }, hurried)).toMatch(STOPPED_FOR_TIME);

    const patient = await read(service, 'paper_read', { url });
    expect(await endOf(service, 'paper_read', { url }, patient)).not.toMatch(STOPPED_FOR_TIME);
  });

  it('still serves its next pages to a caller that waits no longer, from the same text', async () => {
    const url = `${upstream.origin}/site/heavy-c.pdf`;
    const first = await read(service, 'fetch_url', { url, timeout_ms: HURRIED_MS, max_chars: 500 });
    const downloads = upstream.requestsTo('/site/heavy-c.pdf').length;
    const next = await read(service, 'fetch_url', { url, timeout_ms: HURRIED_MS, offset: 500, max_chars: 100_000 });
    expect(upstream.requestsTo('/site/heavy-c.pdf').length).toBe(downloads);
    expect(next.total_chars).toBe(first.total_chars);
    expect(await endOf(service, 'fetch_url', { url, timeout_ms: HURRIED_MS }, next)).toMatch(STOPPED_FOR_TIME);
  });
});
