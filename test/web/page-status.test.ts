import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

/** The status line once the search says it is over, for better or worse. */
const FINISHED = '#status[data-kind="done"], #status[data-kind="error"]';

describe.skipIf(!browserTestsRun())('the search page status line', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/wikipedia/w/api.php', { kind: 'respond', status: 503, body: 'maintenance' });
    upstream.on('/searxng/search', { kind: 'respond', status: 500, body: 'broken' });
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('says no provider answered when every one failed, as an error, not "0 results" as if nothing matched', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=rank+fusion&providers=wikipedia,searxng`);
    const status = page.locator(FINISHED);
    await status.waitFor();
    expect(await status.getAttribute('data-kind')).toBe('error');
    expect(await status.textContent()).toMatch(/^No results: none of the 2 providers answered/);
    expect(await page.locator('#waterfall-summary').textContent()).toBe('0 of 2 answered');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('gives a screen reader the providers as a table: one row per provider, its outcome and why in cells', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=rank+fusion&providers=local,wikipedia`);
    await page.locator(FINISHED).waitFor();
    const table = page.getByRole('table', { name: 'Providers 1 of 2 answered' });
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Provider', 'Outcome', 'Why']);
    expect(await table.getByRole('rowheader').allTextContents()).toEqual(['local', 'wikipedia']);
    const row = (provider: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: provider }) });
    const [wikipediaOutcome, wikipediaWhy] = await row('wikipedia').getByRole('cell').allTextContents();
    expect(wikipediaOutcome).toMatch(/^error \d+ ms$/);
    expect(wikipediaWhy).toContain('503');
    expect(await row('local').getByRole('cell').allTextContents()).toEqual([expect.stringMatching(/^ok \d+ ms · \d+ results$/)]);
    await page.close();
  });

  it('names the providers that did not answer after the results the others found, and reads it out', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=rank+fusion&providers=local,wikipedia,searxng`);
    const status = page.locator(FINISHED);
    await status.waitFor();
    expect(await status.getAttribute('data-kind')).toBe('done');
    expect(await page.locator('#results .result').count()).toBeGreaterThan(0);
    const said = await status.textContent();
    const [, names] = /^\d+ results in \d+ ms\. 2 of 3 providers did not answer \(([a-z, ]+)\): why is written under Providers\.$/.exec(said ?? '') ?? [];
    expect(names?.split(', ').sort()).toEqual(['searxng', 'wikipedia']);
    // The words a screen reader is given (the page's live region) are these, not only the colours of the waterfall.
    expect(await page.getByRole('status').textContent()).toBe(said);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says a search that was answered found nothing', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=zzqxv+wqzzx&providers=local,wikipedia`);
    const status = page.locator(FINISHED);
    await status.waitFor();
    expect(await status.getAttribute('data-kind')).toBe('done');
    expect(await status.textContent()).toMatch(/^No results in \d+ ms: 1 of 2 providers answered and found nothing\.$/);
    expect(await page.locator('#results .result').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the Results heading and its note only over results: not when every provider failed, nor when none found anything', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const heading = page.getByRole('heading', { name: 'Results' });
    const note = page.getByText('Links open in a new tab.');
    const searches = {
      // Every provider failed.
      'rank+fusion&providers=wikipedia,searxng': 'error',
      // One answered, and found nothing.
      'zzqxv+wqzzx&providers=local,wikipedia': 'done',
    };
    for (const [search, kind] of Object.entries(searches)) {
      await page.goto(`${service.origin}/?q=${search}`);
      await page.locator(`#status[data-kind="${kind}"]`).waitFor();
      expect(await page.locator('#results .result').count(), search).toBe(0);
      expect(await heading.count(), search).toBe(0);
      expect(await note.isVisible(), search).toBe(false);
      // The providers panel stays: it says why there is nothing.
      expect(await page.locator('#waterfall-section').isVisible(), search).toBe(true);
    }

    // With results, both are there, above them.
    await page.goto(`${service.origin}/?q=rank+fusion&providers=local,wikipedia`);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#results .result').count()).toBeGreaterThan(0);
    expect(await heading.isVisible()).toBe(true);
    expect(await note.isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows no providers panel for a search refused before any provider was asked: a bad query, the rate limit, no connection', async () => {
    const page = await chromium.context.newPage();
    const refusals: Record<string, () => Promise<void>> = {
      // The service's own 400: the query holds a control character. (A deadline out of range no longer reaches it: the
      // page says a link's itself, search-form.js.)
      'q: holds the control character U+0001': () => page.goto(`${service.origin}/?q=rank%01fusion&providers=local`).then(() => undefined),
      'rate limit exceeded': async () => {
        await page.route('**/v1/search/web/stream?**', (route) =>
          route.fulfill({ status: 429, json: { statusCode: 429, error: 'Too Many Requests', code: 'RATE_LIMITED', message: 'rate limit exceeded; retry after 50 s' } }),
        );
        await page.goto(`${service.origin}/?q=rate+limited&providers=local`);
      },
      'could not reach the service': async () => {
        await page.unrouteAll();
        await page.route('**/v1/search/web/stream?**', (route) => route.abort('internetdisconnected'));
        await page.goto(`${service.origin}/?q=no+connection&providers=local`);
      },
    };
    for (const [said, refuse] of Object.entries(refusals)) {
      await refuse();
      await page.locator('#status[data-kind="error"]', { hasText: said }).waitFor();
      // Not a panel listing every provider as "no answer" under an empty Results heading: none was asked.
      expect(await page.locator('#waterfall-section').isHidden(), said).toBe(true);
      expect(await page.locator('#results-section').isHidden(), said).toBe(true);
    }
    await page.close();
  });

  it('says what a refusal from in front of the service means, and when Retry-After says to try again', async () => {
    const page = await chromium.context.newPage();
    // Refusals as a proxy or gateway sends them: its own page, not the service's JSON with a message.
    // Headers are made as each refusal is sent: an HTTP date counts whole seconds, so one made before the earlier
    // pages loaded would say less than 119 s on a loaded machine.
    const refusals: { status: number; headers: () => Record<string, string>; said: string | RegExp }[] = [
      { status: 429, headers: () => ({ 'retry-after': '30' }), said: 'The search answered HTTP 429 (too many requests: retry after 30 s).' },
      { status: 503, headers: () => ({ 'retry-after': new Date(Date.now() + 120_000).toUTCString() }), said: /^The search answered HTTP 503 \(the service is unavailable for now: retry after 1(19|20) s\)\.$/ },
      { status: 502, headers: () => ({}), said: 'The search answered HTTP 502 (the service is unavailable for now).' },
    ];
    for (const [index, { status, headers, said }] of refusals.entries()) {
      await page.unrouteAll();
      await page.route('**/v1/search/web/stream?**', (route) =>
        route.fulfill({ status, headers: { 'content-type': 'text/html', ...headers() }, body: `<html><body><h1>${status}</h1></body></html>` }),
      );
      await page.goto(`${service.origin}/?q=refused+${index}&providers=local`);
      const line = page.locator('#status[data-kind="error"]');
      await line.waitFor();
      expect(await line.textContent(), String(status)).toMatch(said);
    }
    await page.close();
  });

  it('says a deadline typed out of range, or not a number, at the field, without searching with another', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const searches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/search/')) searches.push(request.url());
    });
    await page.goto(`${service.origin}/`);
    await page.locator('#provider-chips input').first().waitFor();
    await page.locator('#q').fill('rank fusion');
    const deadline = page.getByRole('spinbutton', { name: /Deadline/ });
    // Out of range, then "1e", which the field holds as no value at all: the default deadline was searched with; and a
    // fraction in range, which the service refuses in its own words ("timeout_ms: …").
    for (const typed of ['50000', '1e', '150.5']) {
      await deadline.clear();
      await deadline.pressSequentially(typed);
      await page.locator('#q').press('Enter');
      await page.locator('#status[data-kind="error"]').waitFor();
      expect(await page.locator('#status').textContent(), typed).toBe('The deadline must be a whole number of milliseconds from 100 to 30000, or empty for the default.');
      expect(await page.evaluate('document.activeElement.id'), typed).toBe('timeout');
      expect(await deadline.getAttribute('aria-invalid'), typed).toBe('true');
      expect(new URL(page.url()).search, typed).toBe('');
    }
    expect(searches).toEqual([]);

    // Put right, the search runs with it and the field is no longer marked.
    await deadline.fill('3000');
    await page.locator('#q').press('Enter');
    await page.locator(FINISHED).waitFor();
    expect(new URL(searches[0]!).searchParams.get('timeout_ms')).toBe('3000');
    expect(await deadline.getAttribute('aria-invalid')).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says the provider list could not be loaded when the connection fails, not only the browser\'s "Failed to fetch"', async () => {
    const page = await chromium.context.newPage();
    await page.route('**/v1/providers', (route) => route.abort('internetdisconnected'));
    await page.goto(`${service.origin}/?q=rank+fusion&providers=local`);
    const status = page.locator('#status[data-kind="error"]');
    await status.waitFor();
    expect(await status.textContent()).toBe('The provider list could not be loaded (Failed to fetch). Check the connection and reload the page.');
    await page.close();
  });

  it('opens a link whose query is only spaces as the empty page, without sending a search the service refuses', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const searches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/search/')) searches.push(request.url());
    });
    await page.goto(`${service.origin}/?q=%20%20&providers=local`);
    await page.locator('#provider-chips input').first().waitFor();
    await expect.poll(() => page.evaluate('document.activeElement.id')).toBe('q');
    expect(searches).toEqual([]);
    expect(await page.locator('#status').textContent()).toBe('');
    expect(await page.locator('#results-section').isHidden()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
