import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import stringSimilarity from 'string-similarity';
import { domainOf, parsedUrlIdentity, reencodePath, samePercentEncoding, urlIdentity } from '../../src/engine/canonical-url.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import {
  normalizeTitle,
  normalizedTitleBigramCount,
  normalizedTitleBigrams,
  titleBigrams,
  titleBlocks,
  titlesSimilar,
} from '../../src/engine/paper-identity.js';
import { rankResults } from '../../src/engine/rank.js';
import { htmlToText } from '../../src/providers/parse-helpers.js';
import { urlsParsedBy } from '../support/url-parses.js';

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
    // URLs the parser must read (a `+` in the query, a capital, a port): plain ones are taken apart without it.
    const entries: RankedItem[] = ['brave', 'tavily'].flatMap((provider) =>
      ['https://www.example.org/a?q=a+b&utm_source=x', 'https://Example.org/b/', `https://${provider}.example.com:8443/c`].map((url, index) => ({
        provider,
        rank: index + 1,
        weight: 1,
        item: { title: `${provider} ${index}`, url },
      })),
    );
    const { parsed, result: results } = urlsParsedBy(() => rankResults(groupResults('web', entries)));
    expect(parsed).toBe(entries.length);
    expect(results.map((result) => result.domain)).toEqual(['example.org', 'example.org', 'brave.example.com', 'tavily.example.com']);
  });

  it('takes a URL apart without the parser only when the parser would give the same key and domain', () => {
    const piece = fc.constantFrom(
      ...['a', 'z', 'A', '0', '9', '-', '_', '.', '..', '/', '//', '/./', '/../', '/.', '/..', '#', '?a=1', ':', ':443', '@', '~', '%2e'],
      ...['xn--', 'xn--bcher-kva', 'www.', 'm.', '0x1', 'com', "!$&'()*+,;=", ' ', '\t', '\n', '\\', 'é', '[', '|', '"', '<'],
      ...['%', '%zz', '%20', '%C3%A9', '?q=a+b', '&', '=', '?b=2&a=1', 'utm_source=x'],
    );
    const scheme = fc.constantFrom('https://', 'http://', 'https://www.', 'HTTP://', 'ftp://', '');
    const url = fc.tuple(scheme, fc.array(piece, { maxLength: 8 })).map(([start, pieces]) => `${start}${pieces.join('')}`);
    fc.assert(
      fc.property(url, (value) => {
        expect(urlIdentity(value)).toEqual(parsedUrlIdentity(value));
        let parsedDomain: string | undefined;
        try {
          parsedDomain = new URL(value).hostname.toLowerCase().replace(/\.$/, '').replace(/^www\./, '') || undefined;
        } catch {
          parsedDomain = undefined;
        }
        expect(domainOf(value)).toBe(parsedDomain);
      }),
      { numRuns: 5000 },
    );
  });

  it('keys a query without the parser exactly as the general rule does (sorted, tracking parameters left out)', () => {
    const parameter = fc.constantFrom(
      ...['a=1', 'a=2', 'a=10', 'a', 'a=', 'b=2', 'B=1', '_=1', 'x.y=z-w', '*=*', '=', '=v', 'utm_source=x', 'UTM_Medium=y', 'fbclid=3'],
      ...['', 'q=a+b', 'q=%41', 'e=é', 'b=2=3', 'p=/x', 'p=?', "s='"],
    );
    const url = fc
      .tuple(fc.constantFrom('https://example.org/p', 'https://www.example.org/p/', 'http://example.org/a%20b/'), fc.array(parameter, { maxLength: 6 }))
      .map(([base, parameters]) => `${base}?${parameters.join('&')}${parameters.length % 3 === 2 ? '#f?x=1' : ''}`);
    fc.assert(
      fc.property(url, (value) => {
        const general = new URL(value);
        const search = [...general.searchParams.entries()]
          .filter(([name]) => !/^(utm_|piwik_|matomo_)/i.test(name) && name.toLowerCase() !== 'fbclid')
          .sort(([nameA, valueA], [nameB, valueB]) => (nameA === nameB ? valueA.localeCompare(valueB) : nameA.localeCompare(nameB)));
        const path = samePercentEncoding(general.pathname).replace(/\/+$/, '');
        const query = search.length > 0 ? `?${new URLSearchParams(search).toString()}` : '';
        expect(urlIdentity(value)).toEqual({ key: `example.org${path}${query}`, domain: 'example.org' });
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a query made of plain name=value pairs without the URL parser', () => {
    const { parsed } = urlsParsedBy(() => {
      expect(urlIdentity('https://www.example.org/a/?b=2&a=1&utm_source=x')).toEqual({ key: 'example.org/a?a=1&b=2', domain: 'example.org' });
      expect(urlIdentity('https://example.org/watch?v=abc_1')).toEqual({ key: 'example.org/watch?v=abc_1', domain: 'example.org' });
    });
    expect(parsed).toBe(0);
  });

  it('leaves a query of many parameters to the parser, with the same key', () => {
    const query = Array.from({ length: 40 }, (_, index) => `p${(index * 7) % 40}=${index}`).join('&');
    const url = `https://example.org/many?${query}`;
    const { parsed, result } = urlsParsedBy(() => urlIdentity(url));
    expect(parsed).toBe(1);
    expect(result).toEqual(parsedUrlIdentity(url));
  });

  it('folds a title exactly as the general rule does when it skips Unicode normalisation for ASCII', () => {
    const anyTitle = fc.string({
      unit: fc.constantFrom('a', 'B', ' ', '-', '<', '>', '1', '.', '\t', 'é', 'É', 'ﬁ', 'ß', 'ẞ', 'Ø', 'ł', 'Đ', 'ǽ', 'œ', 'Þ', 'İ', '\u0301', '²', 'デ', 'ｶﾞ', '\u3099', '한', 'ि', 'ह', 'ש', '\u05b8', '\ufe0f'),
    });
    // Printable ASCII alone, so that most titles take the shortcuts (as they are, lower case only, runs folded).
    const asciiTitle = fc.string({ unit: fc.constantFrom('a', 'z', 'B', 'Z', '0', '9', ' ', ' ', '  ', ':', '-', '.', '_', '~', '<', '>') });
    const title = fc.oneof(anyTitle, asciiTitle);
    fc.assert(
      fc.property(title, (value) => {
        const general = value
          .normalize('NFKD')
          // Accents and points dropped, every other mark composed back with its letter.
          .replace(/[\u0300-\u036f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u064b-\u0652\u0670\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f\u{e0100}-\u{e01ef}]/gu, '')
          .normalize('NFC')
          .toLowerCase()
          // Letters NFKD leaves whole, written as the letters they are read as.
          .replace(/ß/g, 'ss')
          .replace(/ø/g, 'o')
          .replace(/ł/g, 'l')
          .replace(/[đð]/g, 'd')
          .replace(/ħ/g, 'h')
          .replace(/ŧ/g, 't')
          .replace(/þ/g, 'th')
          .replace(/æ/g, 'ae')
          .replace(/œ/g, 'oe')
          // A tag holds no `<`: `x < y <b>` loses only `<b>` (and an unclosed `<` is no longer read to the end).
          .replace(/<[^<>]*>/g, ' ')
          // A mark after no letter or digit goes with what it follows.
          .replace(/(?:[^\p{L}\p{M}\p{N}]\p{M}*)+|^\p{M}+/gu, ' ')
          .trim();
        expect(normalizeTitle(value)).toBe(general);
      }),
    );
  });

  it('blocks a normalised title by its first three words after its opening words and its last three, or whole when it has three or fewer', () => {
    const opening = new Set(['a', 'of', 'the', 'towards']);
    const wordsOf = fc.array(
      fc.constantFrom('a', 'of', 'the', 'towards', 'survey', 'surveys', 'é', '2024', 'ab', 'paediatric', 'pediatric', 'oesophagus', 'aoe', 'covid19x', 'x2abcdef'),
      { minLength: 1, maxLength: 8 },
    );
    /** The head as its spellings share it: "ae" and "oe" read as "e", each run of Latin letters cut to four. */
    const foldedHead = (words: string[]): string => {
      let skipped = 0;
      while (skipped < words.length && opening.has(words[skipped]!)) skipped += 1;
      const rest = words.slice(skipped);
      const head = rest.length >= 3 ? rest.slice(0, 3) : words.slice(0, 3);
      return head.join(' ').replace(/[ao]e/g, 'e').replace(/([a-z]{4})[a-z]+/g, '$1');
    };
    fc.assert(
      fc.property(wordsOf, wordsOf, (words, otherWords) => {
        const [value, other] = [words.join(' '), otherWords.join(' ')];
        const blocks = titleBlocks(value);
        if (words.length <= 3) {
          expect(blocks).toEqual({ whole: value });
          return;
        }
        expect('tail' in blocks && blocks.tail).toBe(words.slice(-3).join(' '));
        const otherBlocks = titleBlocks(other);
        // Two heads share a key exactly when they are spelled alike (no two heads of these words share a hash).
        if ('head' in blocks && 'head' in otherBlocks) expect(blocks.head === otherBlocks.head).toBe(foldedHead(words) === foldedHead(otherWords));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts and lists the bigrams of a normalised title as titleBigrams does, without removing its spaces first', () => {
    const title = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '  ', '-', '1', 'é', 'ß', '\u{1d400}', '\t', ':'), maxLength: 40 });
    fc.assert(
      fc.property(title, (value) => {
        const normalized = normalizeTitle(value);
        expect(normalizedTitleBigrams(normalized)).toEqual(titleBigrams(normalized));
        expect(normalizedTitleBigramCount(normalized)).toBe(titleBigrams(normalized).length);
      }),
    );
  });

  it('finds titles similar exactly when their Dice coefficient (string-similarity) reaches 0.9', () => {
    const title = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', 'é', '\u{1d400}'), minLength: 6, maxLength: 30, size: 'max' });
    // Pairs that differ by a small edit sit near the threshold, where an error would show.
    const edited = fc.tuple(title, fc.nat(24), fc.constantFrom('', 'a', 'ab', ' ')).map(([value, at, insert]) => `${value.slice(0, at)}${insert}${value.slice(at + 1)}`);
    fc.assert(
      fc.property(title, fc.oneof(title, edited), (a, b) => {
        const general = a === b || (a.length >= 8 && b.length >= 8 && stringSimilarity.compareTwoStrings(a, b) >= 0.9);
        expect(titlesSimilar(a, b)).toBe(general);
      }),
      { numRuns: 5000 },
    );
  });
});
