import { describe, expect, it } from 'vitest';
import {
  answerItems,
  itemsOf,
  jsonObjectEnd,
  listedCount,
  encodePathSegments,
  extraFields,
  htmlToText,
  isoDate,
  parseJsonObject,
  plainXmlText,
  retryAfterMs,
  snippetOf,
  yearFrom,
} from '../../src/providers/parse-helpers.js';
import { FedsearchError } from '../../src/domain/errors.js';
import { response } from '../support/run-provider.js';

describe('parse helpers', () => {
  it('reads the date forms upstreams send, in UTC whatever the server zone', () => {
    expect(isoDate('2024-05-02T10:00:00')).toBe('2024-05-02T10:00:00.000Z');
    expect(isoDate('2024-01-15 08:30:00')).toBe('2024-01-15T08:30:00.000Z');
    expect(isoDate('2018 Jun 19')).toBe('2018-06-19');
    expect(isoDate('2018 Jun')).toBe('2018-06');
    expect(isoDate('2020')).toBe('2020');
    expect(isoDate('Thu, 02 May 2024 10:00:00 GMT')).toBe('2024-05-02T10:00:00.000Z');
    expect(isoDate(1_700_000_000)).toBe('2023-11-14T22:13:20.000Z');
    expect(isoDate('2024-13-45')).toBeUndefined();
    expect(isoDate('yesterday')).toBeUndefined();
    expect(isoDate('')).toBeUndefined();
  });

  it('gives a month and year without a day as that month, and a season as its year: no day the source never gave', () => {
    for (const monthOfYear of ['Apr 2024', 'April 2024', 'April, 2024', 'Apr. 2024', 'Apr-2024', '2024/04', '2024-4', '04/2024', '2024 Apr']) {
      expect(isoDate(monthOfYear), monthOfYear).toBe('2024-04');
    }
    expect(isoDate('Sept 2023')).toBe('2023-09');
    expect(isoDate('Spring 2024')).toBe('2024');
    expect(isoDate('2024/13')).toBeUndefined();
    // A day is kept when one is given.
    expect(isoDate('5 April 2024')).toBe('2024-04-05');
  });

  it('reads a written-out day ("April 4, 2024", Brave\'s age) as that calendar day in any server zone', () => {
    const zone = process.env.TZ;
    try {
      for (const serverZone of ['Asia/Tokyo', 'America/Los_Angeles', 'UTC']) {
        // Node reads TZ again when it changes: the same process stands in for servers in three zones.
        process.env.TZ = serverZone;
        expect(isoDate('April 4, 2024')).toBe('2024-04-04');
        expect(isoDate('2024-04-04T23:04:00')).toBe('2024-04-04T23:04:00.000Z');
        expect(isoDate('Thu, 02 May 2024 10:00:00 GMT')).toBe('2024-05-02T10:00:00.000Z');
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('strips tags but keeps comparison signs in plain text', () => {
    expect(htmlToText('a <span class="searchmatch">b</span> &amp; c')).toBe('a b & c');
    expect(htmlToText('if a < b and c > d')).toBe('if a < b and c > d');
  });

  it('keeps the ampersands of a quoted link: a reference without its ; is read only before a space or punctuation', () => {
    // Plain-text and markdown fields (Exa highlights, Tavily content) quote links with raw &.
    expect(htmlToText('see https://example.org/w?title=Rust&action=edit&section=2&region=eu&not=1')).toBe(
      'see https://example.org/w?title=Rust&action=edit&section=2&region=eu&not=1',
    );
    expect(htmlToText('&copy 2024 AT&T, R&D &amp; more &sect;2 &#39;quoted&#x27; &lt;b&gt;')).toBe("© 2024 AT&T, R&D & more §2 'quoted' <b>");
  });

  it('reads a plausible year from a date-like value', () => {
    expect(yearFrom('published 2019-03-01')).toBe(2019);
    expect(yearFrom(999)).toBeUndefined();
  });

  it('parses a JSON object body and rejects any other body as a parse error', () => {
    expect(parseJsonObject(response('{"results": []}'))).toEqual({ results: [] });
    for (const body of ['[]', '"text"', 'null', '{"cut": ', '', '<!doctype html><html></html>']) {
      const error = (() => {
        try {
          parseJsonObject(response(body));
        } catch (thrown) {
          return thrown;
        }
        return undefined;
      })();
      expect(error, body).toBeInstanceOf(FedsearchError);
      expect((error as FedsearchError).code, body).toBe('PROVIDER_PARSE');
    }
    expect(() => parseJsonObject(response('[1]'))).toThrow('expected a JSON object');
  });

  it('keeps only the provider extras that are present, and none at all when none is', () => {
    expect(extraFields({ stars: 0, language: undefined, open_access: false, type: 'article' })).toEqual({
      stars: 0,
      open_access: false,
      type: 'article',
    });
    expect(extraFields({ language: undefined })).toBeUndefined();
    expect(extraFields({})).toBeUndefined();
  });

  it('folds the white space of XML text without touching comparison signs', () => {
    expect(plainXmlText('  p < 0.05\n   and  q > 1 ')).toBe('p < 0.05 and q > 1');
    expect(plainXmlText({ '#text': ' Rank\tfusion ', '@_lang': 'en' })).toBe('Rank fusion');
    expect(plainXmlText(2019)).toBe('2019');
    expect(plainXmlText('  \n ')).toBeUndefined();
    expect(plainXmlText({ '@_term': 'cs.IR' })).toBeUndefined();
    expect(plainXmlText(undefined)).toBeUndefined();
  });

  it('shortens an abstract to a snippet at a word break, marked with an ellipsis', () => {
    expect(snippetOf('Short abstract.')).toBe('Short abstract.');
    const exactly300 = 'a'.repeat(300);
    expect(snippetOf(exactly300)).toBe(exactly300);
    const words = Array.from({ length: 40 }, () => 'abcdefghi').join(' ');
    // 399 characters: the cut falls after the 30th word (299 characters), at the space before the next.
    expect(snippetOf(words)).toBe(`${Array.from({ length: 30 }, () => 'abcdefghi').join(' ')}…`);
    // No word break in the second half of the first 300 characters: a hard cut.
    expect(snippetOf(`${'a'.repeat(100)} ${'b'.repeat(400)}`)).toBe(`${'a'.repeat(100)} ${'b'.repeat(199)}…`);
  });

  it('never cuts a snippet between the two halves of a character outside the BMP', () => {
    // One letter, then emoji of two UTF-16 units each: the 300th unit is the first half of the 150th emoji.
    const abstract = `x${'😀'.repeat(400)}`;
    expect(snippetOf(abstract)).toBe(`x${'😀'.repeat(149)}…`);
  });

  it('percent-encodes an id for a URL path part by part, keeping its slashes', () => {
    expect(encodePathSegments('10.1093/mind/lix.236.433')).toBe('10.1093/mind/lix.236.433');
    expect(encodePathSegments('10.1002/(sici)1097-4571#x?y;z<1>')).toBe('10.1002/(sici)1097-4571%23x%3Fy%3Bz%3C1%3E');
    expect(encodePathSegments('hep-th/9901001')).toBe('hep-th/9901001');
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('Thu, 01 Jan 2026 00:00:00 GMT'))).toBe(10_000);
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('jsonObjectEnd', () => {
  it('finds the closing brace of an embedded object, braces and quotes inside strings aside', () => {
    const page = 'var x = {"a": "}{\\"", "b": {"c": 1}}; rest';
    const start = page.indexOf('{');
    const end = jsonObjectEnd(page, start)!;
    expect(JSON.parse(page.slice(start, end))).toEqual({ a: '}{"', b: { c: 1 } });
    expect(page.slice(end)).toBe('; rest');
  });

  it('answers undefined for an object cut short', () => {
    expect(jsonObjectEnd('{"a": {"b": 1}', 0)).toBeUndefined();
  });
});

describe('answerItems', () => {
  const toItem = (value: Record<string, unknown>) => (typeof value.url === 'string' ? { title: 'T', url: value.url } : undefined);

  it('keeps what could be read when some entries could not', () => {
    const listed = [null, { url: 'https://a.example/' }, { title: 'no url' }];
    expect(answerItems(listed.length, itemsOf(listed, toItem))).toEqual([{ title: 'T', url: 'https://a.example/' }]);
  });

  it('answers an empty list with no items, and a list none of whose entries could be read with a parse error', () => {
    expect(answerItems(0, [])).toEqual([]);
    expect(() => answerItems(2, itemsOf([null, {}], toItem))).toThrow(expect.objectContaining({ code: 'PROVIDER_PARSE', message: expect.stringContaining('none of the 2 listed results') }));
  });
});

describe('listedCount', () => {
  it('counts every entry of a list, unreadable ones too, and nothing for what is no list (a lone object included)', () => {
    expect(listedCount([null, {}, 'x'])).toBe(3);
    expect(listedCount([])).toBe(0);
    expect(listedCount({ url: 'https://a.example/' })).toBe(0);
    expect(listedCount(undefined)).toBe(0);
    expect(listedCount('abc')).toBe(0);
  });
});
