import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

/**
 * Swagger UI at /docs shares the search page's origin, where the page keeps the caller's API key in sessionStorage:
 * it runs under a policy of its own (its files only, never framed), and still works under it.
 */
describe.runIf(browserTestsRun())('the API docs page', () => {
  let service: RunningService;
  let browser: LaunchedBrowser;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'warn' });
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('is served under a CSP that admits only its own scripts and no framing, and the API answers keep theirs', async () => {
    for (const path of ['/docs', '/docs/static/swagger-initializer.js']) {
      const csp = (await request(service.origin, path)).headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("object-src 'none'");
      expect(csp, path).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
      // No style from markup either (style-src-elem and style-src-attr fall back to style-src): injected markup could
      // otherwise restyle the page, or read it out through attribute selectors.
      expect(csp, path).not.toMatch(/style-src[^;]*unsafe-inline/);
      expect(csp, path).not.toContain('upgrade-insecure-requests');
    }
    expect((await request(service.origin, '/openapi.json')).headers.get('content-security-policy')).toBeNull();
    expect((await request(service.origin, '/')).headers.get('content-security-policy')).not.toContain('unsafe-inline');
  });

  it('renders the operations under that policy without a violation', async () => {
    const page = await browser.context.newPage();
    const problems = await watchForProblems(page);
    await page.addInitScript({
      content: "window.cspViolations = []; document.addEventListener('securitypolicyviolation', (event) => window.cspViolations.push(event.effectiveDirective + ' ' + event.blockedURI));",
    });
    await page.goto(`${service.origin}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(5);
    // Opened, tried out and answered: the parts drawn only on demand (parameters, a curl line, highlighted JSON).
    const health = page.locator('#operations-health-get_health');
    await health.locator('.opblock-summary-control').click();
    await health.locator('.try-out__btn').click();
    await health.locator('.execute').click();
    await health.locator('.live-responses-table tr.response .response-col_status').first().waitFor();
    expect(await health.locator('.live-responses-table tr.response .response-col_status').first().textContent()).toContain('200');
    // Violations as the page itself recorded them, read now rather than whenever their console message arrives.
    expect(await page.evaluate<string[]>('window.cspViolations')).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
