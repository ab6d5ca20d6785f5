import { describe, expect, it } from 'vitest';
import { canonicalUrl, parsedUrlIdentity } from '../../src/engine/canonical-url.js';
import { groupResults } from '../../src/engine/merge.js';

describe('a fragment that is a route (#/…, #!…) names a page of its own', () => {
  const pages = [
    'https://app.example.com/#/docs/install',
    'https://app.example.com/#/docs/usage',
    'https://app.example.com/#!/profile/42',
    'https://app.example.com/#!/profile/43',
    'https://app.example.com/',
  ];

  it('keeps single-page-app routes apart, through the plain and the parsed rule alike', () => {
    expect(new Set(pages.map(canonicalUrl)).size).toBe(pages.length);
    for (const url of pages) expect(canonicalUrl(url)).toBe(parsedUrlIdentity(url).key);
    // Spelled so that only the parser reads it: the same key.
    expect(canonicalUrl('https://WWW.app.example.com:443/#/docs/install')).toBe(canonicalUrl(pages[0]!));
  });

  it('still drops a fragment that is a place on the page', () => {
    expect(canonicalUrl('https://example.com/a#section')).toBe(canonicalUrl('https://example.com/a'));
    expect(canonicalUrl('https://example.com/a#')).toBe(canonicalUrl('https://example.com/a'));
  });

  it('merges two providers\u2019 results only when they show the same route', () => {
    const entry = (provider: string, rank: number, url: string) => ({ provider, rank, weight: 1, item: { title: url, url } });
    const groups = groupResults('web', [
      entry('brave', 1, pages[0]!),
      entry('brave', 2, pages[1]!),
      entry('exa', 1, 'https://www.app.example.com/#/docs/usage'),
    ]);
    expect(groups.map((group) => group.map((member) => member.item.url))).toEqual([
      [pages[0]],
      [pages[1], 'https://www.app.example.com/#/docs/usage'],
    ]);
  });
});
