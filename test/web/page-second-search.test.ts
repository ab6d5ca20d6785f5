import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');

/** Every text and kind the status line shows, in order, as `kind: text`. */
const RECORD_STATUS = `
  window.statusSeen = [];
  new MutationObserver(() => {
    const status = document.getElementById('status');
    if (!status) return;
    const seen = (status.dataset.kind ?? '') + ': ' + status.textContent;
    if (window.statusSeen.at(-1) !== seen) window.statusSeen.push(seen);
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-kind'] });`;

describe.skipIf(!browserTestsRun())('the search page when a second search replaces the first', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;
  /** The first search's refusal (its status sent, its body not) and exa's answer to the second, held by the test. */
  const held: ServerResponse[] = [];
  let refusalSent: () => void = () => undefined;
  let exaAsked: () => void = () => undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // A refusal as a proxy in front of the service may send it: the status line at once, the body slowly.
    upstream.on('/slow-refusal', {
      kind: 'handler',
      handle: (_request, response) => {
        response.writeHead(503, { 'content-type': 'application/json' });
        response.flushHeaders();
        held.push(response);
        refusalSent();
      },
    });
    upstream.on('/exa/search', {
      kind: 'handler',
      handle: (_request, response) => {
        held.push(response);
        exaAsked();
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), EXA_API_KEY: 'exa-second-key-0123456789', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    for (const response of held) response.destroy();
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it("shows nothing of the first search's refusal, still arriving, under the second", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.addInitScript({ content: RECORD_STATUS });
    await page.route('**/v1/search/web/stream?q=first**', (route) => route.continue({ url: `${upstream.origin}/slow-refusal` }));
    const sent = new Promise<void>((resolve) => (refusalSent = resolve));
    await page.goto(`${service.origin}/?q=first&providers=exa,hackernews`);
    await sent;
    // The page has the refusal's status (it takes the panels away) and waits for the body that says why.
    await expect.poll(() => page.locator('#waterfall-section').isHidden()).toBe(true);
    expect(await page.locator('#status').textContent()).toBe('Searching 2 providers…');

    const asked = new Promise<void>((resolve) => (exaAsked = resolve));
    // One provider, so that the status line's first words tell the second search from the first.
    await page.locator('#provider-chips input[value="hackernews"]').uncheck();
    await page.getByLabel('Search query').fill('second');
    await page.getByLabel('Search query').press('Enter');
    await asked;
    // The second search's answer ends it; everything the status line said from the second search on was about it.
    held.at(-1)!.writeHead(200, { 'content-type': 'application/json' }).end(fixture('exa/search.json'));
    await page.locator('#status[data-kind="done"]').waitFor();
    const seen = (await page.evaluate('window.statusSeen')) as string[];
    const fromSecond = seen.slice(seen.indexOf('info: Searching 1 providers…'));
    expect(fromSecond.length).toBeGreaterThan(1);
    expect(fromSecond.filter((line) => line.startsWith('error:'))).toEqual([]);
    expect(fromSecond.at(-1)).toMatch(/^done: \d+ results in \d+ ms\.$/);
    expect(await page.locator('#waterfall-section').isVisible()).toBe(true);
    // The first search's stream was cut when the second began: the refused request failing is expected.
    expect(problems.filter((problem) => !problem.includes('503'))).toEqual([]);
    await page.close();
  });
});
