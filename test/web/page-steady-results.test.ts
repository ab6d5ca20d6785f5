import type { ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { accessibleTextOf } from './accessibility-tree.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { contrast } from './contrast.js';
import { watchForProblems } from './page-problems.js';

const FIRST = 'https://first.example/';
const SECOND = 'https://second.example/';
const THIRD = 'https://third.example/';
const LATE = 'https://late.example/';

/** Brave answers at once with three results; exa, later, with Brave's third (which then ranks first) and one of its own. */
const BRAVE = { web: { results: [FIRST, SECOND, THIRD].map((url) => ({ title: `Page at ${url}`, url, description: 'A result.' })) } };
/** The late result's title is Hebrew: added at the end, it is laid out right to left as any result is. */
const LATE_TITLE = 'חיפוש מאוחד: תוצאה מאוחרת';
const EXA = { results: [THIRD, LATE].map((url) => ({ title: url === LATE ? LATE_TITLE : `Page at ${url}`, url, text: 'A result.' })) };

/** SearXNG's twelve results, on every page it is asked for: more than the page of ten the search shows. */
const SEARXNG = { results: Array.from({ length: 12 }, (_, index) => ({ title: `Result ${index + 1}`, url: `https://searxng.example/${index + 1}`, content: 'A result.' })) };
/** Exa's two, both new: they take places on page 1, and push SearXNG's ninth and tenth to page 2. */
const EXA_NEW = { results: ['https://late.example/1', 'https://late.example/2'].map((url) => ({ title: `Page at ${url}`, url, text: 'A result.' })) };

/** The results' title links, top to bottom. */
const shownLinks = (page: Page): Promise<string[]> => page.locator('#results .result h3 a').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));

/** Marks the element it is given, to tell later whether the page still shows that very element. */
const MARK = (link: unknown): void => void ((globalThis as unknown as { markedLink: unknown }).markedLink = link);

/** The link under the pointer at (x, y), whether it is the element marked before, and where that element is now. */
const UNDER_POINTER = `(([x, y]) => {
  const link = document.elementFromPoint(x, y)?.closest('a');
  return { href: link?.getAttribute('href'), same: link === window.markedLink, top: window.markedLink.getBoundingClientRect().top };
})`;

