import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

/** A provider's result written to run script wherever it is taken for HTML: entity-escaped, the service decodes it to markup. */
const MARKUP = '<img src=x onerror=alert(1)>';

/**
 * Addresses no result link may take, each written as a provider slipping past the service's own check could: the
 * page must refuse anything but http(s) by itself. The URL parser drops leading spaces and control characters and
 * tabs or newlines anywhere, and ignores the scheme's letter case; `//` and `/` are relative to the page itself.
 */
const NOT_HTTP = [
  'javascript:window.__pwned=1',
  ' JaVaScRiPt:window.__pwned=1',
  '\u0001javascript:window.__pwned=1',
  'java\tscript:window.__pwned=1',
  'data:text/html,<script>window.__pwned=1</script>',
  'vbscript:msgbox(1)',
  '//evil.example/x',
  '/v1/providers',
];

/**
 * The providers answer these placeholders (the service drops the addresses themselves); the stream is rewritten on its
 * way to the page to carry the addresses in their place.
 */
const placeholder = (index: number): string => `https://not-http-${index}.example/`;
const notHttpFor = (text: string): string => NOT_HTTP[Number(/^https:\/\/not-http-(\d+)\.example\/$/.exec(text)?.[1] ?? -1)] ?? text;

/** A JSON value with each of its strings passed through `change`. */
function changeStrings(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((item) => changeStrings(item, change));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, changeStrings(item, change)]));
}

type StreamEvent = { event: string; data: unknown };

/** Rewrites each event of the service's stream as it reaches the page (its comments pass as they are). */
async function rewriteStream(page: Page, change: (event: StreamEvent) => StreamEvent): Promise<void> {
  await page.route('**/v1/search/*/stream?**', async (route) => {
    const response = await route.fetch();
    const blocks = (await response.text()).split('\n\n').map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event === undefined || data === undefined) return block;
      const changed = change({ event, data: JSON.parse(data) as unknown });
      return `event: ${changed.event}\ndata: ${JSON.stringify(changed.data)}`;
    });
    await route.fulfill({ response, body: blocks.join('\n\n') });
  });
}

/** Whether any of the payloads ran: each sets window.__pwned. */
const pwned = (page: Page): Promise<unknown> => page.evaluate('window.__pwned');

