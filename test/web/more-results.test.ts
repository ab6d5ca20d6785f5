import type { ServerResponse } from 'node:http';
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

/** How many results the fake SearXNG holds on each of its pages (pageno 1, 2, …), by query. */
const PAGES: Readonly<Record<string, number[]>> = {
  'paged topic': [10, 10, 3],
  'other topic': [10, 4],
  'few topic': [3],
  // A full first page and nothing after it: the answer says more may follow, and page 2 finds none.
  'full topic': [10],
};

/** `paged topic 1`, `paged topic 2`, …: the titles of a query's results from `first` to `last`, as SearXNG lists them. */
function titles(query: string, first: number, last: number): string[] {
  return Array.from({ length: last - first + 1 }, (_, index) => `${query} ${first + index}`);
}

/** A SearXNG whose pages follow PAGES, each result's URL and title numbered across its pages. */
function pagedSearxng(request: RecordedRequest, response: ServerResponse): void {
  const query = request.url.searchParams.get('q') ?? '';
  const sizes = PAGES[query] ?? [];
  const pageno = Number(request.url.searchParams.get('pageno') ?? '1');
  const before = sizes.slice(0, pageno - 1).reduce((sum, size) => sum + size, 0);
  const results = titles(query, before + 1, before + (sizes[pageno - 1] ?? 0)).map((title, index) => ({
    title,
    url: `https://${query.replace(' ', '-')}.example/${before + index + 1}`,
    content: `One of the results for ${query}.`,
  }));
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
}

/** The JSON search route asked for one page (the stream is page 1's). */
const nextPageRoute = (page: number) => (url: URL) => url.pathname === '/v1/search/web' && url.searchParams.get('page') === String(page);

const resultTitles = (page: Page): Promise<string[]> => page.locator('#results .result h3').allTextContents();

/** The status line once the page number `number` is on the page. */
const pageShown = (page: Page, number: number) => page.locator('#status[data-kind="done"]', { hasText: `page ${number},` }).waitFor();

