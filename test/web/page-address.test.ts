import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { addressOf, isolated, settled, streamsOf } from './page-links.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');

/** The query string of the page's next search stream of `kind`, as the browser sent it. */
async function nextStream(page: Page, kind: 'web' | 'papers'): Promise<string> {
  const streamed: Request = await page.waitForRequest((request) => new URL(request.url()).pathname === `/v1/search/${kind}/stream`);
  return new URL(streamed.url()).search;
}


/**
 * The parts of a link other than a filter's value that the page read in its own way, each searching another search
 * than the link described without a word: a deadline the service refuses (the default deadline instead), a kind it
 * has no route for (a web search instead), the other kind's filters (a search without them). As for a filter's value
 * (page-filters.test.ts), the service's own answer to the same parameters says what the link asks for.
 */
describe.skipIf(!browserTestsRun())("the search page: a link's deadline, kind and the other kind's filters", () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', fixture('brave/web-search.json'));
    upstream.on('/arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'application/atom+xml' }, body: fixture('arxiv/search.xml') });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-address-key-0123456789', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  /** The status of the service's own answer to the plain search route of `kind` (as written) with `parameters`. */
  async function apiStatusFor(kind: string, parameters: string): Promise<number> {
    const response = await request(service.origin, `/v1/search/${kind}?q=rank&${parameters}`);
    return response.status;
  }

  const DEADLINE = 'The deadline must be a whole number of milliseconds from 100 to 30000, or empty for the default.';

  it("says on the deadline field a link's deadline the service refuses, and searches nothing until it is mended", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const status = page.locator('#status');
    const refused = [
      { deadline: 'timeout_ms=abc', words: `The address asks for Deadline ${isolated('abc')}. ${DEADLINE}` },
      { deadline: 'timeout_ms=0', words: `The address asks for Deadline ${isolated('0')}. ${DEADLINE}` },
      { deadline: 'timeout_ms=-5', words: `The address asks for Deadline ${isolated('-5')}. ${DEADLINE}` },
      { deadline: 'timeout_ms=99999999', words: `The address asks for Deadline ${isolated('99999999')}. ${DEADLINE}` },
      { deadline: 'timeout_ms=1.5', words: `The address asks for Deadline ${isolated('1.5')}. ${DEADLINE}` },
      { deadline: 'timeout_ms=1000&timeout_ms=2000', words: `The address asks for Deadline more than once (${isolated('1000')}, ${isolated('2000')}); a search takes one. ${DEADLINE}` },
    ];
    for (const { deadline, words } of refused) {
      // The service refuses the same parameter: the link asks for no search the page could run.
      expect(await apiStatusFor('web', `providers=brave&${deadline}`), deadline).toBe(400);
      const address = `?q=rank&kind=web&providers=brave&${deadline}`;
      await page.goto(`${service.origin}/${address}`);
      expect(await settled(page), deadline).toBe('error');
      expect(await status.textContent(), deadline).toBe(words);
      expect(await page.locator('#timeout').getAttribute('aria-invalid'), deadline).toBe('true');
      expect(await page.evaluate('document.activeElement.id'), deadline).toBe('timeout');
      expect(addressOf(page), deadline).toBe(address);
    }
    expect(streams).toEqual([]);

    // Search, nothing changed, says the same again rather than search with the default deadline.
    const link = '?q=rank&kind=web&providers=brave&timeout_ms=abc';
    await page.goto(`${service.origin}/${link}`);
    expect(await settled(page)).toBe('error');
    await page.locator('#q').press('Enter');
    expect(await status.textContent()).toBe(`The address asks for Deadline ${isolated('abc')}. ${DEADLINE}`);
    expect(streams).toEqual([]);
    expect(addressOf(page)).toBe(link);

    // Mended, the search runs with the deadline typed; Back is the link again, said again.
    await page.locator('#timeout').fill('2000');
    const mended = nextStream(page, 'web');
    await page.locator('#timeout').press('Enter');
    expect(await mended).toBe('?q=rank&providers=brave&explain=true&timeout_ms=2000');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#timeout').getAttribute('aria-invalid')).toBeNull();
    await page.goBack();
    await expect.poll(() => status.textContent()).toBe(`The address asks for Deadline ${isolated('abc')}. ${DEADLINE}`);
    expect(streams).toHaveLength(1);

    // What the service takes, the page takes, as the service reads it: 1e3 is 1000 ms, and an empty value the default.
    expect(await apiStatusFor('web', 'providers=brave&timeout_ms=1e3')).toBe(200);
    const taken = nextStream(page, 'web');
    await page.goto(`${service.origin}/?q=rank&kind=web&providers=brave&timeout_ms=1e3`);
    expect(await taken).toBe('?q=rank&providers=brave&explain=true&timeout_ms=1000');
    await page.locator('#status[data-kind="done"]').waitFor();
    const none = nextStream(page, 'web');
    await page.goto(`${service.origin}/?q=rank&kind=web&providers=brave&timeout_ms=`);
    expect(await none).toBe('?q=rank&providers=brave&explain=true');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  const KIND = 'A search is of kind web or papers, in small letters: choose Web or Papers.';

  it('says a kind the service has no search for, checks neither kind, and searches nothing until one is chosen', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const status = page.locator('#status');
    const web = page.getByLabel('Web', { exact: true });
    const papers = page.getByLabel('Papers', { exact: true });
    // The service has a route for each kind in small letters only: /v1/search/Papers is no search.
    for (const kind of ['Papers', 'images']) expect(await apiStatusFor(kind, 'providers=arxiv'), kind).toBe(404);
    expect(await apiStatusFor('papers', 'providers=arxiv')).toBe(200);
    const refused = [
      { kind: 'kind=Papers', words: `The address asks for the kind ${isolated('Papers')}. ${KIND}` },
      { kind: 'kind=images', words: `The address asks for the kind ${isolated('images')}. ${KIND}` },
      { kind: 'kind=web&kind=papers', words: `The address asks for the kind more than once (${isolated('web')}, ${isolated('papers')}); a search takes one. ${KIND}` },
    ];
    for (const { kind, words } of refused) {
      const address = `?q=rank&${kind}&providers=arxiv`;
      await page.goto(`${service.origin}/${address}`);
      expect(await settled(page), kind).toBe('error');
      expect(await status.textContent(), kind).toBe(words);
      // Neither is the link's: a web search was what the page ran in its place.
      expect([await web.isChecked(), await papers.isChecked()], kind).toEqual([false, false]);
      expect([await web.getAttribute('aria-invalid'), await papers.getAttribute('aria-invalid')], kind).toEqual(['true', 'true']);
      expect(await page.evaluate('document.activeElement.value'), kind).toBe('web');
      expect(addressOf(page), kind).toBe(address);
    }
    // Search with no kind chosen says the same again.
    await page.locator('#q').press('Enter');
    expect(await status.textContent()).toBe(`The address asks for the kind more than once (${isolated('web')}, ${isolated('papers')}); a search takes one. ${KIND}`);
    expect(streams).toEqual([]);

    // Chosen, the mark goes and the search runs, of the kind chosen.
    await papers.check();
    expect(await papers.getAttribute('aria-invalid')).toBeNull();
    const chosen = nextStream(page, 'papers');
    await page.locator('#q').press('Enter');
    expect(new URLSearchParams(await chosen).get('q')).toBe('rank');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(new URLSearchParams(addressOf(page)).get('kind')).toBe('papers');
    expect(problems).toEqual([]);
    await page.close();
  });

  /** The names of the provider chips checked. */
  const checkedChips = (page: Page): Promise<string[]> => page.locator('#provider-chips input:checked').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('value') ?? ''));

  it("keeps a link's providers when the kind it meant is chosen in place of one the service has no route for", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const papers = page.getByLabel('Papers', { exact: true });
    const web = page.getByLabel('Web', { exact: true });
    await page.goto(`${service.origin}/?q=rank&kind=Papers&providers=arxiv`);
    expect(await settled(page)).toBe('error');
    // The kind it most likely meant: its providers are all of it, and are the ones on, not that kind's defaults.
    await papers.check();
    expect(await checkedChips(page)).toEqual(['arxiv']);
    const chosen = nextStream(page, 'papers');
    await page.locator('#q').press('Enter');
    expect(await chosen).toBe('?q=rank&providers=arxiv&explain=true');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(addressOf(page)).toBe('?q=rank&kind=papers&providers=arxiv');

    // Providers of a kind other than the one chosen are not that kind's: its defaults, every configured one, are on.
    const listed = (await (await request(service.origin, '/v1/providers')).json()).providers as { name: string; kind: string; configured: boolean }[];
    const paperDefaults = listed.filter((provider) => provider.kind === 'papers' && provider.configured).map((provider) => provider.name);
    expect(paperDefaults).toContain('arxiv');
    expect(paperDefaults.length).toBeGreaterThan(1);
    await page.goto(`${service.origin}/?q=rank&kind=Papers&providers=arxiv,brave`);
    expect(await settled(page)).toBe('error');
    await papers.check();
    expect(await checkedChips(page)).toEqual(paperDefaults);
    // A switch back to the kind of a link's providers finds them on again, as the link named them.
    await page.goto(`${service.origin}/?q=rank&kind=web&providers=brave`);
    await page.locator('#status[data-kind="done"]').waitFor();
    await papers.check();
    expect(await checkedChips(page)).toEqual(paperDefaults);
    await web.check();
    expect(await checkedChips(page)).toEqual(['brave']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("says a link's filters of the other kind once the kind it meant is chosen in place of one the service has no route for", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const status = page.locator('#status');
    const address = '?q=rank&kind=Papers&providers=arxiv&time_range=day';
    await page.goto(`${service.origin}/${address}`);
    expect(await settled(page)).toBe('error');
    await page.getByLabel('Papers', { exact: true }).check();
    await page.locator('#q').press('Enter');
    // Published is a filter of web searches, which the paper search is sent without: said first, as for kind=papers.
    expect(await status.textContent()).toBe(
      `The address asks for Published ${isolated('day')}, a filter of web searches, not of paper searches. Choose Web to search with it, or press Search for a paper search without it.`,
    );
    expect(await page.evaluate('document.activeElement.value')).toBe('web');
    expect(addressOf(page)).toBe(address);
    expect(streams).toEqual([]);
    // Search again, the user told: the paper search without it.
    const papers = nextStream(page, 'papers');
    await page.locator('#q').press('Enter');
    expect(await papers).toBe('?q=rank&providers=arxiv&explain=true');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(addressOf(page)).toBe('?q=rank&kind=papers&providers=arxiv');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('searches a link of providers=auto with auto, and says which providers the service chose and why', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const status = page.locator('#status');
    // The service's own answer to the same search says whom it chooses, and why.
    const response = await request(service.origin, '/v1/search/web?q=rank&providers=auto');
    expect(response.status).toBe(200);
    const { routing } = (await response.json()) as { routing: { providers: string[]; reasons: string[] } };
    expect(routing.providers).toContain('brave');
    for (const written of ['auto', 'AUTO']) {
      const stream = nextStream(page, 'web');
      await page.goto(`${service.origin}/?q=rank&kind=web&providers=${written}`);
      expect(await stream, written).toBe('?q=rank&providers=auto&explain=true');
      expect(await settled(page), written).toBe('done');
      expect(await status.textContent(), written).toMatch(/^\d+ results? in \d+ ms/);
      expect(await status.textContent(), written).toContain(` Chosen by the service for the query: ${routing.providers.join(', ')} (${routing.reasons.join('; ')}).`);
      expect(await checkedChips(page), written).toEqual(['auto']);
      // The waterfall shows the providers asked, not a provider named "auto".
      const rows = await page.locator('#waterfall .waterfall-row').evaluateAll((found) => found.map((row) => row.getAttribute('data-provider')));
      expect(rows.sort(), written).toEqual([...routing.providers].sort());
    }
    expect(addressOf(page)).toBe('?q=rank&kind=web&providers=auto');

    // A provider chosen instead is a search of that provider alone: auto goes off, as the service takes no name beside it.
    await page.getByLabel('brave', { exact: true }).check();
    expect(await checkedChips(page)).toEqual(['brave']);
    await page.getByLabel('auto: the service chooses by the query').check();
    expect(await checkedChips(page)).toEqual(['auto']);
    await page.getByLabel('brave', { exact: true }).check();
    const chosen = nextStream(page, 'web');
    await page.locator('#q').press('Enter');
    expect(await chosen).toBe('?q=rank&providers=brave&explain=true');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await status.textContent()).not.toContain('Chosen by the service');
    expect(addressOf(page)).toBe('?q=rank&kind=web&providers=brave');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('offers auto on a page no link asked it of, chosen by hand for either kind, on a desktop and a phone', async () => {
    for (const viewport of [{ width: 1100, height: 900 }, { width: 390, height: 844 }]) {
      const page = await chromium.context.newPage();
      await page.setViewportSize(viewport);
      const problems = await watchForProblems(page);
      const width = `${viewport.width} px`;
      await page.goto(`${service.origin}/`);
      const auto = page.getByLabel('auto: the service chooses by the query');
      await auto.waitFor();
      // Offered, not chosen: a page without a link searches the kind's configured providers, as before.
      expect(await auto.isChecked(), width).toBe(false);
      const defaults = await checkedChips(page);
      expect(defaults, width).toContain('brave');
      expect(defaults, width).not.toContain('auto');
      const box = await auto.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width, width).toBe(true);

      await auto.check();
      expect(await checkedChips(page), width).toEqual(['auto']);
      // Chosen for one kind, it stays chosen for the other: the service chooses for either.
      await page.getByLabel('Papers', { exact: true }).check();
      expect(await checkedChips(page), width).toEqual(['auto']);
      await page.getByLabel('Web', { exact: true }).check();
      expect(await checkedChips(page), width).toEqual(['auto']);

      // Searched as the link providers=auto searches, and written in the address as one.
      await page.locator('#q').fill('rank');
      const stream = nextStream(page, 'web');
      await page.locator('#q').press('Enter');
      expect(await stream, width).toBe('?q=rank&providers=auto&explain=true');
      expect(await settled(page), width).toBe('done');
      expect(await page.locator('#status').textContent(), width).toContain(' Chosen by the service for the query: ');
      expect(addressOf(page), width).toBe('?q=rank&kind=web&providers=auto');
      expect(await page.evaluate('document.documentElement.scrollWidth'), width).toBeLessThanOrEqual(viewport.width);
      expect(problems, width).toEqual([]);
      await page.close();
    }
  });

  it("fills the form from a link when the provider list fails (500, 503, no connection), says so, and searches it on Search", async () => {
    const link = '?q=rank&kind=papers&providers=arxiv&year_from=2017&timeout_ms=3000';
    const failures: { name: string; fail: (route: Route) => Promise<void>; words: string | RegExp }[] = [
      { name: '500', fail: (route) => route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Internal Server Error</h1>' }), words: 'The provider list could not be loaded: HTTP 500' },
      {
        name: '503',
        // The service's own words for a load it turns away (protection.ts), as its error handler shapes them.
        fail: (route) =>
          route.fulfill({
            status: 503,
            json: { statusCode: 503, error: 'Service Unavailable', code: 'OVERLOADED', message: 'the service is overloaded (its event loop delay is past its limit) and turns requests away for now; retry after 10 s' },
          }),
        words: 'The provider list could not be loaded: the service is overloaded (its event loop delay is past its limit) and turns requests away for now; retry after 10 s',
      },
      { name: 'no connection', fail: (route) => route.abort('internetdisconnected'), words: /^The provider list could not be loaded \(.+\)\. Check the connection and reload the page\.$/ },
    ];
    for (const { name, fail, words } of failures) {
      const page = await chromium.context.newPage();
      const problems = await watchForProblems(page);
      const streams = streamsOf(page);
      let failing = true;
      await page.route(`${service.origin}/v1/providers`, (route) => (failing ? fail(route) : route.continue()));
      await page.goto(`${service.origin}/${link}`);
      expect(await settled(page), name).toBe('error');
      expect(await page.locator('#status').textContent(), name).toMatch(words);
      // The link's search, on the form: its query, kind, filter and deadline, not an empty page.
      expect(await page.locator('#q').inputValue(), name).toBe('rank');
      expect(await page.getByLabel('Papers', { exact: true }).isChecked(), name).toBe(true);
      expect(await page.locator('#filter-year-from').inputValue(), name).toBe('2017');
      expect(await page.getByLabel('Deadline').inputValue(), name).toBe('3000');
      expect(await page.locator('#provider-chips').textContent(), name).toBe('The providers could not be loaded: press Search to try again.');
      expect(streams, name).toEqual([]);

      // The service answers again: Search loads the list and runs the link's search, its providers kept.
      failing = false;
      const stream = nextStream(page, 'papers');
      await page.locator('#q').press('Enter');
      expect(await stream, name).toBe('?q=rank&providers=arxiv&explain=true&year_from=2017&timeout_ms=3000');
      await page.locator('#status[data-kind="done"]').waitFor();
      expect(await checkedChips(page), name).toEqual(['arxiv']);
      expect(addressOf(page), name).toBe(link);
      // The browser's own line for the failed request is no fault of the page's.
      expect(problems.filter((problem) => !problem.includes('Failed to load resource')), name).toEqual([]);
      await page.close();
    }
  });

  it('searches every provider of a link that names them in a repeated parameter, as the service reads it', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const response = await request(service.origin, '/v1/search/papers?q=rank&providers=arxiv&providers=crossref');
    expect(response.status).toBe(200);
    expect((await response.json()).providers.map((outcome: { provider: string }) => outcome.provider).sort()).toEqual(['arxiv', 'crossref']);
    const stream = nextStream(page, 'papers');
    await page.goto(`${service.origin}/?q=rank&kind=papers&providers=arxiv&providers=crossref`);
    expect(new URLSearchParams(await stream).get('providers')).toBe('arxiv,crossref');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await checkedChips(page)).toEqual(['arxiv', 'crossref']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("says a link's providers its kind does not have, and searches the others only once Search is pressed", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const status = page.locator('#status');
    const refused = [
      { address: '?q=rank&kind=papers&providers=arxiv,brave', words: `The address asks for provider ${isolated('brave')}, which paper searches here do not have. Press Search to search the providers checked without it, or choose others.` },
      {
        address: '?q=rank&kind=web&providers=brave,arxiv,gone',
        words: `The address asks for providers ${isolated('arxiv')}, ${isolated('gone')}, which web searches here do not have. Press Search to search the providers checked without them, or choose others.`,
      },
    ];
    for (const { address, words } of refused) {
      // The service refuses a search naming a provider its kind does not have.
      const params = new URLSearchParams(address);
      const kind = params.get('kind')!;
      params.delete('kind');
      const response = await request(service.origin, `/v1/search/${kind}?${params}`);
      expect(response.status, address).toBe(400);
      expect((await response.json()).message, address).toMatch(/^providers: /);
      await page.goto(`${service.origin}/${address}`);
      expect(await settled(page), address).toBe('error');
      expect(await status.textContent(), address).toBe(words);
      expect(addressOf(page), address).toBe(address);
    }
    expect(streams).toEqual([]);
    // The keyboard on the chips, to choose others.
    expect(await page.evaluate('document.activeElement.value')).toBe('brave');

    // Search, the user told, searches those it has.
    const web = nextStream(page, 'web');
    await page.locator('#q').press('Enter');
    expect(await web).toBe('?q=rank&providers=brave&explain=true');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(addressOf(page)).toBe('?q=rank&kind=web&providers=brave');
    expect(problems).toEqual([]);
    await page.close();
  });

  it("says a link's filters of the other kind, keeps them on that kind's fields, and does not search without them", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const status = page.locator('#status');
    const aside = [
      {
        address: '?q=rank&kind=papers&providers=arxiv&time_range=day',
        words: `The address asks for Published ${isolated('day')}, a filter of web searches, not of paper searches. Choose Web to search with it, or press Search for a paper search without it.`,
        choice: 'web',
      },
      {
        address: '?q=rank&kind=web&providers=brave&year_from=2000&open_access=1',
        words: `The address asks for From year ${isolated('2000')} and Open access only ${isolated('1')}, filters of paper searches, not of web searches. Choose Papers to search with them, or press Search for a web search without them.`,
        choice: 'papers',
      },
    ];
    for (const { address, words, choice } of aside) {
      // The service refuses them as fields the kind does not have.
      const params = new URLSearchParams(address);
      params.delete('kind');
      expect(await apiStatusFor(new URLSearchParams(address).get('kind')!, params.toString()), address).toBe(400);
      await page.goto(`${service.origin}/${address}`);
      expect(await settled(page), address).toBe('error');
      expect(await status.textContent(), address).toBe(words);
      // The keyboard on the kind they are filters of.
      expect(await page.evaluate('document.activeElement.value'), address).toBe(choice);
      expect(addressOf(page), address).toBe(address);
    }
    expect(streams).toEqual([]);

    // Search, the user told, is the web search without them, as after a switch of kind.
    const web = nextStream(page, 'web');
    await page.locator('#q').press('Enter');
    expect(await web).toBe('?q=rank&providers=brave&explain=true');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(addressOf(page)).toBe('?q=rank&kind=web&providers=brave');
    // Back is the link again, said again.
    await page.goBack();
    await expect.poll(() => status.textContent()).toBe(aside[1]!.words);
    expect(streams).toHaveLength(1);
    // Their kind chosen, its fields hold them as the link wrote them.
    await page.getByLabel('Papers', { exact: true }).check();
    expect(await page.locator('#filter-year-from').inputValue()).toBe('2000');
    expect(await page.locator('#filter-open-access').isChecked()).toBe(true);

    // A value of the other kind's the service would refuse is that field's problem, once its kind is chosen.
    await page.goto(`${service.origin}/?q=rank&kind=papers&providers=arxiv&time_range=decade`);
    expect(await settled(page)).toBe('error');
    await page.getByLabel('Web', { exact: true }).check();
    for (const chip of await page.locator('#provider-chips input').all()) await chip.setChecked((await chip.getAttribute('value')) === 'brave');
    await page.locator('#q').press('Enter');
    expect(await status.textContent()).toBe(
      `The address asks for Published ${isolated('decade')}. Published must be one of its choices: Any time, Past day, Past week, Past month, Past year.`,
    );
    expect(await page.locator('#filter-time-range').getAttribute('aria-invalid')).toBe('true');
    expect(streams).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });
});
