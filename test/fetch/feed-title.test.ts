import { describe, expect, it } from 'vitest';
import { feedTitle } from '../../src/fetch/feed-title.js';

/** Far above what reading a title in proportion takes (a few ms), far below what a scan per '<' took (seconds). */
const IN_PROPORTION_MS = 1000;

describe('a feed title of markup that never closes', () => {
  it.each([
    ['stray <', `<rss><channel><title>${'<'.repeat(64_000)}</title></channel></rss>`],
    ['stray < in an html title', `<feed><title type="html">${'&lt;'.repeat(16_000)}</title></feed>`],
    ['CDATA sections that never end', `<rss><channel><title>${'<![CDATA['.repeat(7_000)}</title></channel></rss>`],
    ['title openings that never end', `<rss><channel>${'<title'.repeat(10_000)}</channel></rss>`],
    // Before the root element: a regular expression over the prolog took seconds to give up on these.
    ['comments, then an instruction that never ends', `${'<!---->'.repeat(9_000)}<?x`],
    ['instructions, then a comment that never ends', `${' <?a?>'.repeat(10_000)}<!--`],
    ['doctypes whose internal subset never ends', '<!DOCTYPE a ['.repeat(5_000)],
  ])('is read in proportion: %s', (_name, feed) => {
    const started = performance.now();
    feedTitle(feed);
    expect(performance.now() - started).toBeLessThan(IN_PROPORTION_MS);
  });

  it('keeps the text of a CDATA section as written and decodes the rest once', () => {
    expect(feedTitle('<rss><channel><title>Q&amp;A: <![CDATA[<b> & </b>]]>&amp;amp; more</title></channel></rss>')).toBe('Q&A: <b> & </b>&amp; more');
  });
});

describe('the root element behind a prolog', () => {
  it('is found after a byte order mark, the XML declaration, comments, instructions and a doctype with its subset', () => {
    const prolog = '\uFEFF<?xml version="1.0"?>\n<!-- generated -->\n<?xml-stylesheet href="a.xsl"?>\n<!DOCTYPE rss [ <!ENTITY x "y"> ]>\n';
    expect(feedTitle(`${prolog}<rss><channel><title>Behind a prolog</title></channel></rss>`)).toBe('Behind a prolog');
    expect(feedTitle(`${prolog}<html><title>Not a feed</title></html>`)).toBeUndefined();
    expect(feedTitle('text before <rss><channel><title>No</title></channel></rss>')).toBeUndefined();
  });
});
