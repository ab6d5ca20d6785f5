import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, launchChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');

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
    chromium = await launchChromium();
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
