import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');

/** The narrowest screen the page is made for: 320 CSS px, the width WCAG's reflow criterion names. */
const NARROW = 320;

describe.skipIf(!browserTestsRun())('the search page on the narrowest phone', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', fixture('brave/web-search.json'));
    upstream.json('/hackernews/api/v1/search', fixture('hackernews/search.json'));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('shows score explanations without widening the page: the table scrolls on its own', async () => {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: NARROW, height: 700 });
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave,hackernews&explain=true`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const table = page.locator('#results .result .explain').first();
    expect(await table.isVisible()).toBe(true);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW);
    // Every column is still there, a scroll away, and still read as a table.
    expect(await table.locator('thead th').allTextContents()).toEqual(['Provider', 'Rank', 'Weight', 'Contribution']);
    expect(await table.evaluate((node) => node.scrollWidth > node.clientWidth)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("wraps the status line's longest word, the service's refusal quoting a domain entry of 60 digits from a link", async () => {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: NARROW, height: 700 });
    // No domain: the service refuses it and the page quotes it whole. (A deadline of 60 digits, as this was, no longer
    // reaches the service: the page says a link's itself, quoting 40 characters of it.)
    const entry = '9'.repeat(60);
    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave&include_domains=${entry}`);
    const status = page.locator('#status[data-kind="error"]');
    await status.waitFor();
    // The service's words, the number and all: cut at the page's edge, not past it.
    expect(await status.textContent()).toContain(entry);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW);
    await page.close();
  });
});