describe.skipIf(!browserTestsRun())('the search page shows hostile provider data as text', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/searxng/search', {
      results: [
        { title: '&lt;img src=x onerror=alert(1)&gt;', url: 'https://markup.example/a', content: '&lt;script&gt;alert(2)&lt;/script&gt;' },
        { title: 'Second result', url: 'https://second.example/b', content: 'A plain one.' },
      ],
    });
    upstream.json('/hackernews/api/v1/search', {
      hits: [
        ...NOT_HTTP.map((_, index) => ({ objectID: String(100 + index), title: `Address ${index}`, url: placeholder(index) })),
        { objectID: '200', title: 'Plain address', url: 'https://plain.example/' },
      ],
      nbPages: 1,
    });
    const paper = (id: number, title: string, landingPage: string, pdf: string) => ({
      id: `https://openalex.org/W${id}`,
      display_name: title,
      primary_location: { landing_page_url: landingPage },
      best_oa_location: { is_oa: true, pdf_url: pdf },
    });
    upstream.json('/openalex/works', {
      results: [
        ...NOT_HTTP.map((_, index) => paper(100 + index, `Paper ${index}`, `https://paper-${index}.example/`, placeholder(index))),
        paper(200, 'Plain paper', 'https://plain-paper.example/', 'https://plain-paper.example/paper.pdf'),
      ],
    });
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('is under Trusted Types: HTML written from a string is refused by the browser, not parsed', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=hostile&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();
    // What an injected script (or a future slip in the page's own code) would try: each is a TypeError under the policy.
    const outcomes = await page.evaluate(`[
      () => { document.createElement('div').innerHTML = '<img src=x onerror="window.__pwned=1">'; },
      () => document.body.insertAdjacentHTML('beforeend', '<b>x</b>'),
      () => { document.createElement('script').src = 'data:text/javascript,window.__pwned=1'; },
    ].map((attempt) => {
      try {
        attempt();
        return 'allowed';
      } catch (error) {
        return error.name;
      }
    })`);
    expect(outcomes).toEqual(['TypeError', 'TypeError', 'TypeError']);
    expect(await pwned(page)).toBeUndefined();
    await page.close();
  });

  it('writes markup out, runs none of it, and makes no javascript: link clickable', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    // The service drops a javascript: URL itself; put one in its stream, as a provider slipping past it would.
    await page.route('**/v1/search/web/stream?**', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replaceAll('https://second.example/b', 'javascript:alert(3)');
      await route.fulfill({ response, body });
    });
    await page.goto(`${service.origin}/?q=hostile&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();

    expect(await page.locator('#results .result h3').allTextContents()).toEqual([MARKUP, 'Second result']);
    expect(await page.locator('#results .snippet').first().textContent()).toBe('<script>alert(2)</script>');
    expect(await page.locator('#results img, #results script').count()).toBe(0);
    // The javascript: result is listed, its title plain text rather than a link.
    expect(await page.locator('#results a[href^="javascript:"]').count()).toBe(0);
    expect(await page.locator('#results .result h3 span.title', { hasText: 'Second result' }).count()).toBe(1);
    // Every link opens a new tab that cannot reach back into this one.
    const rels = await page.locator('#results a').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('rel')));
    expect(rels.length).toBeGreaterThan(0);
    for (const rel of rels) expect(rel).toContain('noopener');
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
  it('links only http(s) addresses, however the scheme is written, in a tab that cannot reach back', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await rewriteStream(page, ({ event, data }) => ({ event, data: changeStrings(data, notHttpFor) }));
    // The scheme of each result link as the browser resolved it (a string: the tests are compiled without the DOM's types).
    const resultLinks = () => page.evaluate<string[]>("[...document.querySelectorAll('#results a')].map((anchor) => anchor.protocol)");

    await page.goto(`${service.origin}/?q=addresses&providers=hackernews`);
    await page.locator('#status[data-kind="done"]').waitFor();
    for (const index of NOT_HTTP.keys()) {
      const heading = page.locator('#results .result h3').filter({ hasText: new RegExp(`^Address ${index}$`) });
      // Listed, its title plain text.
      expect(await heading.locator('span.title').count(), NOT_HTTP[index]).toBe(1);
      expect(await heading.locator('a').count(), NOT_HTTP[index]).toBe(0);
    }
    const plain = page.getByRole('link', { name: 'Plain address' });
    expect(await plain.getAttribute('href')).toBe('https://plain.example/');
    expect(await plain.getAttribute('target')).toBe('_blank');
    expect((await plain.getAttribute('rel'))?.split(' ').sort()).toEqual(['noopener', 'noreferrer']);
    expect(new Set(await resultLinks())).toEqual(new Set(['https:']));

    // A paper's PDF link takes its address from the provider too.
    await page.goto(`${service.origin}/?q=addresses&kind=papers&providers=openalex`);
    await page.locator('#status[data-kind="done"]').waitFor();
    for (const index of NOT_HTTP.keys()) {
      const item = page.locator('#results .result').filter({ has: page.getByRole('link', { name: `Paper ${index}`, exact: true }) });
      expect(await item.count(), NOT_HTTP[index]).toBe(1);
      expect(await item.getByRole('link', { name: /^PDF/ }).count(), NOT_HTTP[index]).toBe(0);
    }
    expect(await page.getByRole('link', { name: 'PDF of Plain paper' }).getAttribute('href')).toBe('https://plain-paper.example/paper.pdf');
    expect(new Set(await resultLinks())).toEqual(new Set(['https:']));

    expect(await pwned(page)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("writes a provider's error message and the stream's error out as text", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const payload = '<img src=x onerror=window.__pwned=1>';
    // Every outcome's message as a hostile provider could word it, and the answer replaced by the stream's error event.
    await rewriteStream(page, ({ event, data }) => {
      if (event === 'provider') return { event, data: { ...(data as object), message: payload } };
      if (event === 'done') return { event: 'error', data: { statusCode: 502, error: 'Bad Gateway', code: 'UPSTREAM_ERROR', message: payload, request_id: 'r1' } };
      return { event, data };
    });
    // wikipedia has no route in the fake upstream: it fails, and its row says why.
    await page.goto(`${service.origin}/?q=hostile&providers=searxng,wikipedia`);
    await page.locator('#status[data-kind="error"]').waitFor();

    expect(await page.locator('#status').textContent()).toBe(payload);
    const failed = page.locator('#waterfall .waterfall-row[data-provider="wikipedia"]');
    expect(await failed.getAttribute('data-status')).toBe('error');
    expect(await failed.locator('.outcome-message').textContent()).toBe(payload);
    expect(await failed.locator('.outcome').getAttribute('title')).toBe(payload);
    expect(await page.locator('body img, body svg').count()).toBe(0);
    expect(await pwned(page)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  });
});
