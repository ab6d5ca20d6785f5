import { describe, expect, it } from 'vitest';
import { boundedText, cutText } from '../../src/domain/cut-text.js';
import { boundedItem, boundedItems } from '../../src/domain/result-bounds.js';
import type { ProviderItem } from '../../src/domain/result.js';

/** No high surrogate without its low one after it, and no low one without its high one before it. */
function isWellFormed(value: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
}

describe('boundedText', () => {
  it('gives text within its bound back as it is', () => {
    const title = 'A title of ordinary length';
    expect(boundedText(title, title.length)).toBe(title);
  });

  it('cuts at the last word break in the second half of the bound, and adds an ellipsis within the bound', () => {
    expect(boundedText('alpha beta gamma delta', 12)).toBe('alpha beta…');
    expect(boundedText('alpha beta gamma delta', 17)).toBe('alpha beta gamma…');
  });

  it('cuts mid-word when no word break lies in the second half', () => {
    expect(boundedText('ab supercalifragilistic', 10)).toBe('ab superc…');
  });

  it('never leaves half of a surrogate pair', () => {
    // Each emoji is two UTF-16 units: a cut at 9 units would fall inside the fifth.
    const emoji = '😀'.repeat(20);
    const cut = boundedText(emoji, 10);
    expect(cut).toBe(`${'😀'.repeat(4)}…`);
    expect(isWellFormed(cut)).toBe(true);
  });

  it('keeps the snippet cut of abstracts free of lone surrogates too', () => {
    const abstract = `x${'😀'.repeat(400)}`;
    const cut = cutText(abstract, 300);
    expect(isWellFormed(cut)).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(301);
  });
});

describe('boundedItem', () => {
  const ordinary: ProviderItem = {
    title: 'Attention is all you need',
    url: 'https://arxiv.org/abs/1706.03762',
    snippet: 'The dominant sequence transduction models…',
    published_at: '2017-06-12',
    authors: ['Ashish Vaswani', 'Noam Shazeer'],
    venue: 'NeurIPS',
    doi: '10.48550/arXiv.1706.03762',
    arxiv_id: '1706.03762',
    pdf_url: 'https://arxiv.org/pdf/1706.03762',
    extra: { primary_category: 'cs.CL', views: 3, open: true },
  };

  it('gives an item within every bound back as the same object', () => {
    expect(boundedItem(ordinary)).toBe(ordinary);
  });

  it('drops an item whose URL is longer than 8 KB', () => {
    expect(boundedItem({ title: 'Long', url: `https://example.com/${'a'.repeat(8_200)}` })).toBeUndefined();
  });

  it('leaves out identifiers, dates and PDF links that are too long to be true, without cutting them', () => {
    const bounded = boundedItem({
      ...ordinary,
      doi: `10.1234/${'x'.repeat(400)}`,
      published_at: `2024-01-01${'0'.repeat(100)}`,
      pdf_url: `https://example.com/${'p'.repeat(9_000)}.pdf`,
    })!;
    expect(bounded.doi).toBeUndefined();
    expect(bounded.published_at).toBeUndefined();
    expect(bounded.pdf_url).toBeUndefined();
    expect('doi' in bounded).toBe(false);
    expect(bounded.arxiv_id).toBe('1706.03762');
    expect(bounded.title).toBe(ordinary.title);
  });

  it('cuts text extras and leaves out links too long to follow', () => {
    const bounded = boundedItem({
      ...ordinary,
      extra: { channel: 'c '.repeat(400), image_url: `https://img.example/${'i'.repeat(9_000)}`, hn_url: `https://news.example/${'h'.repeat(500)}`, views: 7 },
    })!;
    expect(bounded.extra!.channel).toMatch(/^(c )+…$|^(c )*c…$/);
    expect(String(bounded.extra!.channel).length).toBeLessThanOrEqual(300);
    expect(bounded.extra!).not.toHaveProperty('image_url');
    // A link between the text bound and the URL bound is kept whole: cut, it would lead elsewhere.
    expect(bounded.extra!.hn_url).toBe(`https://news.example/${'h'.repeat(500)}`);
    expect(bounded.extra!.views).toBe(7);
  });

  it('keeps the first 100 authors, each name within 200 characters', () => {
    const authors = Array.from({ length: 150 }, (_, index) => (index === 0 ? 'n'.repeat(500) : `Author ${index}`));
    const bounded = boundedItem({ ...ordinary, authors })!;
    expect(bounded.authors).toHaveLength(100);
    expect(bounded.authors![0]!.length).toBeLessThanOrEqual(200);
    expect(bounded.authors![99]).toBe('Author 99');
    // The adapter's item is not changed.
    expect(authors).toHaveLength(150);
  });
});

describe('boundedItems', () => {
  it('gives the same array back when every item is within bounds', () => {
    const items: ProviderItem[] = [
      { title: 'One', url: 'https://one.example/' },
      { title: 'Two', url: 'https://two.example/' },
    ];
    expect(boundedItems(items)).toBe(items);
  });

  it('keeps the order, cuts what is too long and drops what cannot be followed', () => {
    const items: ProviderItem[] = [
      { title: 'One', url: 'https://one.example/' },
      { title: 'Gone', url: `https://gone.example/${'g'.repeat(8_200)}` },
      { title: 'word '.repeat(100), url: 'https://three.example/' },
    ];
    const bounded = boundedItems(items);
    expect(bounded.map((item) => item.url)).toEqual(['https://one.example/', 'https://three.example/']);
    expect(bounded[0]).toBe(items[0]);
    expect(bounded[1]!.title.length).toBeLessThanOrEqual(300);
    expect(bounded[1]!.title.endsWith('word…')).toBe(true);
  });
});
