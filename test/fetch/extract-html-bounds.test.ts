import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../src/fetch/extract-html.js';

/**
 * Readability runs on the event loop every other request shares, and its cost grows with elements × depth:
 * a 13 KB page of 1,200 nested elements took 11 s, 20,000 nested ones overflowed the stack (a 500), and
 * linkedom's own parse of 50,000 took 1.7 s. Such pages are read as plain text instead; each case below took
 * longer than a test's time limit, or threw, before the bounds.
 */
const page = (body: string, title = 'A page'): string => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const nested = (tag: string, depth: number, inner: string): string => `${`<${tag}>`.repeat(depth)}${inner}${`</${tag}>`.repeat(depth)}`;
const extract = (html: string) => extractHtml(html, 'https://pages.example/deep', 'text/html');

/** A paragraph long enough for Readability to take it for an article. */
const PARAGRAPH = 'Rank fusion combines the ordered lists of several search engines into one list. '.repeat(4);

describe('HTML extraction bounds', () => {
  it('reads 20,000 nested elements as text instead of overflowing the stack', () => {
    const document = extract(page(nested('b', 20_000, 'hello deep words')));
    expect(document).toMatchObject({ title: 'A page', markdown: 'hello deep words', content_type: 'text/html' });
  });

  // linkedom nests each <html>, <head> or <body> in the one before, `/>` or not. The markup's depth once took
  // `<body/>` for closed: the page was parsed, then rebuilt with a head and a body (html-tree.ts) by recursion, which
  // overflowed the stack on these (112 KB). Counted as the parser nests (markup-depth.ts), such a page is 16,000 deep
  // and read as plain text; the rebuild walks with a stack of its own besides.
  it.each(['body', 'html', 'head'])('reads a page of 16,000 <%s/> instead of overflowing the stack', (tag) => {
    const document = extract(`<title>Opened</title><p>first words</p>${`<${tag}/>`.repeat(16_000)}<p>deep words</p>`);
    expect(document).toEqual({ title: 'Opened', markdown: 'first words deep words', links: [], content_type: 'text/html' });
  });

  it('finds where a script ends in proportion when its end tag never closes (256 KB of `</script`)', () => {
    const html = `<title>Raw</title><p>Words before the script.</p><script>${'</script'.repeat(32_000)}`;
    const started = performance.now();
    const document = extract(html);
    // Far above the few ms this takes; a scan to the page's end from each `</script` took 5 s.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(document).toEqual({ title: 'Raw', markdown: 'Words before the script.', links: [], content_type: 'text/html' });
  });

  it("looks for a page's title in proportion when its openings never close (64 KB of `<title `)", () => {
    const html = `${'<title '.repeat(11_000)}${nested('div', 2_001, 'deep words')}`;
    const started = performance.now();
    const document = extract(html);
    // Far above the few ms this takes; a scan on to the next '>' from each opening took 600 ms (the head is cut at 64 KB).
    expect(performance.now() - started).toBeLessThan(250);
    expect(document.title).toBe('pages.example');
    // A title found after openings that are not one: the first <title> whose text an end tag closes.
    expect(extract(`<TITLE lang=en>one <b>bold</b></title><title>Second &amp; last</TITLE>${nested('div', 2_001, 'deep words')}`).title).toBe('Second & last');
  });

  it('reads 1,200 nested elements as text, links kept', () => {
    const document = extract(page(nested('div', 1_200, `${PARAGRAPH}<a href="/next">next page</a>`)));
    expect(document.markdown).toBe(`${PARAGRAPH.trim()} next page`);
    expect(document.links).toEqual([{ text: 'next page', url: 'https://pages.example/next' }]);
  });

  it('does not parse 100,000 nested elements: their tags are taken out, scripts, styles and comments with them', () => {
    const inner = `<script>var x = "<div>not text</div>";</script><style>p { color: red }</style><!-- <p>a comment</p> -->Caf&eacute; &amp; w<b>or</b>ds<br/>more, if a < b and c > d`;
    const document = extract(page(nested('div', 100_000, inner), 'Deep'));
    expect(document).toEqual({ title: 'Deep', markdown: 'Café & words more, if a < b and c > d', links: [], content_type: 'text/html' });
  });

  it('reads a page of more elements than Readability takes (40,000) as text', () => {
    const document = extract(page('<div><p>word</p></div>'.repeat(20_000)));
    expect(document.markdown).toBe(Array.from({ length: 20_000 }, () => 'word').join(' '));
  });

  it('still gives an ordinary article to Readability, as Markdown, with paragraphs left open as HTML allows', () => {
    // A script whose strings open thousands of tags is not markup: the page is not taken for a deep one.
    const script = `<script>const parts = [${Array.from({ length: 3_000 }, () => "'<div>'").join(',')}];</script>`;
    const body = `${script}<article><h1>Fusion</h1>${Array.from({ length: 300 }, (_, index) => `<p>${index} ${PARAGRAPH}`).join('\n')}</article>`;
    const document = extract(page(body, 'Fusion'));
    expect(document.title).toBe('Fusion');
    // Turndown writes each paragraph apart; the plain-text reading folds everything onto one line.
    expect(document.markdown.split('\n\n').length).toBeGreaterThanOrEqual(300);
    expect(document.markdown).toContain(`299 ${PARAGRAPH.trim()}`);
  });
});
