import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, launchChromium, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');

/**
 * Records every change of the Stop button and of the status line, in order, as it happened: the button's from the
 * value of `hidden` it replaced, the status line's from the text node that replaced its words. Returns a reader,
 * which waits until the button has gone (the story is then whole) and gives the changes as phases: 'Stop shown',
 * 'Stop hidden', 'results so far', 'answer' (done) or 'failure' (an `error` event), repeats and other words left out.
 */
async function recordStopTimeline(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript({
    // Once the markup is parsed, before the page's scripts run (modules run after it): the story from its start.
    content: `window.stopTimeline = [];
      document.addEventListener('readystatechange', () => {
        if (document.readyState !== 'interactive') return;
        const observer = new MutationObserver((records) => {
          for (const record of records) {
            if (record.type === 'attributes') window.stopTimeline.push(record.oldValue === null ? 'Stop hidden' : 'Stop shown');
            else for (const node of record.addedNodes) window.stopTimeline.push(node.textContent);
          }
        });
        observer.observe(document.getElementById('stop-search'), { attributes: true, attributeFilter: ['hidden'], attributeOldValue: true });
        observer.observe(document.getElementById('status'), { childList: true });
      });`,
  });
  const timeline = (): Promise<string[]> => page.evaluate<string[]>('window.stopTimeline');
  const phase = (entry: string): string => {
    if (entry.startsWith('Stop ')) return entry;
    if (/ results so far /.test(entry)) return 'results so far';
    if (/^\d+ results in \d+ ms\.$/.test(entry)) return 'answer';
    return entry.startsWith('internal error;') ? 'failure' : 'other';
  };
  return async () => {
    await expect.poll(async () => (await timeline()).includes('Stop hidden')).toBe(true);
    return (await timeline()).map(phase).filter((entry, index, all) => entry !== 'other' && entry !== all[index - 1]);
  };
}

/**
 * Holds the page's searches until the returned function is called, then lets them go to the service: a search that
 * runs as long as the test wants, whatever its providers take.
 */
async function holdSearchUntilReleased(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/v1/search/web/stream?**', async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  return release;
}

