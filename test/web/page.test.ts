import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { accessibleTextOf } from './accessibility-tree.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

const SCREENSHOT_DIR = path.resolve('test-results', 'web');
const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');
const KEYS = { BRAVE_API_KEY: 'brave-page-key-0123456789', EXA_API_KEY: 'exa-page-key-0123456789' };

type Row = { provider: string | null; status: string | null; text: string; style: string };

function waterfallRows(page: Page): Promise<Row[]> {
  return page.$$eval('#waterfall .waterfall-row', (rows) =>
    rows.map((row) => ({
      provider: row.getAttribute('data-provider'),
      status: row.getAttribute('data-status'),
      text: row.querySelector('.outcome')?.textContent ?? '',
      style: row.querySelector('.bar')?.getAttribute('style') ?? '',
    })),
  );
}

describe.skipIf(!browserTestsRun())('the search page in Chromium', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', fixture('brave/web-search.json'));
    upstream.json('/hackernews/api/v1/search', fixture('hackernews/search.json'));
    upstream.on('/wikipedia/w/api.php', { kind: 'respond', status: 503, body: 'maintenance' });
    // Exa never answers: the page shows brave's results while exa waits, then exa's timeout at the deadline. A hanging
    // route records when the service lets go of it (abortedPaths): the end of the search that asked.
    upstream.on('/exa/search', { kind: 'hang' });
    upstream.on('/arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'application/atom+xml' }, body: fixture('arxiv/search.xml') });
    upstream.json('/crossref/works', fixture('crossref/works-query.json'));
    // A snippet quoting a long link: one word of hundreds of characters, as providers do send.
    upstream.json('/searxng/search', {
      results: [{ title: 'A long link', url: 'https://long.example/page', content: `see https://long.example/${'segment'.repeat(40)} for the rest` }],
    });
    service = await startService({ ...providerEnv(upstream.origin), ...KEYS, LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('streams a web search from its link: results, a waterfall bar per provider, score explanations', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const providers = 'brave,hackernews,wikipedia,exa,tavily,local';
    // A deadline well past Brave's answer, so exa is still pending when Brave's results show on a loaded machine.
    const response = await page.goto(`${service.origin}/?q=rank+fusion&providers=${providers}&timeout_ms=4000`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

    // Brave's results are on the page while exa still has not answered (it never will: it times out).
    await page.locator('#waterfall [data-provider="brave"][data-status="ok"]').waitFor();
    await page.locator('#results .result').first().waitFor();
    expect(await page.locator('#waterfall [data-provider="exa"]').getAttribute('data-status')).toBe('pending');

    await page.locator('#waterfall [data-provider="exa"][data-status="timeout"]').waitFor();
    await page.locator('#status[data-kind="done"]').waitFor();
    const rows = await waterfallRows(page);
    expect(rows.map((row) => row.provider).sort()).toEqual(providers.split(',').sort());
    const statusOf = Object.fromEntries(rows.map((row) => [row.provider, row.status]));
    expect(statusOf).toEqual({ brave: 'ok', hackernews: 'ok', local: 'ok', wikipedia: 'error', exa: 'timeout', tavily: 'not_configured' });
    const exaRow = rows.find((row) => row.provider === 'exa')!;
    expect(exaRow.text).toMatch(/^timeout \d+ ms$/);
    expect(rows.find((row) => row.provider === 'tavily')!.text).toBe('not configured');
    // Why a provider failed or was not asked is written out beside its bar, not only in a tooltip.
    for (const provider of ['wikipedia', 'tavily']) {
      const message = page.locator(`#waterfall [data-provider="${provider}"] .outcome-message`);
      expect(await message.isVisible()).toBe(true);
      expect(await message.textContent()).toBe(await page.locator(`#waterfall [data-provider="${provider}"] .outcome`).getAttribute('title'));
    }
    expect(await page.locator('#waterfall [data-provider="tavily"] .outcome-message').textContent()).toContain('TAVILY_API_KEY');
    expect(await page.locator('#waterfall [data-provider="brave"] .outcome-message').isVisible()).toBe(false);
    expect(await page.locator('#waterfall [data-provider="brave"] .deadline-marker').count()).toBe(1);
    // A provider that was called has a bar as long as it took; one never called has none.
    expect(exaRow.style).toMatch(/width: (?!0)[\d.]+%/);
    expect(rows.find((row) => row.provider === 'tavily')!.style).toContain('width: 0');

    // The picture in the README: the waterfall and the first results, as a visitor sees them.
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'web-page.png') });

    const titles = await page.locator('#results .result h3').allTextContents();
    expect(titles).toContain('Reciprocal Rank Fusion & friends');
    const badges = await page.locator('#results .result .sources').first().textContent();
    expect(badges).toMatch(/(brave|hackernews|local) #\d+/);

    // The explain switch shows each result's contributions (hidden until switched on), and stays in the URL.
    const firstExplain = page.locator('#results .result .explain').first();
    expect(await firstExplain.isVisible()).toBe(false);
    await page.getByLabel('Explain scores').check();
    expect(await firstExplain.isVisible()).toBe(true);
    expect(await firstExplain.locator('tbody tr').first().locator('td').first().textContent()).toMatch(/^(brave|hackernews|local)$/);
    expect(new URL(page.url()).searchParams.get('explain')).toBe('true');
    expect(new URL(page.url()).searchParams.get('providers')).toBe(providers);

    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'web-page-explain.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says so when the result stream ends before the search is done (a proxy cut it), and marks who never answered', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    // The service's own stream, cut after its first partial results, as a proxy's read timeout would cut it.
    await page.route('**/v1/search/web/stream?**', async (route) => {
      const whole = await (await route.fetch()).text();
      const cut = whole.indexOf('event: results');
      expect(cut).toBeGreaterThan(0);
      await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: whole.slice(0, whole.indexOf('\n\n', cut) + 2) });
    });
    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave,hackernews`);

    const status = page.locator('#status[data-kind="error"]');
    await status.waitFor();
    expect(await status.textContent()).toMatch(/cut short/);
    expect(await page.locator('#results .result').count()).toBeGreaterThan(0);
    const rows = await waterfallRows(page);
    expect(rows.filter((row) => row.status === 'ok')).toHaveLength(1);
    expect(rows.filter((row) => row.status === 'unknown').map((row) => row.text)).toEqual(['no answer']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('searches papers on Enter on a phone in dark mode, shows paper details, and keeps the search in the address bar', async () => {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/`);
    await page.getByLabel('Papers').check();
    // Only the two paper providers the fake upstream serves.
    for (const chip of await page.locator('#provider-chips input').all()) {
      const name = await chip.getAttribute('value');
      await chip.setChecked(name === 'arxiv' || name === 'crossref');
    }
    await page.getByLabel('Search query').fill('federated search');
    await page.getByLabel('Search query').press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
    const url = new URL(page.url());
    expect(url.searchParams.get('q')).toBe('federated search');
    expect(url.searchParams.get('kind')).toBe('papers');
    expect(url.searchParams.get('providers')).toBe('arxiv,crossref');

    const links = await page.locator('#results .paper-links a').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
    expect(links.some((href) => href.startsWith('https://doi.org/10.'))).toBe(true);
    expect(links.some((href) => href.startsWith('https://arxiv.org/abs/'))).toBe(true);
    expect(await page.locator('#results .paper-line').first().textContent()).toMatch(/\d{4}/);
    // Readable on a phone: nothing wider than the screen.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'papers-phone-dark.png'), fullPage: true });

    // Back in history: the empty search page again, the form showing it.
    await page.goBack();
    // popstate re-renders the form from the URL asynchronously: wait for it rather than read at once.
    await expect.poll(() => page.locator('#q').inputValue()).toBe('');
    expect(new URL(page.url()).searchParams.get('q')).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });
  it('opens a link naming no provider of its kind by asking for one, without searching with none', async () => {
    const page = await chromium.context.newPage();
    const streams: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/stream?')) streams.push(request.url());
    });
    // brave is a web provider: of the papers named here, none exists.
    await page.goto(`${service.origin}/?q=federated+search&kind=papers&providers=brave`);
    const status = page.locator('#status[data-kind="error"]');
    await status.waitFor();
    expect(await status.textContent()).toBe('Choose at least one provider.');
    expect(streams).toEqual([]);
    expect(await page.locator('#q').inputValue()).toBe('federated search');
    await page.close();
  });

  it('wraps a snippet holding one very long word on a phone, instead of widening the page', async () => {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=long+link&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#results .result .snippet').textContent()).toContain('segmentsegment');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('going back to the empty page while a search streams stops that search and clears its results', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const cancelled: string[] = [];
    const exaLetGo = (): number => upstream.abortedPaths.filter((path) => path === '/exa/search').length;
    const exaLetGoBefore = exaLetGo();
    page.on('requestfailed', (request) => {
      if (request.url().includes('/stream?')) cancelled.push(request.failure()?.errorText ?? '');
    });
    await page.goto(`${service.origin}/`);
    await page.getByLabel('Search query').fill('rank fusion');
    for (const chip of await page.locator('#provider-chips input').all()) {
      const name = await chip.getAttribute('value');
      await chip.setChecked(name === 'brave' || name === 'exa');
    }
    await page.getByLabel('Deadline').fill('2000');
    await page.getByLabel('Search query').press('Enter');
    // Brave's results are shown while exa has not answered: the stream is still open.
    await page.locator('#results .result').first().waitFor();
    await page.goBack();
    await expect.poll(() => page.locator('#q').inputValue()).toBe('');
    // The empty search page shows no results, no waterfall and no status of the search it left.
    await expect.poll(() => page.locator('#results-section').isHidden()).toBe(true);
    expect(await page.locator('#waterfall-section').isHidden()).toBe(true);
    // The left search's stream is closed, and nothing of it reaches the page: not even once the service has let go of
    // exa's request, which it does when the stream is cancelled or, at the latest, at the search's deadline (2 s),
    // the last moment the search had anything left to send. Waiting for that, rather than for wall time, is enough.
    await expect.poll(() => cancelled.length).toBe(1);
    await expect.poll(exaLetGo, { timeout: 10_000 }).toBe(exaLetGoBefore + 1);
    expect(await page.locator('#status').textContent()).toBe('');
    expect(await page.locator('#results .result').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!browserTestsRun())('the search page behind API keys', () => {
  let service: RunningService;
  let chromium: LaunchedBrowser;
  const key = 'page-client-key-0123456789';

  beforeAll(async () => {
    service = await startService({ API_KEYS: key, LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
  });

  it('asks for the key, keeps it in sessionStorage and sends it, never in the URL', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const sentKeys: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/')) sentKeys.push(request.headers().authorization ?? '');
    });
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(message.text()));
    await page.goto(`${service.origin}/?q=provider&providers=local`);
    await page.getByLabel('API key').waitFor();
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#results .result').count()).toBeGreaterThan(0);
    expect(await page.evaluate('sessionStorage.getItem("fedsearch-api-key")')).toBe(key);
    expect(page.url()).not.toContain(key);
    expect(sentKeys.at(-1)).toBe(`Bearer ${key}`);
    // Nor in the console, where a refusal is logged.
    expect(consoleLines.length).toBeGreaterThan(0);
    for (const line of consoleLines) expect(line).not.toContain(key);
    // The first provider list request went without a key and was refused: that is how the page knew to ask.
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it('says a wrong key was refused, rather than asking as if none had been given, and takes a right one after it', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=provider&providers=local`);
    await page.getByLabel('API key').waitFor();
    expect(await page.locator('#status').textContent()).toBe('This service needs an API key.');
    // Where the key is kept is read out with the field that focus lands on, not only written below it.
    const [field] = await accessibleTextOf(page, '#api-key');
    expect(field!.description).toContain('kept in this browser tab only');
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBeNull();
    await page.getByLabel('API key').fill('a-wrong-key-0123456789');
    await page.getByLabel('API key').press('Enter');
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/refused/);
    expect(await page.locator('#status').getAttribute('data-kind')).toBe('error');
    // The field is marked wrong, as a wrong deadline is: to the eye (its border) and to a screen reader.
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#key-form').isVisible()).toBe(true);
    expect(await page.evaluate('document.activeElement.id')).toBe('api-key');
    expect(await page.evaluate('sessionStorage.getItem("fedsearch-api-key")')).toBeNull();
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#key-form').isHidden()).toBe(true);
    await page.close();
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

describe.skipIf(!browserTestsRun())('the search page under the rate limit', () => {
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    // Two requests a minute: the page's provider list and one search.
    service = await startService({ RATE_LIMIT_MAX: '2', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
  });

  it('says when to try again when the provider list is refused, as the service tells it', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=provider&providers=local`);
    await page.locator('#status[data-kind="done"]').waitFor();
    // Reloading asks for the provider list again: the third request of the minute is refused with a 429.
    const refused = page.waitForResponse((response) => response.url().endsWith('/v1/providers'));
    await page.reload();
    expect((await refused).status()).toBe(429);
    const status = page.locator('#status[data-kind="error"]');
    await status.waitFor();
    expect(await status.textContent()).toMatch(/rate limit exceeded.*retry after \d+ s/);
    await page.close();
  });
});

