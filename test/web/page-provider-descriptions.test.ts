import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { accessibleTextOf } from './accessibility-tree.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

interface CatalogueEntry {
  name: string;
  kind: string;
  description: string;
  configured: boolean;
  missing?: string[];
}

/** The focused element, as `tag text` (or its id): what a keyboard user is on. */
const FOCUSED = "document.activeElement.tagName + ' ' + (document.activeElement.id || document.activeElement.textContent.trim())";

describe.skipIf(!browserTestsRun())("the search page says what each provider searches, beyond a mouse's reach", () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;
  let catalogue: CatalogueEntry[];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Brave configured, Tavily (among others) not: one chip of each sort.
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-about-key-0123456789', LOG_LEVEL: 'warn' });
    catalogue = ((await (await request(service.origin, '/v1/providers')).json()) as { providers: CatalogueEntry[] }).providers;
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it("gives each provider's checkbox what it searches, and what an unconfigured one needs, as its description", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/`);
    await page.locator('#provider-chips input').first().waitFor();
    for (const kind of ['web', 'papers'] as const) {
      await page.getByLabel(kind === 'web' ? 'Web' : 'Papers').check();
      const ofKind = catalogue.filter((provider) => provider.kind === kind);
      const names = await page.locator('#provider-chips input').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('value') ?? ''));
      // auto first, for either kind: the service chooses, and its description says so.
      expect(names[0], kind).toBe('auto');
      expect(names.slice(1).sort(), kind).toEqual(ofKind.map((provider) => provider.name).sort());
      const described = await accessibleTextOf(page, '#provider-chips input');
      expect(described[0]!.description, kind).toBe('The service chooses the providers that suit the query, and its answer says which and why.');
      for (const [index, name] of names.entries()) {
        if (name === 'auto') continue;
        const provider = ofKind.find((entry) => entry.name === name)!;
        // The service's own words, whoever reads them: read out with the checkbox, while the list stays folded.
        expect(described[index]!.description, name).toContain(provider.description);
        for (const setting of provider.missing ?? []) expect(described[index]!.description, name).toContain(setting);
      }
    }
    // Among them, some not configured, whose missing settings were checked above.
    expect(catalogue.filter((provider) => !provider.configured && provider.missing?.length).length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows them to a keyboard user, a Tab and an Enter past the chips, and not before they are asked for', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/`);
    await page.locator('#provider-chips input').first().waitFor();
    const tavily = catalogue.find((provider) => provider.name === 'tavily')!;
    expect(tavily.configured).toBe(false);
    const entry = page.locator('#provider-descriptions dd', { hasText: tavily.description });
    // Folded away until asked for: one line under the chips, not a paragraph per provider.
    expect(await entry.isVisible()).toBe(false);

    await page.locator('#provider-chips input').last().focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(FOCUSED)).toBe('SUMMARY What each provider searches');
    await page.keyboard.press('Enter');
    await entry.waitFor({ state: 'visible' });
    expect(await entry.textContent()).toContain(tavily.missing![0]);
    // Seen by the eye as well as read out: in the page, not only in an attribute.
    expect(await page.locator('#provider-descriptions dt').allTextContents()).toContain('tavily');
    expect(problems).toEqual([]);
    await page.close();
  });
});
