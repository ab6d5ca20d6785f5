import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');

/** Every width exa's bar is given while its row still waits, and where the deadline is marked, as the page sets them. */
const WATCH_EXA_BAR = `
  window.exaWaitingWidths = [];
  window.exaDeadlineAt = undefined;
  new MutationObserver(() => {
    const row = document.querySelector('#waterfall [data-provider="exa"]');
    if (row?.dataset.status !== 'pending') return;
    window.exaWaitingWidths.push(row.querySelector('.bar').style.width);
    window.exaDeadlineAt = row.querySelector('.deadline-marker').style.left;
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['style', 'data-status'] });`;

/** Searches Brave (at once) and exa (never: it times out at the 1.5 s deadline), and returns what exa's bar did meanwhile. */
async function searchWithExaWaiting(page: Page, origin: string): Promise<{ widths: string[]; deadlineAt: string }> {
  await page.addInitScript({ content: WATCH_EXA_BAR });
  await page.goto(`${origin}/?q=rank+fusion&providers=brave,exa&timeout_ms=1500`);
  await page.locator('#results .result').first().waitFor();
  expect(await page.locator('#waterfall [data-provider="exa"] .outcome').textContent()).toBe('waiting…');
  await page.locator('#waterfall [data-provider="exa"][data-status="timeout"]').waitFor();
  await page.locator('#status[data-kind="done"]').waitFor();
  return { widths: await page.evaluate('window.exaWaitingWidths'), deadlineAt: await page.evaluate('window.exaDeadlineAt') };
}

describe.skipIf(!browserTestsRun())('the search page and motion', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', fixture('brave/web-search.json'));
    upstream.on('/exa/search', { kind: 'hang' });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-motion-key-0123456789',
      EXA_API_KEY: 'exa-motion-key-0123456789',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'warn',
    });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('keeps a waiting bar still, reaching to the deadline, for whoever asks for reduced motion', async () => {
    const page = await chromium.context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const problems = await watchForProblems(page);
    const { widths, deadlineAt } = await searchWithExaWaiting(page, service.origin);
    // 1.5 s of waiting, through Brave's answer and exa's timeout: one width all along, the deadline's.
    expect(new Set(widths)).toEqual(new Set([deadlineAt]));
    expect(deadlineAt).toMatch(/^[1-9][\d.]*%$/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('still grows a waiting bar with the time taken for everyone else', async () => {
    const page = await chromium.context.newPage();
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const { widths } = await searchWithExaWaiting(page, service.origin);
    expect(new Set(widths).size).toBeGreaterThan(2);
    await page.close();
  });
});
