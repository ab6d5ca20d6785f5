import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

/** Hacker News's answer: one hit, so every count the page writes is one. */
const ONE_HIT = { hits: [{ objectID: '1', title: 'The only answer', url: 'https://news.example/only' }], nbPages: 1 };

describe.skipIf(!browserTestsRun())('the search page counts in words', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/hackernews/api/v1/search', JSON.stringify(ONE_HIT));
    service = await startService({ ...providerEnv(upstream.origin), CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('says "1 result", not "1 results", in the status line and beside the provider', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=only+answer&providers=hackernews`);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#status').textContent()).toMatch(/^1 result in \d+ ms\.$/);
    expect(await page.locator('.outcome').first().textContent()).toMatch(/^ok \d+ ms · 1 result$/);
    // Its one result is a link: the note says nothing of the embedded index's documents, which open over the page.
    expect(await page.locator('#new-tab-note').innerText()).toBe('Links open in a new tab.');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says that the one provider asked did not answer, not "none of the 1 providers"', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    // Wikipedia has no route on the fake, which answers 404: its call fails, and it is the only provider asked.
    await page.goto(`${service.origin}/?q=nobody+answers&providers=wikipedia`);
    await page.locator('#status[data-kind="done"], #status[data-kind="error"]').waitFor();
    expect(await page.locator('#status').textContent()).toMatch(/^No results: the provider asked did not answer \(/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
