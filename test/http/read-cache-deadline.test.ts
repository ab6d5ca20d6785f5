import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, startService, type RunningService } from '../support/service.js';

/**
 * A PDF that takes far longer to read than the shortest timeout_ms: 2000 pages of 30 lines from one shared content
 * stream (a small file). Read within 100 ms, only its first pages are; read with no timeout_ms, as much as
 * FETCH_MAX_BYTES allows (about 170 pages), never stopped for time.
 */
const LINE = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit sed.';
const heavy = minimalPdf({ lines: Array.from({ length: 30 }, () => LINE), pages: 2000 });
const STOPPED_FOR_TIME = /\[Reading stopped after \d+ ms/;

interface TextPage {
  text: string;
  total_chars: number;
}

async function read(service: RunningService, operation: string, body: Record<string, unknown>): Promise<TextPage> {
  const response = await callOperation(service, operation, { max_chars: 100_000, ...body });
  const answer = (await response.json()) as TextPage;
  expect(response.status, JSON.stringify(answer).slice(0, 500)).toBe(200);
  return answer;
}

/** The text's last 200 characters: where a note that reading stopped would be. */
function endOf(page: TextPage): string {
  return page.text.slice(-200);
}

describe('a read cut short by the caller\'s timeout_ms', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    for (const path of ['/site/heavy-a.pdf', '/site/heavy-b.pdf', '/site/heavy-c.pdf']) {
      upstream.on(path, { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: heavy.toString('latin1') });
    }
    // A patient read stops at FETCH_MAX_BYTES (as many characters as the file has bytes: a tenth of its text), soon.
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', FETCH_TIMEOUT_MS: '30000', FETCH_MAX_BYTES: String(heavy.length + 1000), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('is not what fetch_url gives a later caller that waits longer', async () => {
    const url = `${upstream.origin}/site/heavy-a.pdf`;
    const hurried = await read(service, 'fetch_url', { url, timeout_ms: 100 });
    expect(endOf(hurried)).toMatch(STOPPED_FOR_TIME);

    const patient = await read(service, 'fetch_url', { url });
    expect(endOf(patient)).not.toMatch(STOPPED_FOR_TIME);
    expect(patient.total_chars).toBeGreaterThan(hurried.total_chars);
  });

  it('is not what paper_read gives a later caller that waits longer', async () => {
    const url = `${upstream.origin}/site/heavy-b.pdf`;
    const hurried = await read(service, 'paper_read', { url, timeout_ms: 100 });
    expect(endOf(hurried)).toMatch(STOPPED_FOR_TIME);

    const patient = await read(service, 'paper_read', { url });
    expect(endOf(patient)).not.toMatch(STOPPED_FOR_TIME);
  });

  it('still serves its next pages to a caller that waits no longer, from the same text', async () => {
    const url = `${upstream.origin}/site/heavy-c.pdf`;
    const first = await read(service, 'fetch_url', { url, timeout_ms: 100, max_chars: 500 });
    const downloads = upstream.requestsTo('/site/heavy-c.pdf').length;
    const next = await read(service, 'fetch_url', { url, timeout_ms: 100, offset: 500, max_chars: 100_000 });
    expect(upstream.requestsTo('/site/heavy-c.pdf').length).toBe(downloads);
    expect(next.total_chars).toBe(first.total_chars);
    expect(endOf(next)).toMatch(STOPPED_FOR_TIME);
  });
});
