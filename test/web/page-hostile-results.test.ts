import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, launchChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

/** A provider's result written to run script wherever it is taken for HTML: entity-escaped, the service decodes it to markup. */
const MARKUP = '<img src=x onerror=alert(1)>';

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
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'warn' });
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
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
});
