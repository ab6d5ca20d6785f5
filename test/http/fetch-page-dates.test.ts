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

/** An article whose date is only where Readability does not look, with `extra` markup in its head and body. */
function undatedByReadability(head: string, body: string): string {
  return `<!doctype html><html lang="en"><head><title>Rates held again</title>${head}</head>
<body><article><h1>Rates held again</h1>${body}<p>${paragraph}${paragraph}</p><p>${paragraph}</p></article></body></html>`;
}

/** Nested deeper than Readability is let read (extract-html.ts), so the page is read as plain text. */
function tooDeepForReadability(head: string, body: string): string {
  return `<!doctype html><html><head><title>Deep page</title>${head}</head><body>${'<div>'.repeat(90)}${body}<p>${paragraph}</p>${'</div>'.repeat(90)}</body></html>`;
}

/** Dates written in <time>, microdata or the date meta tags, and what fetch_url answers for each. */
const FALLBACK_PAGES: Array<[path: string, html: string, published: string]> = [
  ['/time', undatedByReadability('', '<p>By A. Writer, <time datetime="2024-03-05">5 March</time></p>'), '2024-03-05'],
  ['/microdata', undatedByReadability('', '<p>Posted <span itemprop="datePublished" content="2024-02-01T08:00:00Z">1 Feb</span></p>'), '2024-02-01T08:00:00.000Z'],
  [
    '/published-over-modified',
    undatedByReadability('', '<p>Updated <time itemprop="dateModified" datetime="2024-06-30">30 June</time>, first posted <span itemprop="datePublished">2024-01-15</span></p>'),
    '2024-01-15',
  ],
  ['/modified-only', undatedByReadability('', '<p>Updated <time itemprop="dateModified" datetime="2024-06-30">30 June</time></p>'), '2024-06-30'],
  ['/dc-date', undatedByReadability('<meta name="DC.date" content="2023-11">', ''), '2023-11'],
  ['/citation', undatedByReadability('<meta name="citation_publication_date" content="2022/07">', ''), '2022-07'],
  ['/meta-date', undatedByReadability('<meta name="date" content="April 4, 2024">', ''), '2024-04-04'],
  ['/deep', tooDeepForReadability('<meta name="citation_date" content="2021-09-10">', ''), '2021-09-10'],
  ['/deep-time', tooDeepForReadability('', '<time datetime="2020-05-06">6 May</time>'), '2020-05-06'],
];

describe('fetch_url reads a date Readability does not look for', () => {
  const site = new LoopbackSite();
  let service: RunningService;

  beforeAll(async () => {
    await site.start();
    for (const [path, html] of FALLBACK_PAGES) site.serve(path, 'text/html; charset=utf-8', html);
    site.serve('/readability-date', 'text/html; charset=utf-8', undatedByReadability('<meta property="article:published_time" content="2024-08-09">', '<time datetime="2019-01-01">old</time>'));
    site.serve('/no-date', 'text/html; charset=utf-8', undatedByReadability('<meta name="date" content="soon">', '<time datetime="whenever">later</time>'));
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  async function publishedAt(path: string): Promise<string | undefined> {
    const response = await callOperation(service, 'fetch_url', { url: `${site.origin}${path}` });
    expect(response.status).toBe(200);
    return ((await response.json()) as { published_at?: string }).published_at;
  }

  it('reads <time datetime>, microdata and the date meta tags, a published date before a modified one, on any page', async () => {
    for (const [path, , published] of FALLBACK_PAGES) expect({ path, published_at: await publishedAt(path) }).toEqual({ path, published_at: published });
  });

  it("keeps Readability's date where it finds one, and gives none for dates nothing can read", async () => {
    expect(await publishedAt('/readability-date')).toBe('2024-08-09');
    expect(await publishedAt('/no-date')).toBeUndefined();
  });
});
