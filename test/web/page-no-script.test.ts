import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';
import { browserTestsRun, launchChromium, type LaunchedBrowser } from './chromium.js';

describe.skipIf(!browserTestsRun())('the search page with JavaScript turned off', () => {
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'warn' });
    chromium = await launchChromium({ javaScriptEnabled: false });
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
  });

  it('says first, on a phone\'s first screen, that searching needs JavaScript, and offers no form that cannot search', async () => {
    const page = await chromium.context.newPage();
    // A small phone: 320 × 568 CSS px.
    await page.setViewportSize({ width: 320, height: 568 });
    await page.goto(`${service.origin}/?q=rank+fusion`);
    // No script ran: the provider list was never asked for.
    expect(await page.locator('#provider-chips').textContent()).toBe('Loading providers…');
    // Found by CSS: Playwright's text and role engines pass over <noscript>, whatever the browser does with it.
    const notice = page.locator('main > noscript > p');
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toContain('This page needs JavaScript to search.');
    const box = (await notice.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(568);
    // Nothing that looks like it works and does not: the search box only reloaded the page, the list never loaded.
    expect(await page.getByRole('search').isVisible()).toBe(false);
    expect(await page.getByText('Loading providers…').isVisible()).toBe(false);
    expect(await page.getByRole('textbox').count()).toBe(0);
    // What does work without scripts is a link away.
    expect(await notice.locator('a').getAttribute('href')).toBe('/docs');
    await page.close();
  });
});
