import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { startService, type RunningService } from '../support/service.js';
import { fetchedPage } from './fetched-page.js';

const paragraph =
  'The committee met on Tuesday and agreed to publish the minutes of every meeting within a week of it. ' +
  'Members who missed a meeting may add a note to its minutes before they are published. ';

/**
 * Pages HTML lets leave out their optional tags, as browsers read them: the <html>, <head> and <body> tags are
 * implied (the HTML standard's "optional tags"; Google's style guide recommends leaving them out).
 */
const withoutAnyStructure = `<!doctype html><meta charset=utf-8><title>Minutes policy</title>
<h1>How minutes are published</h1><p>${paragraph}</p><p>${paragraph}</p>`;
const withoutHeadAndBody = `<!DOCTYPE html><html lang="en"><meta charset="utf-8"><title>Meeting notes</title>
<article><h1>What was agreed</h1><p>${paragraph}</p><p>${paragraph}</p></article></html>`;
/** An old page: its <head> written out, its <body> tag left to the parser. */
const withoutBodyTag = `<HTML><HEAD><TITLE>Old minutes</TITLE></HEAD>
<H1>Minutes of 1998</H1><P>${paragraph}<P>${paragraph}</HTML>`;

/** A single-page application's shell: its content is written by its script in a browser. */
const appShell = `<!doctype html><html><head><title>Acme dashboard for team reports</title></head><body>
<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/js/main.js"></script></body></html>`;

interface Page {
  title?: string;
  text: string;
  total_chars: number;
}

describe('fetch_url reads an HTML page that leaves its optional tags out', () => {
  const site = new LoopbackSite();
  let service: RunningService;

  beforeAll(async () => {
    await site.start();
    site
      .serve('/no-structure', 'text/html; charset=utf-8', withoutAnyStructure)
      .serve('/no-head-body', 'text/html; charset=utf-8', withoutHeadAndBody)
      .serve('/no-body-tag', 'text/html; charset=utf-8', withoutBodyTag)
      .serve('/bare-text', 'text/html; charset=utf-8', 'Meeting moved to Thursday at 10:00 & room 4.')
      .serve('/empty', 'text/html; charset=utf-8', '')
      .serve('/app-shell', 'text/html; charset=utf-8', appShell);
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  const fetchPage = (path: string): Promise<Page> => fetchedPage<Page>(service, `${site.origin}${path}`);

  it('finds the text and the <title> of a page without <html>, <head> or <body> tags', async () => {
    for (const [path, title, heading] of [
      ['/no-structure', 'Minutes policy', 'How minutes are published'],
      ['/no-head-body', 'Meeting notes', 'What was agreed'],
      ['/no-body-tag', 'Old minutes', 'Minutes of 1998'],
    ] as const) {
      const page = await fetchPage(path);
      expect({ path, title: page.title }).toEqual({ path, title });
      expect(page.text, path).toContain(`# ${heading}`);
      expect(page.text, path).toContain('Members who missed a meeting may add a note to its minutes');
      // The head's content is not text: the charset <meta> and the title are not read as the page's words.
      expect(page.text, path).not.toContain('charset');
    }
  });

  it('reads a page of bare text served as HTML as that text, and an empty page as one, not as an internal error', async () => {
    const bare = await fetchPage('/bare-text');
    expect(bare.text).toBe('Meeting moved to Thursday at 10:00 & room 4.');
    const empty = await fetchPage('/empty');
    expect(empty.text).toMatch(/^\[No text was found in this page: .*JavaScript.*\]$/);
  });

  it('says why a page has no text when its content would be written by JavaScript, instead of answering empty', async () => {
    const shell = await fetchPage('/app-shell');
    expect(shell.title).toBe('Acme dashboard for team reports');
    expect(shell.text).toMatch(/^\[No text was found in this page: .*JavaScript.*engine "firecrawl".*\]$/);
    expect(shell.text).not.toContain('enable JavaScript to run this app');
  });
});