describe.skipIf(!browserTestsRun())('the search page keeps shown results in place while later providers answer', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;
  /** Exa's answers, held until the test lets them go: each test's exa answers later than Brave, when the test says. */
  const heldExa: ServerResponse[] = [];
  let exaAsked: () => void = () => undefined;
  /** Set, exa answers this at once rather than wait for the test: the next page asks it again. */
  let exaAtOnce: object | undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', JSON.stringify(BRAVE));
    upstream.json('/searxng/search', JSON.stringify(SEARXNG));
    upstream.on('/exa/search', {
      kind: 'handler',
      handle: (_request, response) => {
        if (exaAtOnce) return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(exaAtOnce));
        heldExa.push(response);
        exaAsked();
      },
    });
    // No kept answers: every test's search asks both providers, exa after Brave.
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-steady-key-0123456789',
      EXA_API_KEY: 'exa-steady-key-0123456789',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'warn',
    });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    for (const response of heldExa) response.destroy();
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  /** Opens a search of both providers and waits until Brave's results are shown and exa has been asked. */
  async function searchWithExaHeld(page: Page, query: string, first = 'brave'): Promise<ServerResponse> {
    exaAtOnce = undefined;
    const asked = new Promise<void>((resolve) => (exaAsked = resolve));
    // A deadline far off: exa answers when the test lets it, not when time runs out.
    await page.goto(`${service.origin}/?q=${query}&providers=${first},exa&timeout_ms=30000`);
    await asked;
    if (first !== 'brave') return heldExa.at(-1)!;
    await page.locator(`#results a[href="${THIRD}"]`).waitFor();
    expect(await shownLinks(page)).toEqual([FIRST, SECOND, THIRD]);
    return heldExa.at(-1)!;
  }

  const answerExa = (response: ServerResponse, body: object = EXA): void => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  it('under the pointer: the result pointed at stays, with its link, and the late result joins at the end', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const exa = await searchWithExaHeld(page, 'pointer');
    const first = page.locator(`#results a[href="${FIRST}"]`);
    await first.hover();
    const box = (await first.boundingBox())!;
    const point = [box.x + box.width / 2, box.y + box.height / 2];
    await first.evaluate(MARK);
    const before = await page.evaluate(`${UNDER_POINTER}(${JSON.stringify(point)})`);
    expect(before).toMatchObject({ href: FIRST, same: true });

    answerExa(exa);
    await page.locator('#status[data-kind="done"]').waitFor();
    // Re-ranked in place, exa's vote put THIRD where the pointer is: a click there opened another page.
    expect(await page.evaluate(`${UNDER_POINTER}(${JSON.stringify(point)})`)).toEqual(before);
    expect(await shownLinks(page)).toEqual([FIRST, SECOND, THIRD, LATE]);
    // The late result is there to reach, and the status line (a polite live region) says how to get the ranked order.
    expect(await page.locator(`#results a[href="${LATE}"]`).isVisible()).toBe(true);
    expect(await page.locator('#results .result h3').last().evaluate((heading) => [heading.textContent, heading.matches(':dir(rtl)')])).toEqual([LATE_TITLE, true]);
    expect(await page.locator('#status').textContent()).toMatch(/^4 results in \d+ ms\. 1 result came late and is at the end of the list; Sort by rank puts it in ranked order\.$/);

    // Asked for, the ranked order comes: the result both providers found first, the control gone.
    await page.getByRole('button', { name: 'Sort by rank' }).click();
    expect((await shownLinks(page))[0]).toBe(THIRD);
    expect((await shownLinks(page)).sort()).toEqual([FIRST, LATE, SECOND, THIRD]);
    expect(await page.locator('#sort-results').isHidden()).toBe(true);
    // Said on the status line: it still named the control just pressed, and a screen reader heard nothing of the new order.
    expect(await page.locator('#status').textContent()).toMatch(/^4 results in \d+ ms\. The list is now in ranked order\.$/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('with keyboard focus on a result: focus and place stay, the ranked order comes once focus leaves the results', async () => {
    const page = await chromium.context.newPage();
    const exa = await searchWithExaHeld(page, 'keyboard');
    const second = page.locator(`#results a[href="${SECOND}"]`);
    await second.focus();
    const top = await second.evaluate((link) => link.getBoundingClientRect().top);
    await second.evaluate(MARK);

    answerExa(exa);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.evaluate('document.activeElement === window.markedLink')).toBe(true);
    expect(await second.evaluate((link) => link.getBoundingClientRect().top)).toBe(top);
    expect(await shownLinks(page)).toEqual([FIRST, SECOND, THIRD, LATE]);
    // Tab goes on through the list as shown, to the late result at its end.
    await page.locator(`#results a[href="${THIRD}"]`).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate("document.activeElement.getAttribute('href')")).toBe(LATE);

    // Back to the search box: nobody is on the results, and they take their ranked order.
    await page.locator('#q').focus();
    expect((await shownLinks(page))[0]).toBe(THIRD);
    expect(await page.locator('#sort-results').isHidden()).toBe(true);
    expect(await page.locator('#status').textContent()).toMatch(/^4 results in \d+ ms\. The list is now in ranked order\.$/);
    await page.close();
  });

  it('sorted from the keyboard: focus goes to the Results heading, not to the top of the page', async () => {
    const page = await chromium.context.newPage();
    const exa = await searchWithExaHeld(page, 'sorted');
    await page.locator(`#results a[href="${FIRST}"]`).focus();
    answerExa(exa);
    await page.locator('#status[data-kind="done"]').waitFor();
    const sort = page.locator('#sort-results');
    // The control is the Tab stop before the list: from the first result, Shift+Tab reaches it.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('sort-results');
    await page.keyboard.press('Enter');
    expect(await sort.isHidden()).toBe(true);
    expect(await page.evaluate('document.activeElement.id')).toBe('results-title');
    expect((await shownLinks(page))[0]).toBe(THIRD);
    // Focus on the heading reads "Results"; the polite status line says what changed under it.
    expect(await page.getByRole('status').textContent()).toMatch(/The list is now in ranked order\.$/);
    await page.close();
  });

  it('nobody on the results: the final answer shows in its ranked order at once, with no control', async () => {
    const page = await chromium.context.newPage();
    const exa = await searchWithExaHeld(page, 'away');
    answerExa(exa);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect((await shownLinks(page))[0]).toBe(THIRD);
    expect((await shownLinks(page)).sort()).toEqual([FIRST, LATE, SECOND, THIRD]);
    expect(await page.locator('#sort-results').isHidden()).toBe(true);
    expect(await page.locator('#status').textContent()).not.toMatch(/Sort by rank/);
    await page.close();
  });

  it('pages on from the ranked order: results held past page 1 come with page 2, none twice', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const exa = await searchWithExaHeld(page, 'paged', 'searxng');
    const firstShown = page.locator('#results a[href="https://searxng.example/1"]');
    await firstShown.hover();
    exaAtOnce = EXA_NEW;
    answerExa(exa, EXA_NEW);
    await page.locator('#status[data-kind="done"]').waitFor();
    // Held while the pointer is on them: SearXNG's ten as they came, exa's two after them.
    expect(await shownLinks(page)).toHaveLength(12);
    // Scrolled down to the end of the list, the control that sorts it is still in sight.
    await page.locator('#results .result').last().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 2000);
    await expect.poll(() => page.evaluate('scrollY > 0')).toBe(true);
    expect(await page.locator('#sort-results').evaluate((button) => button.getBoundingClientRect().top >= 0)).toBe(true);
    expect(await page.locator('#sort-results').isVisible()).toBe(true);
    expect((await shownLinks(page)).slice(-2)).toEqual(EXA_NEW.results.map((result) => result.url));

    await page.locator('#more-results').click();
    await page.locator('#status[data-kind="done"]', { hasText: 'page 2,' }).waitFor();
    const links = await shownLinks(page);
    expect(new Set(links).size).toBe(links.length);
    expect(links.toSorted()).toEqual([...SEARXNG.results, ...EXA_NEW.results].map((result) => result.url).toSorted());
    // Page 1 took its ranked order before page 2 went below it: exa's two are among its ten, no longer at its end.
    expect(links.slice(0, 10)).toEqual(expect.arrayContaining(EXA_NEW.results.map((result) => result.url)));
    expect(await page.locator('#sort-results').isHidden()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('on the narrowest phone, with the order held: the bar fits, moves no result, and leaves no result tabbed to under it', async () => {
    const page = await chromium.context.newPage();
    // 320 CSS px, as page-narrow.test.ts: there the note and the control only just fit side by side.
    await page.setViewportSize({ width: 320, height: 640 });
    const problems = await watchForProblems(page);
    const exa = await searchWithExaHeld(page, 'phone', 'searxng');
    const first = page.locator('#results a[href="https://searxng.example/1"]');
    await first.focus();
    const top = await first.evaluate((link) => link.getBoundingClientRect().top);
    answerExa(exa, EXA_NEW);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#sort-results').isVisible()).toBe(true);
    // The control came without pushing the results, widening the page or covering the note beside it.
    expect(await first.evaluate((link) => link.getBoundingClientRect().top)).toBe(top);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
    const note = (await page.locator('#new-tab-note').boundingBox())!;
    const sort = (await page.locator('#sort-results').boundingBox())!;
    expect(note.x + note.width <= sort.x || sort.y >= note.y + note.height).toBe(true);

    // Reading down the list, then back up with Shift+Tab to a result near the top of the window, under the sticky bar.
    await page.locator('#results a[href="https://searxng.example/4"]').focus();
    const target = page.locator('#results a[href="https://searxng.example/3"]');
    const linkTop = await target.evaluate((link) => link.getBoundingClientRect().top);
    await page.mouse.wheel(0, linkTop - 5);
    await expect.poll(() => target.evaluate((link) => Math.round(link.getBoundingClientRect().top))).toBe(5);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate("document.activeElement.getAttribute('href')")).toBe('https://searxng.example/3');
    const barBottom = await page.locator('.results-bar').evaluate((bar) => bar.getBoundingClientRect().bottom);
    // Seen, not covered: the point at the link's middle hits the link itself, not the bar over it.
    const shown: { top: number; onTop: boolean } = await page.evaluate(`(() => {
      const link = document.activeElement;
      const box = link.getBoundingClientRect();
      return { top: box.top, onTop: link.contains(document.elementFromPoint(box.left + 5, box.top + box.height / 2)) };
    })()`);
    expect(shown.top).toBeGreaterThanOrEqual(barBottom);
    expect(shown.onTop).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows "Sort by rank" readable and ringed in light and dark mode: text and border 4.5:1, focus ring 3:1', async () => {
    const page = await chromium.context.newPage();
    const exa = await searchWithExaHeld(page, 'colours');
    await page.locator(`#results a[href="${FIRST}"]`).focus();
    answerExa(exa);
    await page.locator('#status[data-kind="done"]').waitFor();
    // From the first result, Shift+Tab: on the control by keyboard, so its ring is the one a keyboard user sees.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('sort-results');
    expect(await accessibleTextOf(page, '#sort-results')).toEqual([{ name: 'Sort by rank', description: '' }]);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const colours: Record<string, string> = await page.evaluate(`(() => {
        const button = getComputedStyle(document.getElementById('sort-results'));
        return { text: button.color, border: button.borderTopColor, background: button.backgroundColor, ring: button.outlineColor, ringStyle: button.outlineStyle,
          bar: getComputedStyle(document.querySelector('.results-bar')).backgroundColor, page: getComputedStyle(document.body).backgroundColor };
      })()`);
      // The bar is see-through until it sticks: the page's colour is behind the ring then.
      const behind = colours.bar === 'rgba(0, 0, 0, 0)' ? colours.page! : colours.bar!;
      expect(contrast(colours.text!, colours.background!), `${colorScheme}: text`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(colours.border!, behind), `${colorScheme}: border`).toBeGreaterThanOrEqual(4.5);
      expect(colours.ringStyle, colorScheme).toBe('solid');
      expect(contrast(colours.ring!, behind), `${colorScheme}: focus ring`).toBeGreaterThanOrEqual(3);
    }
    await page.close();
  });

  it('a new search while the order is held: no control, no held results, no words about them', async () => {
    const page = await chromium.context.newPage();
    const exa = await searchWithExaHeld(page, 'held');
    await page.locator(`#results a[href="${FIRST}"]`).hover();
    answerExa(exa);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#sort-results').isVisible()).toBe(true);

    // The pointer stays on the results while the next search starts (Enter in the search box).
    const asked = new Promise<void>((resolve) => (exaAsked = resolve));
    await page.evaluate("document.getElementById('q').value = 'again'; document.getElementById('search-form').requestSubmit()");
    await asked;
    await page.locator('#status', { hasText: 'results so far' }).waitFor();
    expect(await shownLinks(page)).toEqual([FIRST, SECOND, THIRD]);
    expect(await page.locator('#sort-results').isHidden()).toBe(true);
    expect(await page.locator('#status').textContent()).not.toMatch(/late|ranked order/);
    await page.close();
  });
});
