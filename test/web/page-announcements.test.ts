import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');

const HACKERNEWS_URL = 'https://news.example/later';
/** One page of one hit: Hacker News is asked once, and its answer is the second of the three. */
const HACKERNEWS = { hits: [{ objectID: '1', title: 'A later answer', url: HACKERNEWS_URL }], nbPages: 1 };

/**
 * Records what a screen reader is given to read out: each new text of a live region (aria-live polite or assertive,
 * or a role that implies it: status, log, alert), in the order the page writes them.
 */
const RECORD_ANNOUNCEMENTS = `
  window.announced = [];
  const implied = { status: 'polite', log: 'polite', alert: 'assertive' };
  const last = new WeakMap();
  new MutationObserver(() => {
    for (const region of document.querySelectorAll('[aria-live], [role="status"], [role="log"], [role="alert"]')) {
      const politeness = region.getAttribute('aria-live') ?? implied[region.getAttribute('role')];
      const text = region.textContent.trim();
      if (politeness === 'off' || text === '' || last.get(region) === text) continue;
      last.set(region, text);
      window.announced.push(text);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });`;

const announced = (page: Page): Promise<string[]> => page.evaluate('window.announced') as Promise<string[]>;

describe.skipIf(!browserTestsRun())('the search page tells a screen reader what happened, once', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;
  /** Hacker News's and exa's answers, held until the test lets each go. */
  const held = new Map<string, ServerResponse>();
  let bothAsked: () => void = () => undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', fixture('brave/web-search.json'));
    for (const [provider, route] of [['hackernews', '/hackernews/api/v1/search'], ['exa', '/exa/search']] as const) {
      upstream.on(route, {
        kind: 'handler',
        handle: (_request, response) => {
          held.set(provider, response);
          if (held.size === 2) bothAsked();
        },
      });
    }
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-announce-key-0123456789',
      EXA_API_KEY: 'exa-announce-key-0123456789',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'warn',
    });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    for (const response of held.values()) response.destroy();
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('announces the search, its first results and its answer, not each provider that answers in between', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.addInitScript({ content: RECORD_ANNOUNCEMENTS });
    const asked = new Promise<void>((resolve) => (bothAsked = resolve));
    // A deadline far off: Hacker News and exa answer when the test lets them, one after the other, after Brave.
    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave,hackernews,exa&timeout_ms=30000`);
    await asked;
    await page.locator('#results .result').first().waitFor();

    held.get('hackernews')!.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(HACKERNEWS));
    await page.locator(`#results a[href="${HACKERNEWS_URL}"]`).waitFor();
    // The eye still sees the count grow, on the status line.
    expect(await page.locator('#status').textContent()).toMatch(/results so far \(2 of 3 providers\)…/);

    held.get('exa')!.writeHead(200, { 'content-type': 'application/json' }).end(fixture('exa/search.json'));
    await page.locator('#status[data-kind="done"]').waitFor();
    const said = await announced(page);
    expect(said).toHaveLength(3);
    expect(said[0]).toBe('Searching 3 providers…');
    expect(said[1]).toMatch(/^\d+ results so far \(1 of 3 providers\)…$/);
    expect(said[2]).toMatch(/^\d+ results in \d+ ms\./);
    // The answer read out is the one shown.
    expect(said[2]).toBe(await page.locator('#status').textContent());
    expect(problems).toEqual([]);
    await page.close();
  });

  it('announces a search the service refuses, in its words', async () => {
    const page = await chromium.context.newPage();
    await page.addInitScript({ content: RECORD_ANNOUNCEMENTS });
    // A query holding a control character: the page leaves that to the service.
    await page.goto(`${service.origin}/?q=rank%01fusion&providers=brave`);
    await page.locator('#status[data-kind="error"]').waitFor();
    const refusal = (await page.locator('#status').textContent())!;
    expect(refusal).toContain('q: holds the control character U+0001');
    expect((await announced(page)).at(-1)).toBe(refusal);
    await page.close();
  });
});
