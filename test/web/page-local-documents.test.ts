import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

/** A document of the embedded index, markup and all: the view must show it as the text it is. */
const ZEBRA = [
  '# Zebra crossing guide',
  '',
  'Zebras cross here. <img src=x onerror="window.__pwned=1"> is only text.',
  '',
  '| column | value |',
  '| --- | --- |',
  '| stripes | black and white |',
  '',
].join('\n');
const OKAPI = '# Okapi notes\n\nThe okapi is a giraffid.\n';
/** Longer than one part the view asks for (fetch_url's most, 100 000 characters): it comes in two. */
const QUOKKA = `# Quokka almanac\n\n${Array.from({ length: 2500 }, (_, index) => `Quokka line ${index + 1}, smiling at the camera.`).join('\n')}\n`;

/** A title in Hebrew that ends in `!`: in a line of English, the `!` belongs at its left end, where Hebrew ends. */
const HEBREW_TITLE = 'שלום עולם!';
const SHALOM = `# ${HEBREW_TITLE}\n\nShalom, in Hebrew.\n`;

/**
 * Where each character of `text` is drawn in the view's status line (its left edge), in the order the text holds them:
 * a script for page.evaluate, as FOCUSED is.
 */
const CHARACTER_LEFTS = (text: string): string => `(() => {
  const text = ${JSON.stringify(text)};
  const walker = document.createTreeWalker(document.getElementById('document-status'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.indexOf(text);
    if (at < 0) continue;
    return [...text].map((_, index) => {
      const range = document.createRange();
      range.setStart(node, at + index);
      range.setEnd(node, at + index + 1);
      return range.getBoundingClientRect().left;
    });
  }
  return [];
})()`;

const FOCUSED = "(() => { const node = document.activeElement; return node ? `${node.tagName} ${node.id || node.getAttribute('data-document') || ''}` : ''; })()";

function indexFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-page-local-'));
  writeFileSync(path.join(folder, 'zebra.md'), ZEBRA);
  writeFileSync(path.join(folder, 'okapi.md'), OKAPI);
  writeFileSync(path.join(folder, 'quokka.md'), QUOKKA);
  writeFileSync(path.join(folder, 'shalom.md'), SHALOM);
  return folder;
}

async function searchFor(page: Page, origin: string, query: string): Promise<void> {
  await page.goto(`${origin}/?q=${query}&providers=local`);
  await page.locator('#status[data-kind="done"]').waitFor();
}

const view = (page: Page) => page.getByRole('dialog');
const viewStatus = (page: Page) => page.locator('#document-status');

/** Waits until the view says it has read (or failed to read) its document: its status line says more than "Loading…". */
async function readingEnded(page: Page): Promise<string> {
  await page.locator('#document-status:not(:text-matches("^Loading"))').waitFor();
  return (await viewStatus(page).textContent()) ?? '';
}

