import { describe, expect, it } from 'vitest';
import { RESULT_BOUNDS } from '../../src/domain/result-bounds.js';
import { canonicalUrl, domainOf } from '../../src/engine/canonical-url.js';

describe('canonicalUrl', () => {
  const same = [
    ['https://www.Example.com/a/', 'http://example.com/a'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:80/a', 'https://example.com/a'],
    ['https://example.com/a#section', 'https://example.com/a'],
    ['https://example.com/a?b=2&a=1', 'https://example.com/a?a=1&b=2'],
    ['https://example.com/a?utm_source=x&utm_medium=y&id=3', 'https://example.com/a?id=3'],
    ['https://example.com/a?gclid=1&fbclid=2&msclkid=3', 'https://example.com/a'],
    ['https://EXAMPLE.com', 'https://example.com/'],
  ];
  it.each(same)('%s is the same page as %s', (a, b) => {
    expect(canonicalUrl(a!)).toBe(canonicalUrl(b!));
  });

  const different = [
    ['https://example.com/a', 'https://example.com/b'],
    ['https://example.com/a?id=1', 'https://example.com/a?id=2'],
    ['https://example.com:8443/a', 'https://example.com/a'],
    ['https://example.com/A', 'https://example.com/a'],
    ['https://docs.example.com/a', 'https://example.com/a'],
  ];
  it.each(different)('%s is not the same page as %s', (a, b) => {
    expect(canonicalUrl(a!)).not.toBe(canonicalUrl(b!));
  });

  it('does not throw on something that is not a URL', () => {
    expect(canonicalUrl('  Not A URL ')).toBe('not a url');
  });

  it('gives the domain without www', () => {
    expect(domainOf('https://www.Example.org/x')).toBe('example.org');
    expect(domainOf('nonsense')).toBeUndefined();
  });
});

describe('canonicalUrl percent-encoding', () => {
  it.each([
    ['https://en.wikipedia.org/wiki/Fermat%27s_Last_Theorem', "https://en.wikipedia.org/wiki/Fermat's_Last_Theorem"],
    ['https://en.wikipedia.org/wiki/Help%3AContents', 'https://en.wikipedia.org/wiki/Help:Contents'],
    ['https://zh.wikipedia.org/wiki/%E4%BD%95', 'https://zh.wikipedia.org/wiki/何'],
  ])('%s is the same page as %s', (a, b) => {
    expect(canonicalUrl(a)).toBe(canonicalUrl(b));
  });

  it('keeps an encoded slash inside a segment apart from a real one', () => {
    expect(canonicalUrl('https://example.com/a%2Fb')).not.toBe(canonicalUrl('https://example.com/a/b'));
  });
});

describe('canonicalUrl of a path of long slash runs', () => {
  /** A provider page's worth of results, each URL as long as a result may keep (RESULT_BOUNDS.url). */
  const RESULTS = 50;
  const SLASHES = RESULT_BOUNDS.url - 100;
  /** Far above what keys made in proportion take (a few ms), far below what a match per slash took (seconds). */
  const IN_PROPORTION_MS = 1000;

  it.each([
    // A `%` in the path, and a query the form encoding changes (`+`): both keys are made by the general rule.
    ['a percent-encoded path', (index: number) => `https://example.com/a%20${index}${'/'.repeat(SLASHES)}b`, (index: number) => `example.com/a%20${index}${'/'.repeat(SLASHES)}b`],
    ['a parsed URL', (index: number) => `https://example.com/a${index}${'/'.repeat(SLASHES)}b?q=a+b`, (index: number) => `example.com/a${index}${'/'.repeat(SLASHES)}b?q=a+b`],
  ])('is made in proportion: %s', (_name, url, key) => {
    const urls = Array.from({ length: RESULTS }, (_, index) => url(index));
    const started = performance.now();
    const keys = urls.map((value) => canonicalUrl(value));
    expect(performance.now() - started).toBeLessThan(IN_PROPORTION_MS);
    // The slashes inside the path are the page's own; only those closing it do not count.
    expect(keys[7]).toBe(key(7));
    expect(canonicalUrl(`${urls[7]!.replace('b', 'b///')}`)).toBe(keys[7]);
  });
});