describe.skipIf(!browserTestsRun())('the search page: more results', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/searxng/search', { kind: 'handler', handle: pagedSearxng });
    // No answer is kept: every page asks SearXNG again, as a page the cache no longer holds does.
    service = await startService({ ...providerEnv(upstream.origin), CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('offers the next page while the answer says there is one, adds it below from the keyboard, and goes when there is none', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=paged+topic&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await resultTitles(page)).toEqual(titles('paged topic', 1, 10));
    const more = page.locator('#more-results');
    expect(await more.isVisible()).toBe(true);
    expect(await more.textContent()).toBe('More results');

    // From the last result's link, Tab reaches the control, which shows where the focus is.
    await page.locator('#results .result a').last().focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('more-results');
    expect(await page.evaluate("getComputedStyle(document.activeElement).outlineStyle")).toBe('solid');
    await page.keyboard.press('Enter');
    await pageShown(page, 2);
    expect(await resultTitles(page)).toEqual(titles('paged topic', 1, 20));
    // Focus moves on to the first new result, where reading carries on.
    expect(await page.evaluate('document.activeElement.textContent')).toBe('paged topic 11');
    expect(await more.isVisible()).toBe(true);
    expect(await page.locator('#waterfall-summary').textContent()).toBe('page 2: 1 of 1 answered');

    await more.click();
    await pageShown(page, 3);
    expect(await resultTitles(page)).toEqual(titles('paged topic', 1, 23));
    expect(await page.locator('#status').textContent()).toMatch(/^3 more results \(page 3, 23 in all\)/);
    // Page 3 says nothing follows it: no control to press for nothing.
    expect(await more.isHidden()).toBe(true);
    // The address bar is the search, not how far it was read: a reload starts from page 1 again.
    expect(new URL(page.url()).searchParams.has('page')).toBe(false);
    await page.reload();
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await resultTitles(page)).toEqual(titles('paged topic', 1, 10));
    expect(await more.isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps the keyboard on the results when the next page adds none and the control goes', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=full+topic&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const more = page.locator('#more-results');
    await more.focus();
    await page.keyboard.press('Enter');
    await pageShown(page, 2);
    expect(await page.locator('#status').textContent()).toMatch(/^No more results \(page 2, 10 in all\)/);
    expect(await more.isHidden()).toBe(true);
    // Not dropped to the top of the page with the control: on the last result, where reading stopped.
    expect(await page.evaluate('document.activeElement.textContent')).toBe('full topic 10');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows why the next page failed (the service\'s message, a lost connection) and lets it be asked again, busy meanwhile', async () => {
    const page = await chromium.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const attempts: string[] = [];
    await page.route(nextPageRoute(2), async (route: Route) => {
      attempts.push(route.request().url());
      if (attempts.length === 1) {
        await held;
        // The service's own words for a load it turns away (protection.ts), as its error handler shapes them.
        return route.fulfill({
          status: 503,
          json: { statusCode: 503, error: 'Service Unavailable', code: 'OVERLOADED', message: 'the service is overloaded (its event loop delay is past its limit) and turns requests away for now; retry after 10 s' },
        });
      }
      if (attempts.length === 2) return route.abort('internetdisconnected');
      // The service's page 2 with page 1's first result in it again: the page must not show that one twice.
      const response = await route.fetch();
      const answer = (await response.json()) as { results: { url: string; title: string }[] };
      answer.results.unshift({ ...answer.results[0]!, url: 'https://paged-topic.example/1', title: 'paged topic 1' });
      return route.fulfill({ response, json: answer });
    });
    await page.goto(`${service.origin}/?q=paged+topic&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const more = page.locator('#more-results');

    await more.click();
    // Busy while the page is on its way: it says so, and a second press asks nothing more.
    await expect.poll(() => attempts.length).toBe(1);
    expect(await more.textContent()).toBe('Loading more results…');
    expect(await more.getAttribute('aria-disabled')).toBe('true');
    expect(await page.locator('#results').getAttribute('aria-busy')).toBe('true');
    // force: Playwright waits for an aria-disabled control to be enabled; a user's press does not.
    await more.click({ force: true });
    release();
    const status = page.locator('#status[data-kind="error"]');
    await status.waitFor();
    expect(await status.textContent()).toMatch(/^the service is overloaded .*retry after 10 s$/);
    expect(attempts).toHaveLength(1);
    expect(await more.textContent()).toBe('More results');
    expect(await more.getAttribute('aria-disabled')).toBeNull();
    expect(await page.locator('#results').getAttribute('aria-busy')).toBeNull();
    expect(await page.locator('#results .result').count()).toBe(10);

    await more.click();
    await page.locator('#status[data-kind="error"]', { hasText: 'The next results could not be loaded' }).waitFor();
    expect(attempts).toHaveLength(2);
    expect(await more.isEnabled()).toBe(true);
    expect(await more.textContent()).toBe('More results');

    await more.click();
    await pageShown(page, 2);
    expect(await resultTitles(page)).toEqual(titles('paged topic', 1, 20));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says there are no more results when the next page comes back empty though the answer before said more may follow', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    // What a kept answer can give: a page sliced from a list that ended with the page before, still saying has_more.
    await page.route(nextPageRoute(2), async (route: Route) => {
      const response = await route.fetch();
      return route.fulfill({ response, json: { ...((await response.json()) as object), results: [], has_more: true } });
    });
    await page.goto(`${service.origin}/?q=paged+topic&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const more = page.locator('#more-results');
    await more.click();
    await pageShown(page, 2);
    expect(await page.locator('#status').textContent()).toMatch(/^No more results \(page 2, 10 in all\)/);
    // Pressing again would only ask for another empty page.
    expect(await more.isHidden()).toBe(true);
    expect(await resultTitles(page)).toEqual(titles('paged topic', 1, 10));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('stops a next page on its way on Escape or Stop, keeps what was shown, and lets it be asked again', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let attempts = 0;
    const abandoned: string[] = [];
    page.on('requestfailed', (request) => {
      if (nextPageRoute(2)(new URL(request.url()))) abandoned.push(request.url());
    });
    // The first two asks for page 2 wait (a slow deeper gather); the third goes through.
    await page.route(nextPageRoute(2), async (route: Route) => {
      attempts += 1;
      if (attempts <= 2) await held;
      await route.continue().catch(() => undefined);
    });
    await page.goto(`${service.origin}/?q=paged+topic&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const more = page.locator('#more-results');
    const stop = page.getByRole('button', { name: 'Stop' });
    const status = page.locator('#status');
    const stopped = 'Stopped loading page 2: the 10 results shown stay. Press More results to try again.';
    // The search has its answer: nothing to stop.
    expect(await stop.count()).toBe(0);

    await more.click();
    await expect.poll(() => attempts).toBe(1);
    expect(await more.textContent()).toBe('Loading more results…');
    await stop.waitFor();
    await page.keyboard.press('Escape');
    expect(await status.getAttribute('data-kind')).toBe('stopped');
    expect(await status.textContent()).toBe(stopped);
    expect(await page.getByRole('status').textContent()).toBe(stopped);
    // The request is let go, the control is ready again, and nothing is busy or stoppable.
    await expect.poll(() => abandoned.length).toBe(1);
    expect(await more.textContent()).toBe('More results');
    expect(await more.getAttribute('aria-disabled')).toBeNull();
    expect(await page.locator('#results').getAttribute('aria-busy')).toBeNull();
    expect(await stop.count()).toBe(0);
    expect(await resultTitles(page)).toEqual(titles('paged topic', 1, 10));

    // The Stop button does the same.
    await more.click();
    await expect.poll(() => attempts).toBe(2);
    await stop.click();
    expect(await status.textContent()).toBe(stopped);
    await expect.poll(() => abandoned.length).toBe(2);
    expect(await stop.count()).toBe(0);
    expect(await more.textContent()).toBe('More results');

    // Asked again, the page comes.
    release();
    await more.click();
    await pageShown(page, 2);
    expect(await resultTitles(page)).toEqual(titles('paged topic', 1, 20));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('starts paging again with a new search: no results of the old one, even from a page still on its way', async () => {
    const page = await chromium.context.newPage();
    // Phone-sized and dark, as the rest of the page is tested: the control must fit the screen too.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=paged+topic&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const more = page.locator('#more-results');
    await more.click();
    await pageShown(page, 2);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect((await more.boundingBox())!.width).toBeLessThanOrEqual(390);

    // Page 3 is held on its way while a new search starts: it is abandoned, and none of it reaches the page.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const abandoned = new Promise<Request>((resolve) => page.on('requestfailed', (request) => nextPageRoute(3)(new URL(request.url())) && resolve(request)));
    await page.route(nextPageRoute(3), async (route: Route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    await more.click();
    await expect.poll(() => more.textContent()).toBe('Loading more results…');
    await page.getByLabel('Search query').fill('few topic');
    await page.getByLabel('Search query').press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
    await abandoned;
    release();
    expect(await resultTitles(page)).toEqual(titles('few topic', 1, 3));
    // Its answer says nothing follows: no control.
    expect(await more.isHidden()).toBe(true);

    // A search with more again starts from its page 2, not where the old one stopped.
    await page.getByLabel('Search query').fill('other topic');
    await page.getByLabel('Search query').press('Enter');
    await page.locator('#status[data-kind="done"]', { hasText: '10 results' }).waitFor();
    expect(await resultTitles(page)).toEqual(titles('other topic', 1, 10));
    expect(await more.textContent()).toBe('More results');
    await more.click();
    await pageShown(page, 2);
    expect(await resultTitles(page)).toEqual(titles('other topic', 1, 14));
    expect(await more.isHidden()).toBe(true);

    // Back: the search before, from its first page, with its control.
    await page.goBack();
    await expect.poll(() => page.locator('#q').inputValue()).toBe('few topic');
    await page.goBack();
    await expect.poll(() => resultTitles(page)).toEqual(titles('paged topic', 1, 10));
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await more.isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!browserTestsRun())('the search page: more results behind API keys', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;
  const key = 'more-results-key-0123456789';

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/searxng/search', { kind: 'handler', handle: pagedSearxng });
    service = await startService({ ...providerEnv(upstream.origin), API_KEYS: key, LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('sends the key with the next page as with the first, in a header and never in the URL', async () => {
    const page = await chromium.context.newPage();
    const sent: { url: string; authorization: string }[] = [];
    page.on('request', (request) => {
      if (nextPageRoute(2)(new URL(request.url()))) sent.push({ url: request.url(), authorization: request.headers().authorization ?? '' });
    });
    await page.goto(`${service.origin}/?q=paged+topic&providers=searxng`);
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
    await page.locator('#more-results').click();
    await pageShown(page, 2);
    expect(await resultTitles(page)).toEqual(titles('paged topic', 1, 20));
    expect(sent).toEqual([{ url: expect.not.stringContaining(key), authorization: `Bearer ${key}` }]);
    await page.close();
  });
});

/**
 * providers=auto, paged: the service chooses by the query and by which providers are available now (routing.ts), so a
 * next page asked of auto again may be of other providers than the page before (one suspended since), and another
 * fused list. The answer says whom it chose: the next pages ask them.
 */
describe.skipIf(!browserTestsRun())('the search page: more results of providers=auto', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;
  /** Whether the fake Hacker News fails (HTTP 500) rather than finds nothing. */
  let hackerNewsFails = false;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/searxng/search', { kind: 'handler', handle: pagedSearxng });
    upstream.on('/hackernews/api/v1/search', {
      kind: 'handler',
      handle: (_request, response) => {
        if (hackerNewsFails) return void response.writeHead(500, { 'content-type': 'text/plain' }).end('down');
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ hits: [] }));
      },
    });
    // One failure suspends a provider: auto then chooses without it.
    service = await startService({ ...providerEnv(upstream.origin), BREAKER_FAILURES: '1', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  /** Whom the service's own answer to providers=auto for the query chooses now. */
  async function autoChoice(): Promise<string[]> {
    const response = await request(service.origin, '/v1/search/web?q=paged+topic&providers=auto');
    expect(response.status).toBe(200);
    return ((await response.json()) as { routing: { providers: string[] } }).routing.providers;
  }

  const waterfallRows = (page: Page): Promise<string[]> =>
    page.locator('#waterfall .waterfall-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-provider') ?? '').sort());

  it('asks the providers the service chose for page 1 for the next page, though auto would now choose others', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const chosen = await autoChoice();
    expect(chosen).toEqual(expect.arrayContaining(['searxng', 'hackernews']));
    await page.goto(`${service.origin}/?q=paged+topic&providers=auto`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const firstPage = await resultTitles(page);
    expect(firstPage).toContain('paged topic 1');
    expect(await waterfallRows(page)).toEqual([...chosen].sort());

    // Hacker News fails once and is suspended: auto asked now chooses without it.
    hackerNewsFails = true;
    const failed = await request(service.origin, '/v1/search/web?q=another+topic&providers=hackernews');
    expect(((await failed.json()) as { providers: { status: string }[] }).providers[0]!.status).toBe('error');
    expect(await autoChoice()).not.toContain('hackernews');

    const next = page.waitForRequest((sent) => nextPageRoute(2)(new URL(sent.url())));
    await page.locator('#more-results').click();
    // Page 2 of the search shown: of the providers page 1 was, by name, as the service said it chose them.
    expect(new URL((await next).url()).searchParams.get('providers')).toBe(chosen.join(','));
    await pageShown(page, 2);
    // Below page 1, as it was shown, and with none of it again.
    const shown = await resultTitles(page);
    expect(shown.slice(0, firstPage.length)).toEqual(firstPage);
    expect(shown.length).toBeGreaterThan(firstPage.length);
    expect(new Set(shown).size).toBe(shown.length);
    expect(await waterfallRows(page)).toEqual([...chosen].sort());
    expect(problems).toEqual([]);
    await page.close();
  });
});
