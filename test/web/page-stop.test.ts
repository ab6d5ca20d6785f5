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
    expect(problems).toEqual([]);
    await page.close();
  });
});
