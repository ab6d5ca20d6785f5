import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { startService, type RunningService } from '../support/service.js';
import { fetchedPage } from './fetched-page.js';

const paragraph =
  'The café on the corner serves crème brûlée and a naïve little rosé, and it opens at eight every morning. ' +
  'Its owner, Zoë, bakes the bread herself in an oven that is older than the building around it. ';

function page(head: string): string {
  return `<html><head>${head}<title>Café Zoë</title></head><body><article><h1>Grüße aus dem Café</h1><p>${paragraph}</p><p>${paragraph}</p></article></body></html>`;
}

function utf16(text: string, order: 'le' | 'be'): Buffer {
  const little = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return order === 'le' ? little : little.swap16();
}

/** "日本語のページ" in Shift_JIS: a page that says so only in its <meta>. */
const SHIFT_JIS_WORDS = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x83, 0x79, 0x81, 0x5b, 0x83, 0x57]);

interface Page {
  title?: string;
  text: string;
}

describe('fetch_url decodes a page in the encoding a browser would', () => {
  const site = new LoopbackSite();
  let service: RunningService;

  beforeAll(async () => {
    await site.start();
    site
      // A byte order mark is the file's own word and wins over a charset the server declares wrongly.
      .serve('/utf8-mark-declared-1252', 'text/html; charset=windows-1252', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page(''))]))
      .serve('/utf16le-mark', 'text/html', utf16(page(''), 'le'))
      .serve('/utf16be-mark.txt', 'text/plain', utf16(`Grüße aus dem Café\n\n${paragraph}`, 'be'))
      // A <meta> naming UTF-16 in a page that could be read as ASCII to find it: browsers read UTF-8.
      .serve('/meta-utf16', 'text/html', Buffer.from(page('<meta charset="utf-16">')))
      // A charset label no decoder knows is no charset: the page's <meta> is asked next.
      .serve(
        '/unknown-label',
        'text/html; charset=x-no-such-charset',
        Buffer.concat([Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><title>'), SHIFT_JIS_WORDS, Buffer.from('</title></head><body><p>'), SHIFT_JIS_WORDS, Buffer.from('</p></body></html>')]),
      );
    site
      // An older feed in ISO-8859-1, saying so only in its XML declaration, as XML lets it.
      .serve('/feed.rss', 'application/rss+xml', Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>\n<rss version="2.0"><channel><title>Café Zoë</title><item><title>Crème brûlée tonight</title></item></channel></rss>`, 'latin1'))
      .serve('/page.xhtml', 'application/xhtml+xml', Buffer.from(`<?xml version="1.0" encoding="windows-1252"?>\n${page('').replace('<html>', '<html xmlns="http://www.w3.org/1999/xhtml">')}`, 'latin1'));
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  const fetchPage = (path: string): Promise<Page> => fetchedPage<Page>(service, `${site.origin}${path}`);

  it('follows a byte order mark over the declared charset, or when none is declared', async () => {
    for (const path of ['/utf8-mark-declared-1252', '/utf16le-mark']) {
      const read = await fetchPage(path);
      expect({ path, title: read.title }).toEqual({ path, title: 'Café Zoë' });
      expect(read.text, path).toContain('## Grüße aus dem Café');
      expect(read.text, path).toContain('crème brûlée and a naïve little rosé');
      expect(read.text, path).not.toMatch(/[\uFEFF\uFFFD\0]/);
    }
    const text = await fetchPage('/utf16be-mark.txt');
    expect(text.text).toBe(`Grüße aus dem Café\n\n${paragraph}`);
  });

  it('reads a page whose <meta> names UTF-16 as UTF-8, as browsers do', async () => {
    const read = await fetchPage('/meta-utf16');
    expect(read.title).toBe('Café Zoë');
    expect(read.text).toContain('crème brûlée and a naïve little rosé');
  });

  it('passes over a charset label no decoder knows to the charset the page names itself', async () => {
    const read = await fetchPage('/unknown-label');
    expect(read.title).toBe('日本語のページ');
    expect(read.text).toBe('日本語のページ');
  });

  it("reads an XML feed or XHTML page in the encoding its XML declaration names", async () => {
    const feed = await fetchPage('/feed.rss');
    expect(feed.text).toContain('<title>Café Zoë</title><item><title>Crème brûlée tonight</title>');
    const xhtml = await fetchPage('/page.xhtml');
    expect(xhtml.title).toBe('Café Zoë');
    expect(xhtml.text).toContain('crème brûlée and a naïve little rosé');
  });
});
