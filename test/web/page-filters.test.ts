import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { accessibleTextOf } from './accessibility-tree.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { addressOf, isolated, settled, streamsOf } from './page-links.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');

/** The query string of the page's next search stream, as the browser sent it. */
function nextStream(page: Page, kind: 'web' | 'papers'): Promise<Request> {
  return page.waitForRequest((request) => new URL(request.url()).pathname === `/v1/search/${kind}/stream`);
}

const queryOf = (request: Request): string => new URL(request.url()).search;

describe.skipIf(!browserTestsRun())('the search page: filters', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', fixture('brave/web-search.json'));
    upstream.on('/arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'application/atom+xml' }, body: fixture('arxiv/search.xml') });
    upstream.json('/crossref/works', fixture('crossref/works-query.json'));
    // A full first page and a short second one: the answer says more may follow.
    upstream.on('/searxng/search', {
      kind: 'handler',
      handle: (request, response) => {
        const pageno = Number(request.url.searchParams.get('pageno') ?? '1');
        const results = Array.from({ length: pageno === 1 ? 10 : 3 }, (_, index) => ({
          title: `Paged ${pageno}.${index}`,
          url: `https://paged.example/${pageno}/${index}`,
          content: 'A paged result.',
        }));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-filters-key-0123456789', LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('sets the web filters by keyboard, folded to a count, and sends them in the stream request and the address bar', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=rank+fusion&providers=brave,local`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const summary = page.locator('#filters summary');
    // Folded by default, nothing set: no count.
    expect(await page.locator('#filters').getAttribute('open')).toBeNull();
    expect((await summary.textContent())?.trim()).toBe('Filters');
    expect(await page.locator('#filter-time-range').isVisible()).toBe(false);

    // The keyboard opens the filters and goes from control to control, in the order they are shown.
    await summary.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#filters').getAttribute('open')).not.toBeNull();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('filter-time-range');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#filter-time-range').inputValue()).toBe('week');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('filter-language');
    // Any letter case: the service reads PT-br as pt-BR.
    await page.keyboard.type('PT-br');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('filter-safesearch');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#filter-safesearch').inputValue()).toBe('off');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('filter-include-domains');
    await page.keyboard.type('example.com , , docs.example.org/guide');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('filter-exclude-domains');
    await page.keyboard.type('spam.example');

    // Each labelled, the domain fields described by the note saying how to write a list.
    expect((await accessibleTextOf(page, '#filter-include-domains'))[0]).toEqual({
      name: 'Only these domains',
      description: 'Domains separated by commas, up to 20, such as example.com, docs.example.com/guide; subdomains count.',
    });
    expect((await accessibleTextOf(page, '#filter-language'))[0]?.name).toBe('Language');

    // Folded again, the summary says how many are set.
    await summary.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#filters').getAttribute('open')).toBeNull();
    expect((await summary.textContent())?.trim()).toBe('Filters (5 set)');
    expect((await accessibleTextOf(page, '#filters summary'))[0]?.name).toBe('Filters (5 set)');

    // No search until the user asks for one: the page's rule for its controls (the providers, the kind).
    expect(addressOf(page)).toBe('?q=rank+fusion&kind=web&providers=brave%2Clocal');
    const stream = nextStream(page, 'web');
    await page.locator('#q').press('Enter');
    expect(queryOf(await stream)).toBe(
      '?q=rank+fusion&providers=brave%2Clocal&explain=true&time_range=week&language=PT-br&safesearch=off' +
        '&include_domains=example.com%2Cdocs.example.org%2Fguide&exclude_domains=spam.example',
    );
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(addressOf(page)).toBe(
      '?q=rank+fusion&kind=web&providers=brave%2Clocal&time_range=week&language=PT-br&safesearch=off' +
        '&include_domains=example.com%2Cdocs.example.org%2Fguide&exclude_domains=spam.example',
    );
    // The service took them and passed them on: Brave is asked for the past week, in Portuguese, unfiltered.
    const braveAsked = upstream.requestsTo('/brave/res/v1/web/search').at(-1)!.url.searchParams;
    expect([braveAsked.get('freshness'), braveAsked.get('search_lang'), braveAsked.get('safesearch')]).toEqual(['pw', 'pt-br', 'off']);

    // The provider a filter left out says so, in words, under its bar.
    const local = page.locator('#waterfall [data-provider="local"]');
    expect(await local.getAttribute('data-status')).toBe('skipped');
    expect(await local.locator('.outcome-message').isVisible()).toBe(true);
    expect(await local.locator('.outcome-message').textContent()).toBe('cannot filter by language');
    // And on the status line, read out with the answer: left out, and why, not "did not answer".
    expect(await page.locator('#status').textContent()).toMatch(/ Skipped: local: cannot filter by language\.$/);
    expect(await page.locator('#status').textContent()).not.toContain('did not answer');

    // Reloaded (or opened from a link), the page holds the same filters, folded, counted, and searches with them.
    const again = nextStream(page, 'web');
    await page.reload();
    expect(queryOf(await again)).toContain('&time_range=week&language=PT-br&safesearch=off&include_domains=example.com%2Cdocs.example.org%2Fguide&exclude_domains=spam.example');
    expect(await page.locator('#filter-include-domains').inputValue()).toBe('example.com,docs.example.org/guide');
    expect((await summary.textContent())?.trim()).toBe('Filters (5 set)');
    expect(problems).toEqual([]);
    await page.close();
  });

  /** The status of the service's own answer to the plain search route with the same filter parameters. */
  async function apiStatusFor(kind: 'web' | 'papers', filters: string): Promise<number> {
    const response = await request(service.origin, `/v1/search/${kind}?q=rank&providers=${kind === 'web' ? 'brave' : 'arxiv'}&${filters}`);
    return response.status;
  }

  const PUBLISHED = 'Published must be one of its choices: Any time, Past day, Past week, Past month, Past year.';
  const FROM_YEAR = 'From year must be a year from 1000 to 2100, or empty for any.';

  it("says on its field a link's filter value the service refuses, and searches nothing until it is mended", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const status = page.locator('#status');
    const refused = [
      { kind: 'web', filters: 'time_range=decade', field: '#filter-time-range', words: `The address asks for Published ${isolated('decade')}. ${PUBLISHED}` },
      { kind: 'web', filters: 'safesearch=maybe', field: '#filter-safesearch', words: `The address asks for Safe search ${isolated('maybe')}. Safe search must be one of its choices: Providers' default, Off, Moderate, Strict.` },
      { kind: 'web', filters: 'language=english', field: '#filter-language', words: `The address asks for Language ${isolated('english')}. Language must be a language code such as en or pt-BR, or empty for any.` },
      { kind: 'papers', filters: 'year_from=abc', field: '#filter-year-from', words: `The address asks for From year ${isolated('abc')}. ${FROM_YEAR}` },
      { kind: 'papers', filters: 'year_from=2020.5', field: '#filter-year-from', words: `The address asks for From year ${isolated('2020.5')}. ${FROM_YEAR}` },
      { kind: 'papers', filters: 'open_access=TRUE', field: '#filter-open-access', words: `The address asks for Open access only ${isolated('TRUE')}. Open access only must be ticked or clear: true or 1, false or 0 in an address.` },
      { kind: 'papers', filters: 'open_access=yes', field: '#filter-open-access', words: `The address asks for Open access only ${isolated('yes')}. Open access only must be ticked or clear: true or 1, false or 0 in an address.` },
    ] as const;
    for (const { kind, filters, field, words } of refused) {
      // The service refuses the same parameter: the link asks for no search the page could run.
      expect(await apiStatusFor(kind, filters), filters).toBe(400);
      const address = `?q=rank&kind=${kind}&providers=${kind === 'web' ? 'brave' : 'arxiv'}&${filters}`;
      await page.goto(`${service.origin}/${address}`);
      expect(await settled(page), filters).toBe('error');
      expect(await status.textContent(), filters).toBe(words);
      expect(await page.locator(field).getAttribute('aria-invalid'), filters).toBe('true');
      expect(await page.locator('#filters').getAttribute('open'), filters).not.toBeNull();
      expect(await page.evaluate('"#" + document.activeElement.id'), filters).toBe(field);
      expect(addressOf(page), filters).toBe(address);
    }
    expect(streams).toEqual([]);
    // Each field holds what it can of the address's value, and none reads as "any": a list at no entry, a box neither
    // ticked nor clear, a year with a fraction or a language as written.
    expect(await page.locator('#filter-open-access').evaluate((box) => (box as unknown as { indeterminate: boolean }).indeterminate)).toBe(true);
    await page.goto(`${service.origin}/?q=rank&kind=papers&providers=arxiv&year_from=2020.5`);
    expect(await settled(page)).toBe('error');
    expect(await page.locator('#filter-year-from').inputValue()).toBe('2020.5');

    // What the service takes, the page takes, as the service reads it: 0 is no filter, 2e3 the year 2000, PT-br a code.
    for (const [kind, filters] of [['papers', 'open_access=0&year_from=2e3'], ['web', 'language=PT-br&time_range=week']] as const) {
      expect(await apiStatusFor(kind, filters), filters).toBe(200);
    }
    const papers = nextStream(page, 'papers');
    await page.goto(`${service.origin}/?q=rank&kind=papers&providers=arxiv&open_access=0&year_from=2e3`);
    expect(queryOf(await papers)).toBe('?q=rank&providers=arxiv&explain=true&year_from=2000');
    await page.locator('#status[data-kind="done"]').waitFor();
    streams.length = 0;

    // Marked, the link stays in the address: the Explain switch changes its own parameter only, and Search (nothing
    // changed) says the same again rather than search for any time.
    const link = '?q=rank&kind=web&providers=brave&time_range=decade';
    await page.goto(`${service.origin}/${link}`);
    expect(await settled(page)).toBe('error');
    expect(await page.locator('#filter-time-range').evaluate((select) => (select as unknown as { selectedIndex: number }).selectedIndex)).toBe(-1);
    await page.getByLabel('Explain scores').check();
    expect(addressOf(page)).toBe(`${link}&explain=true`);
    await page.getByLabel('Explain scores').uncheck();
    expect(addressOf(page)).toBe(link);
    await page.locator('#q').press('Enter');
    expect(await status.textContent()).toBe(`The address asks for Published ${isolated('decade')}. ${PUBLISHED}`);
    expect(streams).toEqual([]);

    // Mended, the search runs, and is a step of its own in the history: Back is the link again, said again, unsearched.
    await page.getByLabel('Published').selectOption('week');
    const mended = nextStream(page, 'web');
    await page.locator('#q').press('Enter');
    expect(queryOf(await mended)).toBe('?q=rank&providers=brave&explain=true&time_range=week');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#filter-time-range').getAttribute('aria-invalid')).toBeNull();
    expect(addressOf(page)).toBe('?q=rank&kind=web&providers=brave&time_range=week');
    // Back is handled in the page (popstate), its status line still the search's: wait for the words, not a kind.
    await page.goBack();
    await expect.poll(() => status.textContent()).toBe(`The address asks for Published ${isolated('decade')}. ${PUBLISHED}`);
    expect(await status.getAttribute('data-kind')).toBe('error');
    expect(await page.locator('#results li').count()).toBe(0);
    expect(addressOf(page)).toBe(link);
    // Forward is the mended search; a reload of the link says it again.
    const forward = nextStream(page, 'web');
    await page.goForward();
    expect(queryOf(await forward)).toBe('?q=rank&providers=brave&explain=true&time_range=week');
    await page.locator('#status[data-kind="done"]').waitFor();
    await page.goBack();
    await expect.poll(() => status.getAttribute('data-kind')).toBe('error');
    await page.reload();
    expect(await settled(page)).toBe('error');
    expect(await status.textContent()).toBe(`The address asks for Published ${isolated('decade')}. ${PUBLISHED}`);
    expect(streams).toEqual(['/v1/search/web/stream?q=rank&providers=brave&explain=true&time_range=week', '/v1/search/web/stream?q=rank&providers=brave&explain=true&time_range=week']);
    expect(addressOf(page)).toBe(link);

    // A long value is quoted cut: it is the caller's text.
    await page.goto(`${service.origin}/?q=rank&providers=brave&language=${'x'.repeat(300)}`);
    expect(await settled(page)).toBe('error');
    expect(await status.textContent()).toBe(`The address asks for Language ${isolated(`${'x'.repeat(40)}…`)}. Language must be a language code such as en or pt-BR, or empty for any.`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('refuses a repeated one-value filter in a link, as the service does, rather than search with one of them', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const status = page.locator('#status');
    const repeated = [
      { kind: 'web', filters: 'time_range=day&time_range=week', field: '#filter-time-range', words: `The address asks for Published more than once (${isolated('day')}, ${isolated('week')}); a search takes one. ${PUBLISHED}` },
      { kind: 'papers', filters: 'year_from=2000&year_from=2010', field: '#filter-year-from', words: `The address asks for From year more than once (${isolated('2000')}, ${isolated('2010')}); a search takes one. ${FROM_YEAR}` },
    ] as const;
    for (const { kind, filters, field, words } of repeated) {
      expect(await apiStatusFor(kind, filters), filters).toBe(400);
      const address = `?q=rank&kind=${kind}&providers=${kind === 'web' ? 'brave' : 'arxiv'}&${filters}`;
      await page.goto(`${service.origin}/${address}`);
      expect(await settled(page), filters).toBe('error');
      expect(await status.textContent(), filters).toBe(words);
      expect(await page.locator(field).getAttribute('aria-invalid'), filters).toBe('true');
      expect(await page.locator(field).inputValue(), filters).toBe('');
      expect(addressOf(page), filters).toBe(address);
    }
    expect(streams).toEqual([]);

    // Mended, the year searches; Back is the link again, said again.
    await page.getByLabel('From year').fill('2010');
    const mended = nextStream(page, 'papers');
    await page.getByLabel('From year').press('Enter');
    expect(queryOf(await mended)).toBe('?q=rank&providers=arxiv&explain=true&year_from=2010');
    await page.locator('#status[data-kind="done"]').waitFor();
    await page.goBack();
    await expect.poll(() => status.textContent()).toBe(repeated[1].words);
    expect(streams).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("reads a link's filters as the service reads the same parameters: a repeated domain list whole, open_access=1 as true", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    // The service takes both forms of a list (README "include_domains=a.org&include_domains=b.org") and 1 for true.
    const web = nextStream(page, 'web');
    await page.goto(`${service.origin}/?q=rank&providers=brave&include_domains=example.com&include_domains=docs.example.org&exclude_domains=spam.example&exclude_domains=junk.example`);
    expect(queryOf(await web)).toBe('?q=rank&providers=brave&explain=true&include_domains=example.com%2Cdocs.example.org&exclude_domains=spam.example%2Cjunk.example');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#filter-include-domains').inputValue()).toBe('example.com,docs.example.org');
    expect(await page.locator('#filter-exclude-domains').inputValue()).toBe('spam.example,junk.example');
    expect(addressOf(page)).toBe('?q=rank&kind=web&providers=brave&include_domains=example.com%2Cdocs.example.org&exclude_domains=spam.example%2Cjunk.example');

    const papers = nextStream(page, 'papers');
    await page.goto(`${service.origin}/?q=transformers&kind=papers&providers=arxiv&open_access=1`);
    expect(queryOf(await papers)).toBe('?q=transformers&providers=arxiv&explain=true&open_access=true');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await page.locator('#filter-open-access').isChecked()).toBe(true);
    expect((await page.locator('#filters summary').textContent())?.trim()).toBe('Filters (1 set)');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says why a search whose every provider a filter left out found nothing, rather than to search again', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=rank&providers=local&language=de`);
    const status = page.locator('#status[data-kind="error"]');
    await status.waitFor();
    expect(await status.textContent()).toBe('No results: the provider asked was skipped (local: cannot filter by language). Change the filters or the providers.');
    expect(await page.locator('#announcement').textContent()).toBe(await status.textContent());
    await page.close();
  });

  it("restores the papers filters from a link, keeps each kind's values across the switch and sends only the current kind's", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const stream = nextStream(page, 'papers');
    await page.goto(`${service.origin}/?q=transformers&kind=papers&providers=arxiv,crossref&year_from=2017&year_to=2019&open_access=true`);
    expect(queryOf(await stream)).toBe('?q=transformers&providers=arxiv%2Ccrossref&explain=true&year_from=2017&year_to=2019&open_access=true');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect((await page.locator('#filters summary').textContent())?.trim()).toBe('Filters (3 set)');
    expect(await page.locator('#filter-year-from').inputValue()).toBe('2017');
    expect(await page.locator('#filter-year-to').inputValue()).toBe('2019');
    expect(await page.locator('#filter-open-access').isChecked()).toBe(true);
    const arxivAsked = upstream.requestsTo('/arxiv/api/query').at(-1)!.url.searchParams.get('search_query');
    expect(arxivAsked).toContain('submittedDate:[201701010000 TO 201912312359]');
    expect(await page.locator('#waterfall [data-provider="crossref"] .outcome-message').textContent()).toBe('cannot filter by open_access');

    // Web's filters in place of the papers', each kind keeping its own.
    await page.locator('#filters summary').click();
    await page.getByLabel('Web', { exact: true }).check();
    expect(await page.locator('#filter-year-from').isVisible()).toBe(false);
    expect((await page.locator('#filters summary').textContent())?.trim()).toBe('Filters');
    await page.getByLabel('Published').selectOption('day');
    expect((await page.locator('#filters summary').textContent())?.trim()).toBe('Filters (1 set)');
    await page.getByLabel('Papers', { exact: true }).check();
    expect(await page.locator('#filter-year-from').inputValue()).toBe('2017');
    expect(await page.locator('#filter-time-range').isVisible()).toBe(false);
    await page.getByLabel('Web', { exact: true }).check();
    expect(await page.locator('#filter-time-range').inputValue()).toBe('day');

    // The web search carries the web filter only: the papers' would be refused as unknown fields.
    // Only local: the web chips start with every configured provider on.
    for (const chip of await page.locator('#provider-chips input').all()) await chip.setChecked((await chip.getAttribute('value')) === 'local');
    const web = nextStream(page, 'web');
    await page.locator('#q').press('Enter');
    expect(queryOf(await web)).toBe('?q=transformers&providers=local&explain=true&time_range=day');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(addressOf(page)).toBe('?q=transformers&kind=web&providers=local&time_range=day');

    // Back is the papers search again, with its filters.
    const back = nextStream(page, 'papers');
    await page.goBack();
    expect(queryOf(await back)).toContain('&year_from=2017&year_to=2019&open_access=true');
    expect(await page.locator('#filter-year-to').inputValue()).toBe('2019');
    expect(await page.locator('#filter-year-to').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says a year out of range, or years in the wrong order, on the field before searching', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=attention&kind=papers&providers=arxiv`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const streams: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/stream')) streams.push(request.url());
    });
    await page.locator('#filters summary').click();
    const from = page.getByLabel('From year');
    await from.fill('2020');
    await page.getByLabel('To year').fill('2010');
    await page.getByLabel('To year').press('Enter');
    const status = page.locator('#status');
    expect(await status.getAttribute('data-kind')).toBe('error');
    expect(await status.textContent()).toBe('From year (2020) is after to year (2010): no paper can match. Swap them, or empty one.');
    expect(await from.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate('document.activeElement.id')).toBe('filter-year-from');

    await from.fill('999');
    await from.press('Enter');
    expect(await status.textContent()).toBe('From year must be a year from 1000 to 2100, or empty for any.');
    expect(streams).toEqual([]);
    expect(addressOf(page)).toBe('?q=attention&kind=papers&providers=arxiv');

    // Mended, the search runs, and the mark goes.
    await from.fill('2005');
    const stream = nextStream(page, 'papers');
    await from.press('Enter');
    expect(queryOf(await stream)).toBe('?q=attention&providers=arxiv&explain=true&year_from=2005&year_to=2010');
    expect(await from.getAttribute('aria-invalid')).toBeNull();
    await page.locator('#status[data-kind="done"]').waitFor();

    // From a link, the same words, and no search.
    await page.goto(`${service.origin}/?q=attention&kind=papers&providers=arxiv&year_from=2030&year_to=2020`);
    await expect.poll(() => status.textContent()).toBe('From year (2030) is after to year (2020): no paper can match. Swap them, or empty one.');
    expect(await page.locator('#filters').getAttribute('open')).not.toBeNull();
    expect(streams).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the service's refusal of a domain entry as an error naming the field and the entry, and marks the field", async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=rank&providers=brave&include_domains=example.com,not+a+domain`);
    const status = page.locator('#status[data-kind="error"]');
    await status.waitFor();
    // The page's name for the field and the entry it refused, then the service's reason.
    expect(await status.textContent()).toMatch(/^Only these domains, “not a domain”: not a domain name; allowed: /);
    const field = page.locator('#filter-include-domains');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    // Unfolded, so the field marked can be seen and mended; the keyboard is on it.
    expect(await field.isVisible()).toBe(true);
    expect(await page.evaluate('document.activeElement.id')).toBe('filter-include-domains');
    expect(await page.locator('#waterfall-section').isHidden()).toBe(true);

    await field.fill('example.com');
    const stream = nextStream(page, 'web');
    await field.press('Enter');
    expect(queryOf(await stream)).toBe('?q=rank&providers=brave&explain=true&include_domains=example.com');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBeNull();

    // A language code the field itself knows is malformed is said before searching, as a year out of range is.
    const streams: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/stream')) streams.push(request.url());
    });
    await page.getByLabel('Language').fill('english');
    await page.getByLabel('Language').press('Enter');
    expect(await page.locator('#status').textContent()).toBe('Language must be a language code such as en or pt-BR, or empty for any.');
    expect(await page.getByLabel('Language').getAttribute('aria-invalid')).toBe('true');
    expect(streams).toEqual([]);
    await page.close();
  });

  it('says, when the kind is switched by hand, which filters of the kind left its search goes without, on a desktop and a phone', async () => {
    for (const viewport of [{ width: 1100, height: 900 }, { width: 390, height: 844 }]) {
      const page = await chromium.context.newPage();
      await page.setViewportSize(viewport);
      const problems = await watchForProblems(page);
      const status = page.locator('#status');
      const announcement = page.locator('#announcement');
      const width = `${viewport.width} px`;
      await page.goto(`${service.origin}/?q=transformers&kind=web&providers=brave&time_range=day&language=en`);
      await page.locator('#status[data-kind="done"]').waitFor();

      // Papers has no filter of the web's: its search goes without the two set, and the user is told so, out loud too.
      await page.getByLabel('Papers', { exact: true }).check();
      const webLeft = 'Published and Language are filters of web searches: a paper search is sent without them. They stay set for when you choose Web again.';
      expect(await status.textContent(), width).toBe(webLeft);
      expect(await announcement.textContent(), width).toBe(webLeft);
      expect(await status.isVisible(), width).toBe(true);
      expect(await page.evaluate('document.documentElement.scrollWidth'), width).toBeLessThanOrEqual(viewport.width);

      // One paper filter set, then back to the web: said of it, in the singular.
      await page.locator('#filters summary').click();
      await page.getByLabel('From year').fill('2017');
      await page.getByLabel('Web', { exact: true }).check();
      expect(await status.textContent(), width).toBe('From year is a filter of paper searches: a web search is sent without it. It stays set for when you choose Papers again.');
      // The web's own came back with the switch, and are the ones sent.
      const web = nextStream(page, 'web');
      await page.locator('#q').press('Enter');
      expect(queryOf(await web), width).toBe('?q=transformers&providers=brave&explain=true&time_range=day&language=en');
      await page.locator('#status[data-kind="done"]').waitFor();

      // A switch with nothing set on the kind left has nothing to say: the answer's words stay.
      const answered = await status.textContent();
      await page.getByLabel('Published').selectOption('');
      await page.getByLabel('Language').fill('');
      await page.getByLabel('Papers', { exact: true }).check();
      expect(await status.textContent(), width).toBe(answered);
      expect(problems, width).toEqual([]);
      await page.close();
    }
  });

  it('asks for the next page with the same filters', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=paged&providers=searxng&time_range=month&language=de`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const askedBefore = upstream.requestsTo('/searxng/search').length;
    const next = page.waitForRequest((request) => new URL(request.url()).searchParams.get('page') === '2');
    await page.locator('#more-results').click();
    const asked = await next;
    expect(new URL(asked.url()).pathname).toBe('/v1/search/web');
    expect(queryOf(asked)).toBe('?q=paged&providers=searxng&explain=true&time_range=month&language=de&page=2');
    await page.locator('#status[data-kind="done"]', { hasText: 'page 2,' }).waitFor();
    // SearXNG, asked deeper for page 2, is asked with the filters each time.
    const deeper = upstream.requestsTo('/searxng/search').slice(askedBefore).map((request) => request.url.searchParams);
    expect(deeper.length).toBeGreaterThan(0);
    for (const asked of deeper) expect([asked.get('time_range'), asked.get('language')]).toEqual(['month', 'de']);
    await page.close();
  });

  it('fits the open filters on the narrowest phone', async () => {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto(`${service.origin}/?q=rank&providers=local`);
    await page.locator('#status[data-kind="done"]').waitFor();
    await page.locator('#filters summary').click();
    const boxes = await page.$$eval('#web-filters input, #web-filters select', (controls) => controls.map((control) => control.getBoundingClientRect().right));
    expect(boxes).toHaveLength(5);
    for (const right of boxes) expect(right).toBeLessThanOrEqual(320);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
    await page.close();
  });
});