describe.skipIf(!browserTestsRun())('the search page stops a search on Escape', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', fixture('brave/web-search.json'));
    // Exa never answers: the search would wait for it until its deadline, 30 s away.
    upstream.on('/exa/search', { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-stop-key-0123456789', EXA_API_KEY: 'exa-stop-key-0123456789', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('while results stream in: the stream closes, what was shown stays, the query too, and the status line says stopped', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const cancelled: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url().includes('/stream?')) cancelled.push(request.url());
    });
    const exaLetGo = (): number => upstream.abortedPaths.filter((path) => path === '/exa/search').length;
    const exaLetGoBefore = exaLetGo();
    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave,exa&timeout_ms=30000`);
    // Brave's results are on the page; exa keeps the search open.
    await page.locator('#waterfall [data-provider="brave"][data-status="ok"]').waitFor();
    await page.locator('#results .result').first().waitFor();
    const shown = await page.locator('#results .result h3').allTextContents();

    // From the search box, where Escape would otherwise empty the box.
    await page.locator('#q').focus();
    await page.keyboard.press('Escape');
    const status = page.locator('#status');
    expect(await status.getAttribute('data-kind')).toBe('stopped');
    expect(await status.textContent()).toBe(`Stopped: ${shown.length} results shown (1 of 2 providers had answered). Search again for the rest.`);
    // Said to a screen reader too: the search it heard start is over.
    expect(await page.getByRole('status').textContent()).toBe(await status.textContent());
    expect(await page.locator('#q').inputValue()).toBe('rank fusion');
    expect(await page.locator('#results .result h3').allTextContents()).toEqual(shown);
    // The search's end comes a moment later, once its stream has given up reading.
    await expect.poll(() => page.locator('#waterfall [data-provider="exa"] .outcome').textContent()).toBe('no answer');
    // The stream is closed, so the service lets go of the provider it was still waiting for.
    await expect.poll(() => cancelled.length).toBe(1);
    await expect.poll(exaLetGo, { timeout: 10_000 }).toBe(exaLetGoBefore + 1);
    expect(await status.getAttribute('data-kind')).toBe('stopped');

    // With nothing running, Escape is the browser's again, and says nothing on the status line.
    await page.keyboard.press('Escape');
    expect(await status.getAttribute('data-kind')).toBe('stopped');
    expect(await page.locator('#results .result').count()).toBe(shown.length);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('has a Stop button while results stream in, reached by Tab, that stops the search as Escape does and goes, moving nothing, on a 320 px phone', async () => {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 320, height: 700 });
    const problems = await watchForProblems(page);
    const stop = page.getByRole('button', { name: 'Stop' });
    await page.goto(`${service.origin}/`);
    await page.locator('#provider-chips input').first().waitFor();
    // Nothing runs: nothing to stop.
    expect(await stop.count()).toBe(0);
    const widthBefore = (await page.locator('#status').boundingBox())!.width;

    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave,exa&timeout_ms=30000`);
    await page.locator('#waterfall [data-provider="brave"][data-status="ok"]').waitFor();
    await page.locator('#results .result').first().waitFor();
    const shown = await page.locator('#results .result h3').allTextContents();
    await stop.waitFor();
    const box = (await stop.boundingBox())!;
    // A finger's target (WCAG 2.5.8), on the screen, and the page no wider than it.
    expect(box.height).toBeGreaterThanOrEqual(24);
    expect(box.x + box.width).toBeLessThanOrEqual(320);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
    // The status line's width, which its words wrap to: the control's coming and going must not rewrap them (and move
    // the panels below), only the words themselves may.
    const statusWidth = async (): Promise<number> => (await page.locator('#status').boundingBox())!.width;
    const widthWhileStreaming = await statusWidth();
    expect(widthWhileStreaming).toBe(widthBefore);

    // From the last control of the search form, Tab reaches it; Enter presses it.
    await page.locator('#provider-about summary').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('stop-search');
    await page.keyboard.press('Enter');
    const status = page.locator('#status');
    expect(await status.getAttribute('data-kind')).toBe('stopped');
    expect(await status.textContent()).toBe(`Stopped: ${shown.length} results shown (1 of 2 providers had answered). Search again for the rest.`);
    expect(await page.locator('#results .result h3').allTextContents()).toEqual(shown);
    await expect.poll(() => page.locator('#waterfall [data-provider="exa"] .outcome').textContent()).toBe('no answer');
    // Gone with nothing left to stop, and the keyboard carries on at the results rather than the top of the page.
    expect(await stop.count()).toBe(0);
    expect(await page.evaluate('document.activeElement.id')).toBe('results-title');
    expect(await statusWidth()).toBe(widthWhileStreaming);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the Stop button exactly while the search runs: gone by the time its answer is on the status line', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const phases = await recordStopTimeline(page);
    // The search is held until Stop shows: it runs past the moment before Stop comes, as a slow provider's would.
    const release = await holdSearchUntilReleased(page);
    await page.goto(`${service.origin}/?q=stop+timeline&providers=brave`);
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    release();
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await phases()).toEqual(['Stop shown', 'results so far', 'Stop hidden', 'answer']);
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the Stop button exactly while the search runs: gone by the time a failure after the stream opened is said', async () => {
    const page = await chromium.context.newPage();
    const phases = await recordStopTimeline(page);
    // The service's own ending for a search that failed after its stream opened (stream-routes.ts): an `error` event.
    const failure = { statusCode: 500, error: 'Internal Server Error', code: 'INTERNAL', message: 'internal error; quote request id req-stop when reporting it' };
    // Answered once Stop shows, as a search that ran a while would be.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/search/web/stream?**', async (route) => {
      await held;
      await route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8' },
        body: `event: results\ndata: ${JSON.stringify({ results: [], done: 1, total: 2 })}\n\nid: end\nevent: error\ndata: ${JSON.stringify(failure)}\n\n`,
      });
    });
    await page.goto(`${service.origin}/?q=stop+failure&providers=brave,exa`);
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    release();
    await page.locator('#status[data-kind="error"]').waitFor();
    expect(await phases()).toEqual(['Stop shown', 'results so far', 'Stop hidden', 'failure']);
    await page.close();
  });

  it('shows no Stop for an answer quicker than a short moment (a kept one), and shows it once a search has run that long', async () => {
    // A browser of its own: its clock is the test's to move, and a context's clock is every page's in it.
    const ownChromium = await launchChromium();
    onTestFinished(() => ownChromium.close());
    const page = await ownChromium.context.newPage();
    const problems = await watchForProblems(page);
    const stop = page.getByRole('button', { name: 'Stop' });
    const shown: string[] = [];
    await page.exposeFunction('stopShown', () => void shown.push('Stop shown'));
    await page.addInitScript({
      content: `document.addEventListener('readystatechange', () => {
        if (document.readyState !== 'interactive') return;
        new MutationObserver(() => { if (!document.getElementById('stop-search').hidden) window.stopShown(); })
          .observe(document.getElementById('stop-search'), { attributes: true, attributeFilter: ['hidden'] });
      });`,
    });
    // The page's clock stands still unless the test moves it: however slow this machine, the answer comes "at once".
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.goto(`${service.origin}/?q=quick+answer&providers=brave`);
    await page.locator('#status[data-kind="done"]').waitFor();
    // Asked again, the service answers from what it kept.
    await page.getByRole('searchbox', { name: 'Search query' }).press('Enter');
    await page.locator('#status[data-kind="done"]', { hasText: '(cached)' }).waitFor();
    expect(shown).toEqual([]);

    // A search still running (exa never answers): Escape stops it from its first moment, before Stop has come.
    const status = page.locator('#status');
    await page.goto(`${service.origin}/?q=slow+answer&providers=brave,exa&timeout_ms=30000`);
    await page.locator('#results .result').first().waitFor();
    await page.keyboard.press('Escape');
    expect(await status.getAttribute('data-kind')).toBe('stopped');
    expect(shown).toEqual([]);

    // Run again, Stop comes once the search has run a short moment, not before.
    await page.getByRole('searchbox', { name: 'Search query' }).press('Enter');
    await page.locator('#status', { hasText: 'results so far' }).waitFor();
    await page.clock.runFor(100);
    expect(await stop.count()).toBe(0);
    await page.clock.runFor(100);
    await stop.waitFor();
    await expect.poll(() => shown).toEqual(['Stop shown']);
    await stop.click();
    expect(await status.getAttribute('data-kind')).toBe('stopped');
    expect(await stop.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('stopped before any result came, puts the keyboard on the Providers heading, not the top of the page', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=nothing+yet&providers=exa&timeout_ms=30000`);
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.waitFor();
    await stop.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#status').getAttribute('data-kind')).toBe('stopped');
    expect(await stop.count()).toBe(0);
    expect(await page.evaluate('document.activeElement.id')).toBe('waterfall-title');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('once the search has its answer, Escape leaves the answer as it is', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave`);
    const status = page.locator('#status[data-kind="done"]');
    await status.waitFor();
    const answer = await status.textContent();
    await page.locator('#results a').first().focus();
    await page.keyboard.press('Escape');
    expect(await page.locator('#status').getAttribute('data-kind')).toBe('done');
    expect(await page.locator('#status').textContent()).toBe(answer);
    // Nothing runs any more: no Stop button.
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
