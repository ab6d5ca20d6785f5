import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_LENGTH } from '../../src/domain/query-text.js';
import { startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

/** A query of `length` characters of words, no space at either end: the service takes 1–500 (src/domain/query-text.ts). */
const queryOf = (length: number): string => 'rank fusion '.repeat(Math.ceil(length / 12)).slice(0, length - 1) + 'x';

/** The searches the page asks the service for, as their URLs. */
function watchSearches(page: Page): string[] {
  const searches: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/v1/search/')) searches.push(request.url());
  });
  return searches;
}

describe.skipIf(!browserTestsRun())('the search page and the longest query the service takes', () => {
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
    await chromium.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.origin });
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
  });

  it('says a query too long, from a link or the history, in its own words, and keeps it in the box to be shortened', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const searches = watchSearches(page);
    const long = queryOf(600);
    const box = page.getByRole('searchbox', { name: 'Search query' });
    const status = page.locator('#status');
    await page.goto(`${service.origin}/`);
    // The page's limit is the service's: the box's maxlength, which the page's words quote too.
    expect(await box.getAttribute('maxlength')).toBe(String(MAX_QUERY_LENGTH));
    await page.goto(`${service.origin}/?q=${encodeURIComponent(long)}&providers=local`);
    await page.locator('#status[data-kind="error"]').waitFor();
    // Not the service's "q: 600 characters is too long; allowed: 1–500 characters": the page shows no "q".
    expect(await status.textContent()).toBe('The search is 600 characters long; at most 500 are allowed. Shorten it to search.');
    expect(await page.getByRole('status').textContent()).toBe(await status.textContent());
    expect(await box.inputValue()).toBe(long);
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate('document.activeElement.id')).toBe('q');
    // Nothing was searched, so no panel says otherwise.
    expect(searches).toEqual([]);
    expect(await page.locator('#waterfall-section').isHidden()).toBe(true);
    expect(await page.locator('#results-section').isHidden()).toBe(true);

    // Shortened, but not enough: said again, with the new length, before any search.
    await page.evaluate("document.getElementById('q').setSelectionRange(550, 600)");
    await box.press('Backspace');
    await box.press('Enter');
    await page.locator('#status', { hasText: '550 characters' }).waitFor();
    expect(await status.textContent()).toBe('The search is 550 characters long; at most 500 are allowed. Shorten it to search.');
    expect(searches).toEqual([]);

    // Short enough, it searches, and the box is no longer marked.
    await page.evaluate("document.getElementById('q').setSelectionRange(500, 550)");
    await box.press('Backspace');
    await box.press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(searches.map((url) => new URL(url).searchParams.get('q'))).toEqual([long.slice(0, 500)]);
    expect(await box.getAttribute('aria-invalid')).toBeNull();

    // Back to the long link's entry: said again, the long query back in the box, the search just shown gone.
    await page.goBack();
    await expect.poll(() => box.inputValue()).toBe(long);
    await page.locator('#status[data-kind="error"]').waitFor();
    expect(await status.textContent()).toBe('The search is 600 characters long; at most 500 are allowed. Shorten it to search.');
    expect(await page.locator('#results-section').isHidden()).toBe(true);
    expect(searches).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sends a query of exactly 500 characters, and gives the service\'s own words for its other refusals', async () => {
    const page = await chromium.context.newPage();
    // 500 characters, the last a control character: refused by the service for that alone, in its words. (A deadline
    // out of range no longer reaches it: the page says a link's itself, search-form.js.)
    await page.goto(`${service.origin}/?q=${encodeURIComponent(`${queryOf(499)}\u0001`)}&providers=local`);
    await page.locator('#status[data-kind="error"]').waitFor();
    expect(await page.locator('#status').textContent()).toBe(
      'q: holds the control character U+0001 at position 500; allowed: text with at least one visible character, no control characters (tabs and line breaks are fine)',
    );
    await page.close();
  });

  it('says so, politely and beside the box, when a paste is cut to the 500 characters a search takes', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/`);
    await page.locator('#provider-chips input').first().waitFor();
    const box = page.getByRole('searchbox', { name: 'Search query' });
    const note = page.locator('#search-form [aria-live="polite"]').filter({ hasText: 'Cut to' });
    const paste = async (text: string): Promise<void> => {
      await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`);
      await box.press('ControlOrMeta+V');
    };

    // A paste that fits says nothing.
    await box.focus();
    await paste(queryOf(400));
    expect(await box.inputValue()).toHaveLength(400);
    expect(await note.count()).toBe(0);

    // One that does not fit after what the box holds is cut, and the cut is said in a polite live region, without
    // taking the focus.
    await paste(` ${queryOf(200)}`);
    expect(await box.inputValue()).toHaveLength(500);
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.textContent()).toBe('Cut to 500 characters, the most a search takes.');
    expect(await page.evaluate('document.activeElement.id')).toBe('q');
    // Next to the box: right under it.
    const boxBounds = (await box.boundingBox())!;
    const noteBounds = (await note.boundingBox())!;
    expect(noteBounds.y).toBeGreaterThanOrEqual(boxBounds.y + boxBounds.height);
    expect(noteBounds.y - (boxBounds.y + boxBounds.height)).toBeLessThan(20);

    // Once the box holds something else, the note has nothing left to say.
    await box.press('ControlOrMeta+A');
    await paste('rank fusion');
    expect(await box.inputValue()).toBe('rank fusion');
    expect(await note.count()).toBe(0);
    // A paste of more than the box takes, in one go, into the empty box.
    await box.press('ControlOrMeta+A');
    await paste(queryOf(600));
    expect(await box.inputValue()).toBe(queryOf(600).slice(0, 500));
    await expect.poll(() => note.count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });
});