describe.skipIf(!browserTestsRun())('the search page when our own outbound limit holds a provider back', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', fixture('brave/web-search.json'));
    // One Brave request an hour: the second search finds no slot before its deadline.
    service = await startService({ ...providerEnv(upstream.origin), ...KEYS, BRAVE_RATE_LIMIT: '1/h', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('writes rate limited out in words, coloured like a wait, with the reason under the bar', async () => {
    const page = await chromium.context.newPage();
    for (const query of ['first', 'second']) {
      await page.goto(`${service.origin}/?q=${query}&providers=brave,local&timeout_ms=1000`);
      await page.locator('#status[data-kind="done"]').waitFor();
    }
    const row = page.locator('#waterfall [data-provider="brave"]');
    expect(await row.getAttribute('data-status')).toBe('rate_limited');
    expect(await row.locator('.outcome').textContent()).toMatch(/^rate limited \d+ ms$/);
    expect(await row.locator('.outcome-message').textContent()).toContain('BRAVE_RATE_LIMIT');
    // The bar's colour against --timeout's, both as the browser computes them (a script string: no DOM types here).
    const colours = (await page.evaluate(`(() => {
      const bar = getComputedStyle(document.querySelector('#waterfall [data-provider="brave"] .bar')).backgroundColor;
      const probe = document.createElement('div');
      probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--timeout').trim();
      document.body.append(probe);
      const timeout = getComputedStyle(probe).color;
      probe.remove();
      return { bar, timeout };
    })()`)) as { bar: string; timeout: string };
    expect(colours.bar).toBe(colours.timeout);
    await page.close();
  });
});
