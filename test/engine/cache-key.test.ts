import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/engine/cached-answer.js';
import type { Provider } from '../../src/providers/provider.js';

const named = (...names: string[]) => names.map((name) => ({ name })) as unknown as Provider[];

describe('cacheKey', () => {
  it('is the JSON of kind, words, sorted providers, limit and the set filters in name order', () => {
    expect(cacheKey({ kind: 'web', text: 'Cached  Answer\t"x"', limit: 11, filters: {} }, named('tavily', 'brave'))).toBe(
      '["web","Cached Answer \\"x\\"",["brave","tavily"],11,[]]',
    );
    expect(
      cacheKey(
        { kind: 'papers', text: 'q', limit: 3, filters: { year_to: 2020, open_access: true, year_from: undefined, scope: 'code' } },
        named('openalex'),
      ),
    ).toBe('["papers","q",["openalex"],3,[["open_access",true],["scope","code"],["year_to",2020]]]');
  });

  it('is the same for the same search whatever the order of providers and filters', () => {
    const one = cacheKey({ kind: 'web', text: 'a b', limit: 5, filters: { language: 'en', safesearch: 'strict' } }, named('exa', 'brave'));
    const other = cacheKey({ kind: 'web', text: 'a   b', limit: 5, filters: { safesearch: 'strict', language: 'en' } }, named('brave', 'exa'));
    expect(other).toBe(one);
    expect(cacheKey({ kind: 'web', text: 'a b', limit: 5, filters: { language: 'de', safesearch: 'strict' } }, named('exa', 'brave'))).not.toBe(one);
  });

  it('is, for any search, the JSON the rule describes (the written-out parts skip JSON.stringify, not its text)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '  ', '\t', '\n', '\u00a0', 'É', '"', '\\', '~', '\u007f', '\u001f', '\u2028') });
    const names = fc.uniqueArray(fc.string({ unit: fc.constantFrom('a', 'B', '_', '-', '"', 'é', '1') }), { maxLength: 5 });
    const filters = fc.dictionary(fc.constantFrom('language', 'safesearch', 'year_from', 'scope'), fc.option(fc.oneof(fc.string(), fc.integer(), fc.boolean()), { nil: undefined }));
    const number = fc.oneof(fc.integer(), fc.double());
    fc.assert(
      fc.property(fc.constantFrom('web', 'papers'), text, names, number, filters, (kind, words, providerNames, limit, set) => {
        const expected = JSON.stringify([
          kind,
          words.replace(/\s+/g, ' '),
          [...providerNames].sort(),
          limit,
          Object.entries(set)
            .filter(([, value]) => value !== undefined)
            .sort(([a], [b]) => a.localeCompare(b)),
        ]);
        expect(cacheKey({ kind, text: words, limit, filters: set }, named(...providerNames))).toBe(expected);
      }),
    );
  });
});
