import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

describe.skipIf(!browserTestsRun())('the search page going back under the rate limit', () => {
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    // Four requests a minute: the provider list and three searches.
    service = await startService({ RATE_LIMIT_MAX: '4', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
  });

  it('goes back to the search before with the provider list it has, spending no request on it', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const providerLists: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/providers') providerLists.push(request.url());
    });
    await page.goto(`${service.origin}/?q=provider&providers=local`);
    await page.locator('#status[data-kind="done"]').waitFor();
    await page.getByLabel('Search query').fill('search');
    await page.getByLabel('Search query').press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('search');

    // Back is the fourth request of the minute, the search itself: not a fifth, refused, for the list again.
    await page.goBack();
    await expect.poll(() => page.locator('#q').inputValue()).toBe('provider');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#results .result').count()).toBeGreaterThan(0);
    expect(providerLists).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });
});
