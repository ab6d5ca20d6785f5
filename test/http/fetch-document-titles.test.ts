import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { callOperation, startService, type RunningService } from '../support/service.js';

const paragraph = 'Character references are how a page writes the characters markup gives a meaning to, and a reader sees them once. ';

function article(title: string, heading: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${heading}</h1><p>${paragraph.repeat(4)}</p></article></body></html>`;
}

/** An entity in a page's <title> is decoded once, as a browser shows it; a feed is titled by what it calls itself. */
describe('fetch_url titles a page as its reader sees it', () => {
  const site = new LoopbackSite();
  let service: RunningService;

  beforeAll(async () => {
    await site.start();
    site
      // Shown by a browser as "How to write &amp; in an HTML page": the page is about the entity itself.
      .serve('/entity-page', 'text/html; charset=utf-8', article('How to write &amp;amp; in an HTML page', 'Writing entities'))
      .serve('/ampersand-page', 'text/html; charset=utf-8', article('Fish &amp; chips on a Friday night', 'Fish and chips'))
      .serve(
        '/feed.rss',
        'application/rss+xml',
        '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>Tom &amp; Jerry news</title><link>https://news.example/</link>' +
          '<item><title>First episode</title></item><item><title>Second episode</title></item></channel></rss>',
      )
      .serve(
        '/atom',
        'application/atom+xml',
        '<?xml version="1.0" encoding="utf-8"?>\n<!-- generated -->\n<feed xmlns="http://www.w3.org/2005/Atom">' +
          '<title type="html">Release &lt;em&gt;notes&lt;/em&gt;</title><entry><title>v1.0</title></entry></feed>',
      )
      .serve(
        '/rdf',
        'application/rdf+xml',
        '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">' +
          '<channel rdf:about="https://old.example/"><title><![CDATA[Old <school> feed]]></title></channel>' +
          '<item rdf:about="https://old.example/1"><title>An item</title></item></rdf:RDF>',
      )
      // A feed that names no title of its own: its first item's is not taken for it.
      .serve('/untitled.xml', 'application/rss+xml', '<rss version="2.0"><channel><item><title>Only an item</title></item></channel></rss>')
      // XML that is no feed: its <title> element is data like any other.
      .serve('/note.xml', 'application/xml', '<note><title>Not a feed</title><body>text</body></note>');
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  async function titleOf(path: string): Promise<string | undefined> {
    const response = await callOperation(service, 'fetch_url', { url: `${site.origin}${path}` });
    const body = (await response.json()) as { title?: string };
    expect({ path, status: response.status }, JSON.stringify(body)).toEqual({ path, status: 200 });
    return body.title;
  }

  it('decodes the entities of a <title> once', async () => {
    expect(await titleOf('/entity-page')).toBe('How to write &amp; in an HTML page');
    expect(await titleOf('/ampersand-page')).toBe('Fish & chips on a Friday night');
  });

  it('titles an RSS, Atom or RSS 1.0 feed by its own title', async () => {
    expect(await titleOf('/feed.rss')).toBe('Tom & Jerry news');
    expect(await titleOf('/atom')).toBe('Release notes');
    expect(await titleOf('/rdf')).toBe('Old <school> feed');
  });

  it('titles a feed without a title of its own, or XML that is no feed, by its URL', async () => {
    expect(await titleOf('/untitled.xml')).toBe('untitled.xml');
    expect(await titleOf('/note.xml')).toBe('note.xml');
  });
});
