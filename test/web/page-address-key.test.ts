import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { addressOf, isolated, streamsOf } from './page-links.js';
import { watchForProblems } from './page-problems.js';

const fixture = (name: string): string => readFileSync(path.resolve('test/fixtures', name), 'utf8');


const WAITING = 'Enter the API key first; the search runs once it is accepted.';

/**
 * A link followed on a service that needs an API key, by someone with none yet: the page asks for the key, and a
 * Search pressed before it must be the link's search, checked as it is with a key. Written from an empty form before
 * any check, the address lost the link's kind, providers and the values the page refuses, and the search the key
 * started was another than the link described.
 */
describe.skipIf(!browserTestsRun())('the search page: a link followed before the API key is given', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;
  const key = 'page-address-key-0123456789';

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'application/atom+xml' }, body: fixture('arxiv/search.xml') });
    service = await startService({ ...providerEnv(upstream.origin), API_KEYS: key, LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  /** Opens `address` with no key kept, and waits for the page to ask for one. */
  async function openWithoutKey(page: Page, address: string): Promise<void> {
    await page.goto(`${service.origin}/${address}`);
    await page.getByLabel('API key').waitFor();
    await expect.poll(() => page.locator('#status').textContent()).toBe('This service needs an API key.');
  }

  /**
   * Gives the key and waits for the provider chips, which come with the list the key opens, in the same step as the
   * page's reading of the address: returns what the status line then says of it.
   */
  async function giveKey(page: Page): Promise<string | null> {
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.locator('#provider-chips input').first().waitFor();
    return page.locator('#status').textContent();
  }

  it("keeps a link's filter value the service refuses, says it on Search before the key and once the key is given, and searches nothing", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const status = page.locator('#status');
    const link = '?q=rank&kind=web&providers=local&time_range=decade';
    // With the key, the service refuses it: the link asks for no search the page could run.
    const refusedByApi = await request(service.origin, '/v1/search/web?q=rank&providers=local&time_range=decade', { headers: { authorization: `Bearer ${key}` } });
    expect(refusedByApi.status).toBe(400);
    expect(JSON.stringify(await refusedByApi.json())).toContain('time_range');
    const words = `The address asks for Published ${isolated('decade')}. Published must be one of its choices: Any time, Past day, Past week, Past month, Past year.`;

    await openWithoutKey(page, link);
    // The link's search is on the form while the key is asked for: its query, not an empty box.
    expect(await page.locator('#q').inputValue()).toBe('rank');
    await page.locator('#q').press('Enter');
    // Said and marked as without a key, rather than dropped from the address to wait for the key.
    expect(await status.textContent()).toBe(words);
    expect(await page.locator('#filter-time-range').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate('document.activeElement.id')).toBe('filter-time-range');
    expect(addressOf(page)).toBe(link);

    // The key given, the page says the link's value instead of searching without it.
    expect(await giveKey(page)).toBe(words);
    expect(await page.locator('#key-form').isHidden()).toBe(true);
    expect(await page.locator('#filter-time-range').getAttribute('aria-invalid')).toBe('true');
    expect(addressOf(page)).toBe(link);
    expect(streams).toEqual([]);
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it("keeps a link's kind and providers when Search is pressed before the key, and the key then runs the link's search", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const link = '?q=rank&kind=papers&providers=arxiv';
    await openWithoutKey(page, link);
    expect(await page.getByLabel('Papers', { exact: true }).isChecked()).toBe(true);
    await page.locator('#q').press('Enter');
    expect(await page.locator('#status').textContent()).toBe(WAITING);
    expect(await page.evaluate('document.activeElement.id')).toBe('api-key');
    expect(addressOf(page)).toBe(link);

    await giveKey(page);
    await page.locator('#status[data-kind="done"]').waitFor();
    // A paper search of arxiv alone, as the link asked: not a web search of every default provider.
    expect(streams).toEqual(['/v1/search/papers/stream?q=rank&providers=arxiv&explain=true']);
    expect(addressOf(page)).toBe(link);
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it("keeps a link's filters of the other kind when Search is pressed before the key, and says them once it is given", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const status = page.locator('#status');
    const link = '?q=rank&kind=papers&providers=arxiv&time_range=day';
    await openWithoutKey(page, link);
    await page.locator('#q').press('Enter');
    expect(await status.textContent()).toBe(WAITING);
    expect(addressOf(page)).toBe(link);

    // Said as on a link followed with the key, not a paper search run without them, unsaid.
    const words = `The address asks for Published ${isolated('day')}, a filter of web searches, not of paper searches. Choose Web to search with it, or press Search for a paper search without it.`;
    expect(await giveKey(page)).toBe(words);
    expect(streams).toEqual([]);
    expect(addressOf(page)).toBe(link);
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it('runs a link of a kind chosen in place of one the service has no route for with its providers, once the key is given', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    await openWithoutKey(page, '?q=rank&kind=Papers&providers=arxiv');
    await page.locator('#q').press('Enter');
    expect(await page.locator('#status').textContent()).toBe(
      `The address asks for the kind ${isolated('Papers')}. A search is of kind web or papers, in small letters: choose Web or Papers.`,
    );
    await page.getByLabel('Papers', { exact: true }).check();
    await page.locator('#q').press('Enter');
    expect(await page.locator('#status').textContent()).toBe(WAITING);
    expect(addressOf(page)).toBe('?q=rank&kind=papers&providers=arxiv');

    await giveKey(page);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(streams).toEqual(['/v1/search/papers/stream?q=rank&providers=arxiv&explain=true']);
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it("says a link's filters of the kind not chosen in place of one the service has no route for, before the key, then searches without them", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const status = page.locator('#status');
    await openWithoutKey(page, '?q=rank&kind=Papers&providers=arxiv&time_range=day');
    await page.getByLabel('Papers', { exact: true }).check();
    await page.locator('#q').press('Enter');
    // Published is a filter of web searches: a paper search is sent without it, and the user is told first.
    expect(await status.textContent()).toBe(
      `The address asks for Published ${isolated('day')}, a filter of web searches, not of paper searches. Choose Web to search with it, or press Search for a paper search without it.`,
    );
    expect(addressOf(page)).toBe('?q=rank&kind=Papers&providers=arxiv&time_range=day');
    // Search again, the user told: the paper search without it, once the key is given.
    await page.locator('#q').press('Enter');
    expect(await status.textContent()).toBe(WAITING);
    await giveKey(page);
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(streams).toEqual(['/v1/search/papers/stream?q=rank&providers=arxiv&explain=true']);
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it('runs a link of providers=auto with auto once the key is given, and says whom the service chose', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    await openWithoutKey(page, '?q=rank&kind=papers&providers=auto');
    await page.locator('#q').press('Enter');
    expect(await page.locator('#status').textContent()).toBe(WAITING);
    expect(addressOf(page)).toBe('?q=rank&kind=papers&providers=auto');
    await giveKey(page);
    await page.locator('#status[data-kind="done"], #status[data-kind="error"]').waitFor();
    expect(streams).toEqual(['/v1/search/papers/stream?q=rank&providers=auto&explain=true']);
    expect(await page.locator('#status').textContent()).toContain(' Chosen by the service for the query: ');
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it("keeps fields changed but not searched before the key is given, rather than the link's values, and searches them on Search", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const link = '?q=rank&kind=papers&providers=arxiv';
    await openWithoutKey(page, link);
    await page.locator('#q').fill('attention');
    await page.getByLabel('Deadline').fill('3000');

    // What was typed stays, and is not searched unasked: the user is told that Search searches it.
    expect(await giveKey(page)).toBe('The API key was accepted. The form keeps your changes: press Search to search them.');
    expect(await page.locator('#q').inputValue()).toBe('attention');
    expect(await page.getByLabel('Deadline').inputValue()).toBe('3000');
    expect(await page.getByLabel('Papers', { exact: true }).isChecked()).toBe(true);
    // The chips of the kind shown, the link's providers on.
    expect(await page.locator('#provider-chips input:checked').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('value')))).toEqual(['arxiv']);
    expect(streams).toEqual([]);
    expect(addressOf(page)).toBe(link);

    await page.locator('#q').press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(streams).toEqual(['/v1/search/papers/stream?q=attention&providers=arxiv&explain=true&timeout_ms=3000']);
    expect(addressOf(page)).toBe('?q=attention&kind=papers&providers=arxiv&timeout_ms=3000');
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it("runs a link's search with Explain scores turned on before the key is given: the switch is in the address, not a change to keep", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const streams = streamsOf(page);
    const link = '?q=rank&kind=papers&providers=arxiv';
    await openWithoutKey(page, link);
    await page.getByRole('switch', { name: 'Explain scores' }).check();
    expect(addressOf(page)).toBe(`${link}&explain=true`);

    // The key runs the link's search, explained, instead of keeping the form and asking for a Search press.
    expect(await giveKey(page)).not.toBe('The API key was accepted. The form keeps your changes: press Search to search them.');
    await page.locator('#status[data-kind="done"]').waitFor();
    expect(streams).toEqual(['/v1/search/papers/stream?q=rank&providers=arxiv&explain=true']);
    expect(await page.evaluate('document.getElementById("results").classList.contains("explaining")')).toBe(true);
    expect(await page.getByRole('switch', { name: 'Explain scores' }).isChecked()).toBe(true);
    expect(addressOf(page)).toBe(`${link}&explain=true`);
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it('shows the form of the address Back returns to while the key is still asked for', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await openWithoutKey(page, '?q=rank&kind=papers&providers=arxiv');
    await page.locator('#q').fill('fusion');
    await page.getByLabel('Web', { exact: true }).check();
    await page.locator('#q').press('Enter');
    expect(await page.locator('#status').textContent()).toBe(WAITING);
    expect(new URLSearchParams(addressOf(page)).get('q')).toBe('fusion');
    await page.goBack();
    await expect.poll(() => page.locator('#q').inputValue()).toBe('rank');
    expect(await page.getByLabel('Papers', { exact: true }).isChecked()).toBe(true);
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });
});
