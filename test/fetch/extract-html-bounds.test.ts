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
