import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reencodePath, samePercentEncoding } from '../../src/engine/canonical-url.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { rankResults } from '../../src/engine/rank.js';
import { htmlToText } from '../../src/providers/parse-helpers.js';

/**
 * The shortcuts taken on the hot path of every search must give exactly what the general code gives. Each
 * property states the general rule on its own terms (not by calling the shortcut) and checks it on any input.
 */
describe('hot-path shortcuts', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('folds white space in plain text exactly as the general rule does (runs become one space, ends trimmed)', () => {
    const plain = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '  ', '\t', '\n', '\u00a0', 'é', '>', ';', '#') });
    fc.assert(
      fc.property(plain, (value) => {
        expect(htmlToText(value)).toBe(value.replace(/\s+/g, ' ').trim());
      }),
    );
  });

  it('leaves a path alone only when decoding and encoding it one way would not change it', () => {
    const segmentCharacter = fc.constantFrom(...'aZ09-_.!~*\'():@$&+,;=[]|^é%20%3A%27%C3%A9'.split(''), '%3a', '%2F', '%E4%BD%95');
    const path = fc.array(fc.string({ unit: segmentCharacter }), { maxLength: 4 }).map((segments) => `/${segments.join('/')}`);
    fc.assert(
      fc.property(path, (pathname) => {
        expect(samePercentEncoding(pathname)).toBe(reencodePath(pathname));
      }),
    );
  });

  it('parses each web result URL once to merge and rank it', () => {
    const entries: RankedItem[] = ['brave', 'tavily'].flatMap((provider) =>
      ['https://www.example.org/a?utm_source=x', 'https://example.org/b/', `https://${provider}.example.com/c`].map((url, index) => ({
        provider,
        rank: index + 1,
        weight: 1,
        item: { title: `${provider} ${index}`, url },
      })),
    );
    const RealUrl = URL;
    let parsed = 0;
    vi.stubGlobal(
      'URL',
      class CountingUrl extends RealUrl {
        constructor(...args: ConstructorParameters<typeof URL>) {
          super(...args);
          parsed += 1;
        }
      },
    );
    const results = rankResults(groupResults('web', entries));
    expect(parsed).toBe(entries.length);
    expect(results.map((result) => result.domain)).toEqual(['example.org', 'example.org', 'brave.example.com', 'tavily.example.com']);
  });
});
