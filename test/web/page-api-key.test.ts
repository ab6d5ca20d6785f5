import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';
import { browserTestsRun, launchChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

describe.skipIf(!browserTestsRun())('the search page searched before its API key is given', () => {
  let service: RunningService;
  let chromium: LaunchedBrowser;
  const key = 'key-first-client-key-0123456789';

  beforeAll(async () => {
    service = await startService({ API_KEYS: key, LOG_LEVEL: 'warn' });
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
  });

  it('asks for the key rather than for a provider, and runs the typed search once the key is taken', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const searches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/search/')) searches.push(request.url());
    });
    await page.goto(`${service.origin}/`);
    await page.getByLabel('API key').waitFor();
    // Nothing is loading while the key is missing.
    expect(await page.locator('#provider-chips').textContent()).toBe('The providers are listed once the API key is accepted.');
    // Nor does switching to papers find none of that kind: none of any kind is loaded yet.
    await page.getByLabel('Papers').check();
    expect(await page.locator('#provider-chips').textContent()).toBe('The providers are listed once the API key is accepted.');
    await page.getByLabel('Web').check();

    await page.getByLabel('Search query').fill('provider');
    await page.getByLabel('Search query').press('Enter');
    const status = page.locator('#status[data-kind="error"]', { hasText: 'API key' });
    await status.waitFor();
    expect(await status.textContent()).toBe('Enter the API key first; the search runs once it is accepted.');
    expect(await page.evaluate('document.activeElement.id')).toBe('api-key');
    expect(searches).toEqual([]);
    expect(new URL(page.url()).searchParams.get('q')).toBe('provider');

    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
    // The query typed before the key is the one searched, not wiped by the page the key opened.
    expect(await page.locator('#q').inputValue()).toBe('provider');
    expect(await page.locator('#results .result').count()).toBeGreaterThan(0);
    expect(searches).toHaveLength(1);
    expect(searches[0]).not.toContain(key);
    // The first provider list request went without a key and was refused: that is how the page knew to ask.
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });
});
