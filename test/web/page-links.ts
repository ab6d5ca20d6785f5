import type { Page } from 'playwright-core';

/**
 * What the tests of links to the search page read: the address the page holds, the searches it streams, and how it
 * settles (page-filters, page-address and page-address-key tests).
 */

/** The search the address bar holds, as a query string. */
export const addressOf = (page: Page): string => new URL(page.url()).search;

/** Every stream request `page` sends from now on, as path and query string. */
export function streamsOf(page: Page): string[] {
  const streams: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('/stream')) streams.push(`${url.pathname}${url.search}`);
  });
  return streams;
}

/** Waits for the page's search to end, or for its refusal to search: the status line's kind then, "done" or "error". */
export async function settled(page: Page): Promise<string | null> {
  await page.locator('#status[data-kind="done"], #status[data-kind="error"]').waitFor();
  return page.locator('#status').getAttribute('data-kind');
}

/** What the address had, as the page quotes it: set apart (U+2068 … U+2069) from the page's words around it. */
export const isolated = (text: string): string => `“\u2068${text}\u2069”`;