describe.skipIf(!browserTestsRun())('the search page opens documents of the embedded index', () => {
  let folder: string;
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    folder = indexFolder();
    upstream = await startFakeUpstream();
    // Exa never answers: a search asking it goes on streaming until its deadline.
    upstream.on('/exa/search', { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), EXA_API_KEY: 'exa-local-page-key-0123456789', LOCAL_INDEX_DIR: folder, LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it("shows a local:/// result's text in a labelled view over the page, and Escape goes back to the result", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await searchFor(page, service.origin, 'zebra');

    // The result keeps its local:/// address (what an agent hands fetch_url), and its title is something to press.
    const opener = page.getByRole('button', { name: 'Zebra crossing guide' });
    expect(await opener.getAttribute('data-document')).toBe('local:///zebra.md');
    expect(await page.locator('#results a[href^="local:"]').count()).toBe(0);
    // The note over the results says how these open: not in a new tab, as links do.
    expect(await page.locator('#new-tab-note').innerText()).toBe('Links open in a new tab. Documents of the embedded index open over this page.');

    await opener.focus();
    await page.keyboard.press('Enter');
    await view(page).waitFor();
    expect(await page.getByRole('dialog', { name: 'Zebra crossing guide' }).isVisible()).toBe(true);
    expect(await page.evaluate<string>(FOCUSED)).toBe('BUTTON close-document');
    expect(await readingEnded(page)).toBe(`The whole document, ${ZEBRA.length} characters.`);
    // The source as the index holds it, written as text: no element made of its markup, nothing of it run.
    expect(await page.locator('#document-text').textContent()).toBe(ZEBRA);
    expect(await page.locator('#document-text *').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('#document-source').textContent()).toBe('local:///zebra.md');

    await page.keyboard.press('Escape');
    await view(page).waitFor({ state: 'hidden' });
    expect(await page.evaluate<string>(FOCUSED)).toBe('BUTTON local:///zebra.md');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('reads a long document on with "Show more", and Close goes back to the result', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await searchFor(page, service.origin, 'quokka');
    await page.getByRole('button', { name: 'Quokka almanac' }).click();
    expect(await readingEnded(page)).toBe(`100,000 of ${QUOKKA.length.toLocaleString('en')} characters shown; “Show more” reads on.`);
    expect(await page.locator('#document-text').textContent()).toBe(QUOKKA.slice(0, 100_000));

    await page.getByRole('button', { name: 'Show more' }).click();
    await page.locator('#document-status:text-matches("^The rest")').waitFor();
    expect(await page.locator('#document-text').textContent()).toBe(QUOKKA);
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    // The control it was on went with the last part: the keyboard goes on in the text.
    expect(await page.evaluate<string>(FOCUSED)).toBe('DIV document-text');

    await page.getByRole('button', { name: 'Close' }).click();
    await view(page).waitFor({ state: 'hidden' });
    expect(await page.evaluate<string>(FOCUSED)).toBe('BUTTON local:///quokka.md');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('reads a part once however often "Show more" is pressed while it loads, and looks busy until it has', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    await searchFor(page, service.origin, 'quokka');
    await page.getByRole('button', { name: 'Quokka almanac' }).click();
    await readingEnded(page);
    // The second part's request is held until both presses are in: the press after the first finds it still loading.
    const asked: Request[] = [];
    const held: Route[] = [];
    await page.route('**/v1/ops/fetch_url', (route) => {
      asked.push(route.request());
      if (held.length === 0) held.push(route);
      else void route.continue();
    });
    const more = page.getByRole('button', { name: 'Show more' });
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => held.length).toBe(1);
    expect(await more.getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Enter');
    // Pressed again, it waits for the part on its way: not a request more, and still marked busy.
    expect(await more.getAttribute('aria-disabled')).toBe('true');
    await held[0]!.continue();
    await page.locator('#document-status:text-matches("^The rest")').waitFor();
    expect(asked.map((request) => (JSON.parse(request.postData() ?? '{}') as { offset?: number }).offset)).toEqual([100_000]);
    expect(await page.locator('#document-text').textContent()).toBe(QUOKKA);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("sets a right-to-left title apart in the view's status line, its closing mark at its own end", async () => {
    const page = await chromium.context.newPage();
    const file = path.join(folder, 'shalom.md');
    await searchFor(page, service.origin, 'shalom');
    rmSync(file);
    try {
      await page.getByRole('button', { name: HEBREW_TITLE }).click();
      expect(await readingEnded(page)).toBe(`“${HEBREW_TITLE}” could not be opened: the index no longer holds local:///shalom.md. Search again to find what it holds now.`);
      // Where each character of the title is drawn: read in Hebrew, from right to left, the `!` comes last, at the left.
      const lefts = await page.evaluate<number[]>(CHARACTER_LEFTS(HEBREW_TITLE));
      expect(lefts).toHaveLength(HEBREW_TITLE.length);
      const mark = lefts.at(-1)!;
      expect(Math.min(...lefts.slice(0, -1))).toBeGreaterThan(mark);
    } finally {
      writeFileSync(file, SHALOM);
    }
    await page.close();
  });

  it('says in its own words that a document the index no longer holds cannot be opened', async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const file = path.join(folder, 'okapi.md');
    await searchFor(page, service.origin, 'okapi');
    // Removed after the search found it, as an operator may change LOCAL_INDEX_DIR under a running service.
    rmSync(file);
    try {
      await page.getByRole('button', { name: 'Okapi notes' }).click();
      expect(await readingEnded(page)).toBe('“Okapi notes” could not be opened: the index no longer holds local:///okapi.md. Search again to find what it holds now.');
      expect(await viewStatus(page).getAttribute('data-kind')).toBe('error');
      expect(await page.locator('#document-text').textContent()).toBe('');
      expect(await view(page).isVisible()).toBe(true);
    } finally {
      writeFileSync(file, OKAPI);
    }
    // The 404 the view turned into words is the one failure this page may show in the console.
    expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
    await page.close();
  });

  it('closes on Escape without stopping a search still streaming in behind it', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${service.origin}/?q=zebra&providers=local,exa&timeout_ms=20000`);
    const opener = page.getByRole('button', { name: 'Zebra crossing guide' });
    await opener.click();
    await readingEnded(page);
    await page.keyboard.press('Escape');
    // Not the test's whole time: a view that Escape leaves open fails here, saying so.
    await view(page).waitFor({ state: 'hidden', timeout: 5000 });
    // Exa is still awaited: Escape closed the view, and only that.
    expect(await page.locator('#waterfall [data-provider="exa"]').getAttribute('data-status')).toBe('pending');
    expect(await page.locator('#status').getAttribute('data-kind')).not.toBe('done');
    // A second Escape, on the page, stops the search as it always did.
    await page.keyboard.press('Escape');
    await page.locator('#waterfall [data-provider="exa"]:not([data-status="pending"])').waitFor();
    await page.close();
  });
});

describe.skipIf(!browserTestsRun())('the search page opens documents of the embedded index behind API keys', () => {
  const key = 'local-page-key-0123456789';
  let folder: string;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    folder = indexFolder();
    service = await startService({ API_KEYS: key, LOCAL_INDEX_DIR: folder, LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  async function searchWithKey(page: Page): Promise<void> {
    await page.goto(`${service.origin}/?q=zebra&providers=local`);
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.locator('#status[data-kind="done"]').waitFor();
  }

  it("reads the document with the page's key", async () => {
    const page = await chromium.context.newPage();
    const problems = await watchForProblems(page);
    const sent: Array<string | undefined> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/ops/fetch_url')) sent.push(request.headers().authorization);
    });
    await searchWithKey(page);
    await page.getByRole('button', { name: 'Zebra crossing guide' }).click();
    expect(await readingEnded(page)).toBe(`The whole document, ${ZEBRA.length} characters.`);
    expect(await page.locator('#document-text').textContent()).toBe(ZEBRA);
    expect(sent).toEqual([`Bearer ${key}`]);
    expect(await page.locator('#key-form').isHidden()).toBe(true);
    // The one refusal is the provider list's, asked before the key was given.
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it('asks for another key when the one kept is refused, rather than show the refusal as the document', async () => {
    const page = await chromium.context.newPage();
    await searchWithKey(page);
    // The key changed on the service since the search (rotated): the tab still holds the old one.
    await page.evaluate("sessionStorage.setItem('fedsearch-api-key', 'rotated-away-key-0123456789')");
    await page.getByRole('button', { name: 'Zebra crossing guide' }).click();
    await page.locator('#key-form:not([hidden])').waitFor();
    expect(await view(page).isHidden()).toBe(true);
    expect(await page.locator('#status').textContent()).toBe('The API key was refused; enter another.');
    expect(await page.evaluate<string>(FOCUSED)).toBe('INPUT api-key');
    await page.close();
  });
});
