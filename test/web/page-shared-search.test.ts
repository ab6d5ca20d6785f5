import type { ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

const BRAVE = '/brave/res/v1/web/search';
const EXA = '/exa/search';

function braveBody(...urls: string[]): string {
  return JSON.stringify({ type: 'search', web: { type: 'search', results: urls.map((url, index) => ({ title: `Brave ${index + 1}`, url, description: 'from brave' })) } });
}

function exaBody(...urls: string[]): string {
  return JSON.stringify({ results: urls.map((url, index) => ({ title: `Exa ${index + 1}`, url, highlights: ['from exa'] })) });
}

/** A counter of the service's /metrics (0 while it has no sample): `name` and the labels the line must carry. */
async function metric(service: RunningService, name: string, ...labels: string[]): Promise<number> {
  const lines = (await (await request(service.origin, '/metrics')).text()).split('\n');
  const line = lines.find((candidate) => candidate.startsWith(name) && /[ {]/.test(candidate[name.length] ?? '') && labels.every((label) => candidate.includes(label)));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

/** Searches that joined an identical one in flight. */
const sharedCount = (service: RunningService): Promise<number> => metric(service, 'fedsearch_cache_shared_total');
/** Streams whose client went away before their end. */
const streamsLeft = (service: RunningService): Promise<number> => metric(service, 'fedsearch_http_requests_aborted_total', 'route="/v1/search/web/stream"');

/**
 * Identical searches in flight share one fan-out (single-flight.ts), streams too: two tabs of the page searching the
 * same thing at once ask each provider once. Each tab must still behave as if the search were its own: every bar,
 * the same results, its own status and Stop, and a tab leaving cuts nothing the other waits for.
 */
describe.skipIf(!browserTestsRun())('the search page in two tabs running the same search at once', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;
  /** Exa's requests, held until the test answers them: the shared search stays in flight meanwhile. */
  const heldExa: ServerResponse[] = [];
  const pages: Page[] = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(EXA, { kind: 'handler', handle: (_request, response) => void heldExa.push(response) });
    // No cache: each page is asked of the providers, so what is shared is the fan-out in flight, not a kept answer.
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-two-tabs-key-0123456789',
      EXA_API_KEY: 'exa-two-tabs-key-0123456789',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'warn',
    });
    chromium = await sharedChromium();
  });
  afterEach(async () => {
    for (const page of pages.splice(0)) if (!page.isClosed()) await page.close();
    for (const response of heldExa.splice(0)) response.destroy();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  function answerExa(index: number): void {
    heldExa[index]!.writeHead(200, { 'content-type': 'application/json' }).end(exaBody('https://both.example/', 'https://slow.example/1'));
  }

  /** A tab of the same browser (one profile: one HTTP cache, one connection pool) on `address`. */
  async function openTab(address: string, problems: string[][]): Promise<Page> {
    const page = await chromium.context.newPage();
    pages.push(page);
    problems.push(await watchForProblems(page));
    await page.goto(`${service.origin}${address}`);
    return page;
  }

  const links = (page: Page): Promise<Array<string | null>> => page.locator('#results .result h3 a').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
  const statusKind = (page: Page): Promise<string | null> => page.locator('#status').getAttribute('data-kind');

  it('shows each tab every bar and the same results; Stop in one, or closing one, leaves the other its answer', async () => {
    upstream.on(BRAVE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://fast.example/1', 'https://both.example/') });
    const problems: string[][] = [];
    const address = '/?q=two+tabs&providers=brave,exa';
    const sharedBefore = await sharedCount(service);
    const leftBefore = await streamsLeft(service);
    const exaBefore = upstream.requestsTo(EXA).length;
    const first = await openTab(address, problems);
    await first.locator('#waterfall [data-provider="brave"][data-status="ok"]').waitFor();
    await expect.poll(() => heldExa.length).toBe(1);

    const second = await openTab(address, problems);
    await second.locator('#waterfall [data-provider="brave"][data-status="ok"]').waitFor();
    await second.locator('#results .result').first().waitFor();
    // It joined the first tab's search: brave's answer came from there, and exa was not asked again.
    expect(await sharedCount(service)).toBe(sharedBefore + 1);
    expect(upstream.requestsTo(EXA)).toHaveLength(exaBefore + 1);
    for (const page of [first, second]) {
      expect(await page.locator('#waterfall [data-provider="exa"]').getAttribute('data-status')).toBe('pending');
      expect(await links(page)).toEqual(['https://fast.example/1', 'https://both.example/']);
      await page.getByRole('button', { name: 'Stop' }).waitFor();
    }

    await first.locator('#q').focus();
    await first.keyboard.press('Escape');
    expect(await statusKind(first)).toBe('stopped');
    // A third tab joins, then is closed: neither leaving cuts the search the second tab waits on.
    const third = await openTab(address, problems);
    await third.locator('#results .result').first().waitFor();
    await third.close();
    await expect.poll(() => streamsLeft(service)).toBe(leftBefore + 2);
    expect(heldExa[0]!.destroyed).toBe(false);
    expect(await statusKind(second)).toBe('info');
    expect(await second.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);

    answerExa(0);
    await expect.poll(() => statusKind(second)).toBe('done');
    expect(await second.locator('#waterfall [data-provider="exa"]').getAttribute('data-status')).toBe('ok');
    expect((await links(second)).sort()).toEqual(['https://both.example/', 'https://fast.example/1', 'https://slow.example/1']);
    expect(await second.getByRole('button', { name: 'Stop' }).isHidden()).toBe(true);
    // The stopped tab kept what it showed, and its own words.
    expect(await statusKind(first)).toBe('stopped');
    expect(await links(first)).toEqual(['https://fast.example/1', 'https://both.example/']);
    expect(upstream.requestsTo(EXA)).toHaveLength(exaBefore + 1);
    expect(problems.flat()).toEqual([]);
  });

  it("lets the second tab's More results join the first's next page in flight, rather than wait for it and ask again", async () => {
    const many = Array.from({ length: 14 }, (_, index) => `https://many.example/${index + 1}`);
    upstream.on(BRAVE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody(...many) });
    const problems: string[][] = [];
    const address = '/?q=next+page+twice&providers=brave,exa';
    const exaBefore = upstream.requestsTo(EXA).length;
    const first = await openTab(address, problems);
    await first.locator('#waterfall [data-provider="brave"][data-status="ok"]').waitFor();
    await expect.poll(() => heldExa.length).toBe(1);
    const second = await openTab(address, problems);
    await second.locator('#results .result').first().waitFor();
    answerExa(0);
    for (const page of [first, second]) await expect.poll(() => statusKind(page)).toBe('done');

    const sharedBefore = await sharedCount(service);
    await first.getByRole('button', { name: 'More results' }).click();
    // The first tab's next page is in flight, held on exa.
    await expect.poll(() => heldExa.length).toBe(2);
    await second.getByRole('button', { name: 'More results' }).click();
    // The identical request reached the service while the first was in flight, and joined it. The browser's HTTP cache
    // used to hold it back until the first tab's answer was whole: it then came alone and asked exa once more.
    await expect.poll(() => sharedCount(service), { timeout: 5_000 }).toBe(sharedBefore + 1);
    answerExa(1);
    for (const page of [first, second]) {
      await expect.poll(() => page.locator('#status').textContent()).toMatch(/\(page 2, /);
      expect(await page.locator('#waterfall-summary').textContent()).toBe('page 2: 2 of 2 answered');
    }
    expect(await links(second)).toEqual(await links(first));
    // Once for the first page, once for the second: both tabs' pages came from the same fan-outs.
    expect(upstream.requestsTo(EXA)).toHaveLength(exaBefore + 2);
    expect(problems.flat()).toEqual([]);
  });

  it('lets a tab leave the shared search for another and come back to it (Back) without cutting it for the other tab', async () => {
    upstream.on(BRAVE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://fast.example/1', 'https://both.example/') });
    const problems: string[][] = [];
    const address = '/?q=shared+then+another&providers=brave,exa';
    const first = await openTab(address, problems);
    await first.locator('#waterfall [data-provider="brave"][data-status="ok"]').waitFor();
    await expect.poll(() => heldExa.length).toBe(1);
    const second = await openTab(address, problems);
    await second.locator('#results .result').first().waitFor();

    // A second search in the same tab: the shared one goes on for the first tab.
    await second.getByLabel('Search query').fill('something else');
    await second.getByLabel('Search query').press('Enter');
    await expect.poll(() => heldExa.length).toBe(2);
    await expect.poll(() => second.locator('#results .result').count()).toBe(2);
    expect(heldExa[0]!.destroyed).toBe(false);

    // Back to the shared search, still in flight: the tab joins it again, and its own search is let go.
    await second.goBack();
    await expect.poll(() => second.getByLabel('Search query').inputValue()).toBe('shared then another');
    await expect.poll(() => heldExa[1]!.destroyed).toBe(true);
    await second.locator('#waterfall [data-provider="brave"][data-status="ok"]').waitFor();
    expect(await second.locator('#waterfall [data-provider="exa"]').getAttribute('data-status')).toBe('pending');
    expect(heldExa[0]!.destroyed).toBe(false);

    answerExa(0);
    for (const page of [first, second]) {
      await expect.poll(() => statusKind(page)).toBe('done');
      expect((await links(page)).sort()).toEqual(['https://both.example/', 'https://fast.example/1', 'https://slow.example/1']);
    }
    expect(new URL(second.url()).searchParams.get('q')).toBe('shared then another');
    expect(problems.flat()).toEqual([]);
  });
  /**
   * A tab searching what a plain search (an API client, a script) is already asking used to run a fan-out of its own,
   * asking every provider again. Then it joined that search, but nothing streamed until it ended: the bars of providers
   * that had answered long before stayed pending. It is drawn at once what that search has heard, then the rest as it
   * comes. The providers' times count from that search's start, and so does the total the tab says.
   */
  it('lets a tab join an identical plain search in flight: the bars and results of providers already in at once, none longer than the total', async () => {
    upstream.on(BRAVE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: braveBody('https://fast.example/1', 'https://both.example/') });
    const problems: string[][] = [];
    const sharedBefore = await sharedCount(service);
    const exaBefore = upstream.requestsTo(EXA).length;
    // The page always asks with explain=true: the plain search must ask the same to be the same search.
    const plain = request(service.origin, '/v1/search/web?q=tab+after+script&providers=brave,exa&explain=true');
    await expect.poll(() => heldExa.length).toBe(1);
    const tab = await openTab('/?q=tab+after+script&providers=brave,exa', problems);
    await expect.poll(() => sharedCount(service)).toBe(sharedBefore + 1);
    // Brave answered before the tab came: its bar and results are drawn while exa is still held, and exa's bar waits.
    await expect.poll(() => tab.locator('#waterfall [data-provider="brave"]').getAttribute('data-status')).toBe('ok');
    await expect.poll(async () => (await links(tab)).sort()).toEqual(['https://both.example/', 'https://fast.example/1']);
    expect(await tab.locator('#waterfall [data-provider="exa"]').getAttribute('data-status')).toBe('pending');
    expect(heldExa[0]!.writableEnded).toBe(false);

    answerExa(0);
    await expect.poll(() => statusKind(tab)).toBe('done');
    expect((await plain).status).toBe(200);
    for (const provider of ['brave', 'exa']) expect(await tab.locator(`#waterfall [data-provider="${provider}"]`).getAttribute('data-status')).toBe('ok');
    expect((await links(tab)).sort()).toEqual(['https://both.example/', 'https://fast.example/1', 'https://slow.example/1']);
    const milliseconds = (text: string | null): number => Number(/(\d+) ms/.exec(text ?? '')?.[1]);
    const total = milliseconds(await tab.locator('#status').textContent());
    const bars = (await tab.locator('#waterfall .outcome').allTextContents()).map(milliseconds);
    expect(bars).toHaveLength(2);
    for (const bar of bars) expect(bar).toBeLessThanOrEqual(total);
    expect(upstream.requestsTo(EXA)).toHaveLength(exaBefore + 1);
    expect(problems.flat()).toEqual([]);
  });
});
