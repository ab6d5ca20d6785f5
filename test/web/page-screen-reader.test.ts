import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { accessibleTextOf } from './accessibility-tree.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');

/** The focused element, as `tag href` (or its id): what a keyboard user is on. */
const FOCUSED = "document.activeElement.tagName + ' ' + (document.activeElement.getAttribute('href') ?? document.activeElement.id)";

describe.skipIf(!browserTestsRun())('the search page with a keyboard and a screen reader', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', fixture('brave/web-search.json'));
    upstream.on('/arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'application/atom+xml' }, body: fixture('arxiv/search.xml') });
    upstream.json('/openalex/works', fixture('openalex/works-search.json'));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('offers a skip link past the form to the results, seen only while it has focus, and only when there are results', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const skipLink = page.getByRole('link', { name: 'Skip to results' });
    // The empty page has no results to skip to: from the search box, Tab goes on to the form.
    await page.goto(`${service.origin}/`);
    await page.locator('#provider-chips input').first().waitFor();
    expect(await skipLink.count()).toBe(0);

    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const firstResult = await page.locator('#results a').first().getAttribute('href');
    expect(await skipLink.count()).toBe(1);
    // Out of sight until a keyboard reaches it: the usual 1 px clip.
    expect((await skipLink.boundingBox())!.width).toBeLessThanOrEqual(1);
    // Search box, Search button, then the skip link.
    await page.locator('#q').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(FOCUSED)).toBe('A #results-title');
    const shown = (await skipLink.boundingBox())!;
    expect(shown.width).toBeGreaterThan(40);
    expect(shown.height).toBeGreaterThan(10);

    await page.keyboard.press('Enter');
    // Focus is on the results' heading (read out as "Results"), and the next Tab is the first result.
    expect(await page.evaluate(FOCUSED)).toBe('H2 results-title');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(FOCUSED)).toBe(`A ${firstResult}`);
    // No #fragment in the address bar: a history entry of its own, and Back would have run the search again.
    expect(new URL(page.url()).hash).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps every unbulleted list a list with role="list", for VoiceOver, which drops the role of a list without bullets', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=rank+fusion&kind=papers&providers=arxiv,openalex`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const results = await page.locator('#results .result').count();
    expect(results).toBeGreaterThan(1);
    // WebKit's rule, checked where it applies: every list on the page drawn without markers says it is a list.
    const unbulleted = (await page.evaluate(
      "[...document.querySelectorAll('ul, ol')].filter((list) => getComputedStyle(list).listStyleType === 'none').map((list) => (list.id || list.className) + ' ' + list.getAttribute('role'))",
    )) as string[];
    expect(unbulleted).toEqual(['results list', ...Array.from({ length: results }, () => 'sources list')]);
    // And the accessibility tree holds them as lists of items: the results, and each result's "Found by".
    expect(await page.locator('#results').evaluate((list) => list.children.length)).toBe(results);
    expect(await page.getByRole('list', { name: 'Found by' }).count()).toBe(results);
    expect(await page.getByRole('list').filter({ has: page.locator('.result') }).getByRole('listitem').filter({ has: page.locator('h3') }).count()).toBe(results);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("names each paper's PDF link after its paper, so a links list does not read PDF, PDF, PDF", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=rank+fusion&kind=papers&providers=arxiv,openalex`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const expected: string[] = [];
    for (const result of await page.locator('#results .result').all()) {
      if ((await result.locator('.paper-links a', { hasText: 'PDF' }).count()) === 0) continue;
      expected.push(`PDF of ${(await result.locator('h3').textContent())!.trim()}`);
    }
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const names = (await accessibleTextOf(page, '#results .paper-links a')).map((link) => link.name).filter((name) => name.startsWith('PDF'));
    expect(names).toEqual(expected);
    // Seen on the page, each still shows just "PDF": as wide as one another, however long the titles.
    const widths = await page.locator('#results .paper-links a', { hasText: 'PDF' }).evaluateAll((links) => links.map((link) => link.getBoundingClientRect().width));
    expect(new Set(widths).size).toBe(1);
    expect(widths[0]).toBeLessThan(60);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says that result links open a new tab, on the page and to a screen reader, and that tab cannot reach back', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=rank+fusion&kind=papers&providers=arxiv`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const note = page.locator('#results-section .new-tab-note');
    expect(await note.isVisible()).toBe(true);
    const noteText = (await note.innerText()).trim();
    expect(noteText).toMatch(/open in a new tab/);

    // Titles and paper links alike.
    const links = page.locator('#results a');
    expect(await links.count()).toBeGreaterThan(2);
    for (const link of await links.all()) {
      expect(await link.getAttribute('target')).toBe('_blank');
      expect((await link.getAttribute('rel'))!.split(' ').sort()).toEqual(['noopener', 'noreferrer']);
    }
    const described = await accessibleTextOf(page, '#results a');
    expect(described.map((link) => link.description)).toEqual(described.map(() => noteText));
    expect(problems).toEqual([]);
    await page.close();
  });
});
