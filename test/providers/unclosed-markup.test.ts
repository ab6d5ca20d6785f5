import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { normalizeTitle } from '../../src/engine/paper-identity.js';
import { CrossrefProvider } from '../../src/providers/crossref.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import { markdownText } from '../../src/providers/markdown-text.js';
import { htmlToText } from '../../src/providers/parse-helpers.js';
import { PubmedProvider } from '../../src/providers/pubmed.js';
import { makeProvider, makeQuery, response } from '../support/run-provider.js';

/**
 * An upstream's text full of markup that never closes (`<!--` with no `-->`, `<p` with no `>`, `<ArticleTitle>` with no
 * end tag) is read in time that grows with its length, not with its square: a pattern that read on to the end from each
 * opening held the event loop, and with it every other search the replica was serving, for seconds per 100 KB. The
 * inputs here took 3 to 16 s each that way; read in one pass they take milliseconds, so a second is room enough for a
 * busy machine.
 */
const IN_PROPORTION_MS = 1000;

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

describe('markup that never closes', () => {
  it('HTML comments: each one that ends is dropped, and the rest of a title whose last one does not is kept', () => {
    expect(htmlToText('a <!-- hidden --> b <!-- never ends')).toBe('a b <!-- never ends');
    const unclosed = '<!--'.repeat(60_000);
    const { value, ms } = timed(() => htmlToText(unclosed));
    expect(value).toBe(unclosed);
    expect(ms).toBeLessThan(IN_PROPORTION_MS);
  });

  it("PubMed: opening tags that never end are passed over, and the article's inline markup is still dropped", () => {
    const provider = makeProvider(PubmedProvider);
    const body = [
      '<?xml version="1.0"?><PubmedArticleSet>',
      // XML allows them in a comment; no `</BookTitle>` follows any of them.
      `<!-- ${'<BookTitle>'.repeat(40_000)} -->`,
      '<PubmedArticle><MedlineCitation><PMID>31000009</PMID><Article>',
      '<ArticleTitle>The <i>in vivo</i> trial.</ArticleTitle>',
      '</Article></MedlineCitation></PubmedArticle></PubmedArticleSet>',
    ].join('');
    const { value, ms } = timed(() => provider.parseResponse(response(body), makeQuery('trial', 'papers')));
    expect(value).toMatchObject({ items: [{ title: 'The in vivo trial.', pmid: '31000009' }] });
    expect(ms).toBeLessThan(IN_PROPORTION_MS);
  });

  it('PubMed: a title of stray `<` is refused as malformed XML, in proportion too', () => {
    const provider = makeProvider(PubmedProvider);
    const body = `<PubmedArticleSet><PubmedArticle><MedlineCitation><Article><ArticleTitle>${'<'.repeat(100_000)}</ArticleTitle></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>`;
    const started = performance.now();
    expect(() => provider.parseResponse(response(body), makeQuery('trial', 'papers'))).toThrow(new FedsearchError('PROVIDER_PARSE', 'the XML body is malformed'));
    expect(performance.now() - started).toBeLessThan(IN_PROPORTION_MS);
  });

  it('Crossref: an abstract of unclosed <jats:p is read in proportion', () => {
    const provider = makeProvider(CrossrefProvider);
    const abstract = '<jats:p'.repeat(25_000);
    const body = JSON.stringify({ status: 'ok', 'message-type': 'work-list', message: { items: [{ DOI: '10.5555/x', URL: 'https://doi.org/10.5555/x', title: ['Unclosed'], abstract }] } });
    const { value, ms } = timed(() => provider.parseResponse(response(body), makeQuery('x', 'papers')));
    expect(value).toMatchObject({ items: [{ title: 'Unclosed', abstract }] });
    expect(ms).toBeLessThan(IN_PROPORTION_MS);
  });

  it('Hacker News: a story text of unclosed <p is read in proportion', () => {
    const provider = makeProvider(HackerNewsProvider);
    const storyText = '<p'.repeat(50_000);
    const body = JSON.stringify({ hits: [{ objectID: '1', title: 'Unclosed', url: 'https://news.example/1', story_text: storyText }] });
    const { value, ms } = timed(() => provider.parseResponse(response(body), makeQuery('x')));
    expect(value).toMatchObject({ items: [{ title: 'Unclosed', snippet: storyText }] });
    expect(ms).toBeLessThan(IN_PROPORTION_MS);
  });

  it('Markdown: a line of `![` that never closes is read in proportion, and a whole image in it still goes', () => {
    const { value, ms } = timed(() => markdownText(`words ![logo](https://img.example/logo.png) ${'!['.repeat(60_000)}`));
    expect(value).not.toContain('logo.png');
    expect(value).toContain('words');
    expect(ms).toBeLessThan(IN_PROPORTION_MS);
  });

  it('Markdown: a line of closing `**` without partners is read in proportion, and `__init__` keeps its own', () => {
    const { value, ms } = timed(() => markdownText(`${'a** '.repeat(25_000)}__init__ stays`));
    expect(value).not.toContain('**');
    expect(value).toContain('__init__ stays');
    expect(ms).toBeLessThan(IN_PROPORTION_MS);
  });

  it("paper titles: a title of `<` with no `>` is normalised in proportion, and a closed tag still goes", () => {
    expect(normalizeTitle('Fusion <i>in vivo</i>: a trial')).toBe('fusion in vivo a trial');
    const { value, ms } = timed(() => normalizeTitle(`Fusion ${'<'.repeat(100_000)}`));
    expect(value).toBe('fusion');
    expect(ms).toBeLessThan(IN_PROPORTION_MS);
  });
});
