import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

const HEBREW_TITLE = 'שאלה: מה זה חיפוש מאוחד?';
const HEBREW_SNIPPET = 'חיפוש מאוחד (federated search) מחזיר תוצאות ממקורות רבים.';
const ARABIC_AUTHOR = 'علي حسن';

/** Each result's title, snippet and paper line, with the direction the browser lays it out in. */
const DIRECTIONS = `[...document.querySelectorAll('#results h3, #results .snippet, #results .paper-line')]
  .map((node) => [node.textContent, node.matches(':dir(rtl)') ? 'rtl' : 'ltr', getComputedStyle(node).direction])`;

describe.skipIf(!browserTestsRun())('the search page lays out right-to-left results right to left', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/searxng/search', {
      results: [
        { title: HEBREW_TITLE, url: 'https://he.example/search', content: HEBREW_SNIPPET },
        { title: 'Federated search', url: 'https://en.example/search', content: 'Many sources at once.' },
      ],
    });
    upstream.json('/semanticscholar/graph/v1/paper/search', {
      total: 1,
      data: [{ paperId: 'p1', title: 'البحث الموحد', authors: [{ name: ARABIC_AUTHOR }], year: 2021, url: 'https://papers.example/p1', abstract: 'Fusing lists.' }],
    });
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('gives a Hebrew title and snippet their own direction, and leaves English ones left to right', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=federated&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.evaluate(DIRECTIONS)).toEqual([
      [HEBREW_TITLE, 'rtl', 'rtl'],
      [HEBREW_SNIPPET, 'rtl', 'rtl'],
      ['Federated search', 'ltr', 'ltr'],
      ['Many sources at once.', 'ltr', 'ltr'],
    ]);
    // The page around the results stays left to right.
    expect(await page.evaluate('getComputedStyle(document.querySelector("#results .meta")).direction')).toBe('ltr');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('gives a paper by an Arabic-named author a right-to-left line of authors and year', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=federated&kind=papers&providers=semanticscholar`);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.evaluate(DIRECTIONS)).toEqual([
      ['البحث الموحد', 'rtl', 'rtl'],
      [`${ARABIC_AUTHOR} · 2021`, 'rtl', 'rtl'],
      ['Fusing lists.', 'ltr', 'ltr'],
    ]);
    await page.close();
  });
});
