import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { contrast } from './contrast.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');

/** The focused element, as `tag href` (or its id): what a keyboard user is on. */
const FOCUSED = "document.activeElement.tagName + ' ' + (document.activeElement.getAttribute('href') ?? document.activeElement.id)";

/** The focused element's outline (style and colour) and the page's background colour behind it. */
const focusRing = (page: Page): Promise<{ style: string; ring: string; background: string }> =>
  page.evaluate(
    "({ style: getComputedStyle(document.activeElement).outlineStyle, ring: getComputedStyle(document.activeElement).outlineColor, background: getComputedStyle(document.body).backgroundColor })",
  );

describe.skipIf(!browserTestsRun())('the search page keeps keyboard focus', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;
  /** Exa's answers, held until the test lets them go. */
  const heldExa: ServerResponse[] = [];
  let exaAsked: () => void = () => undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', fixture('brave/web-search.json'));
    upstream.on('/exa/search', {
      kind: 'handler',
      handle: (_request, response) => {
        heldExa.push(response);
        exaAsked();
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-focus-key-0123456789', EXA_API_KEY: 'exa-focus-key-0123456789', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    for (const response of heldExa) response.destroy();
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('on a result while later providers answer: the results it did not change keep their place and focus', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const asked = new Promise<void>((resolve) => (exaAsked = resolve));
    // A deadline far off: exa answers when the test lets it, not when time runs out.
    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave,exa&timeout_ms=30000`);
    await asked;
    const kept = page.locator('#results a[href="https://en.example.com/wiki/Federated_search"]');
    await kept.waitFor();
    await kept.focus();
    expect(await page.evaluate(FOCUSED)).toBe('A https://en.example.com/wiki/Federated_search');

    // Exa's results join the list (one merges with Brave's first), then the search is done.
    heldExa[0]!.writeHead(200, { 'content-type': 'application/json' }).end(fixture('exa/search.json'));
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#results a[href="https://blog.example.net/metasearch"]').count()).toBe(1);
    expect(await page.evaluate(FOCUSED)).toBe('A https://en.example.com/wiki/Federated_search');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('outlines the form fields in a colour that stands out from the page (3:1), in light and dark mode', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/`);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const selector of ['#q', '#timeout', '#filter-time-range', '#filter-language']) {
        const { outline, background } = (await page.evaluate(
          `({ outline: getComputedStyle(document.querySelector('${selector}')).borderTopColor, background: getComputedStyle(document.body).backgroundColor })`,
        )) as { outline: string; background: string };
        expect(contrast(outline, background), `${colorScheme}: ${selector}`).toBeGreaterThanOrEqual(3);
      }
    }
    await page.close();
  });

  it('rings what has focus in a colour that stands out from the page (3:1), in light and dark mode', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave`);
    await page.locator('#status[data-kind="done"]').waitFor();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      // From the search box, by keyboard: the box, the Search button, then a result's link.
      await page.locator('#q').focus();
      const seen: number[] = [];
      for (const step of ['search box', 'Search button']) {
        const { style, ring, background } = await focusRing(page);
        expect(style, `${colorScheme}: ${step}`).toBe('solid');
        seen.push(contrast(ring, background));
        await page.keyboard.press('Tab');
      }
      await page.locator('#results a').first().focus();
      const { style, ring, background } = await focusRing(page);
      expect(style, `${colorScheme}: a result`).toBe('solid');
      seen.push(contrast(ring, background));
      for (const ratio of seen) expect(ratio, colorScheme).toBeGreaterThanOrEqual(3);
    }
    await page.close();
  });
});

describe.skipIf(!browserTestsRun())('the search page keeps keyboard focus behind API keys', () => {
  let service: RunningService;
  let chromium: LaunchedBrowser;
  const key = 'focus-client-key-0123456789';

  beforeAll(async () => {
    service = await startService({ API_KEYS: key, LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
  });

  it('goes on from the search box once the key is taken, not from the top of the page', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=provider&providers=local`);
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(FOCUSED)).toBe('INPUT api-key');
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#key-form').isHidden()).toBe(true);
    expect(await page.evaluate(FOCUSED)).toBe('INPUT q');
    await page.close();
  });
});
