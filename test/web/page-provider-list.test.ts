import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium } from './chromium.js';
import { streamsOf } from './page-links.js';
import { watchForProblems } from './page-problems.js';

describe.skipIf(!browserTestsRun())('the search page while its provider list is loading', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('asks for the list once when Search is pressed before it is in, and then runs the search typed, once', async () => {
    const { context, close } = await sharedChromium();
    const page = await context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const providerLists: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/providers') providerLists.push(request.url());
    });
    // The list is held until Search is pressed: on a slow connection a user types and searches before it is in.
    const held: Route[] = [];
    let holding = true;
    let listAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (listAsked = resolve));
    await page.route(`${service.origin}/v1/providers`, async (route) => {
      if (!holding) return route.continue();
      held.push(route);
      listAsked();
    });
    await page.goto(`${service.origin}/`);
    await asked;
    await page.getByLabel('Search query').fill('provider');
    await page.getByLabel('Search query').press('Enter');
    // Search's own work is done once the address holds the query it was pressed for.
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('provider');
    holding = false;
    for (const route of held) await route.continue();

    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#results .result').count()).toBeGreaterThan(0);
    expect(await page.locator('#provider-chips input:checked').count()).toBeGreaterThan(0);
    // One list: a second cost a request against the rate limit, and a second search ran over the first.
    expect(providerLists).toHaveLength(1);
    expect(streams.map((stream) => new URL(stream, service.origin).searchParams.get('q'))).toEqual(['provider']);
    expect(problems).toEqual([]);
    await close();
  });
});
