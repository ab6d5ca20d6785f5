import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { callOperation, startService, type RunningService } from '../support/service.js';

const paragraph =
  'The committee held its rate for the third month running, citing wages that still rise faster than prices. ' +
  'Markets had expected as much, and the currency barely moved on the news in the hour after it was announced. ';

/** A news article as real sites write one: the date in a <meta> tag or in JSON-LD, in whatever form the CMS chose. */
function article(head: string): string {
  return `<!doctype html><html lang="en"><head><title>Rates held again</title>${head}</head>
<body><article><h1>Rates held again</h1><p>${paragraph}${paragraph}</p><p>${paragraph}</p></article></body></html>`;
}

function jsonLd(datePublished: string): string {
  return `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline: 'Rates held again', datePublished })}</script>`;
}

/** Each page's date as written, and what fetch_url answers for it in every server zone. */
const PAGES: Array<[path: string, head: string, published: string]> = [
  ['/month', '<meta property="article:published_time" content="March 2024">', '2024-03'],
  ['/written-day', jsonLd('4 April 2024'), '2024-04-04'],
  ['/american-day', jsonLd('April 4, 2024'), '2024-04-04'],
  ['/no-zone', jsonLd('2024-04-04T09:30:00'), '2024-04-04T09:30:00.000Z'],
  ['/with-zone', '<meta property="article:published_time" content="2024-03-05T10:00:00+01:00">', '2024-03-05T09:00:00.000Z'],
  ['/unreadable', '<meta property="article:published_time" content="last Tuesday">', 'last Tuesday'],
];

describe("fetch_url reads a page's published date as the providers read theirs", () => {
  const site = new LoopbackSite();
  let service: RunningService;

  beforeAll(async () => {
    await site.start();
    for (const [path, head] of PAGES) site.serve(path, 'text/html; charset=utf-8', article(head));
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  it('keeps a month a month, a written-out day that calendar day, and a zoneless time in UTC, in any server zone', async () => {
    const zone = process.env.TZ;
    try {
      for (const serverZone of ['Asia/Tokyo', 'America/Los_Angeles', 'UTC']) {
        // Node reads TZ again when it changes: the same process stands in for servers in three zones.
        process.env.TZ = serverZone;
        for (const [path, , published] of PAGES) {
          // Each zone asks for a URL of its own, so no page is answered from the read of another zone.
          const response = await callOperation(service, 'fetch_url', { url: `${site.origin}${path}?zone=${serverZone}` });
          const page = (await response.json()) as { published_at?: string; title?: string };
          expect({ serverZone, path, status: response.status, published_at: page.published_at }).toEqual({ serverZone, path, status: 200, published_at: published });
        }
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
