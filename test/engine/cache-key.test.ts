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

  it("writes a web search's site: terms as the search reads them, and nothing else it was not given so", () => {
    const web = (text: string) => cacheKey({ kind: 'web', text, limit: 5, filters: {} }, named('brave'));
    expect(web('tokio site:Docs.RS')).toBe(web('tokio site:docs.rs'));
    // The operator in any letter case, a scheme and a trailing slash: the one term the filter reads, and Brave is sent.
    expect(web('tokio SITE:docs.rs')).toBe(web('tokio site:docs.rs'));
    expect(web('tokio Site:https://Docs.rs/')).toBe(web('tokio site:docs.rs'));
    expect(web('tokio -site:Docs.rs OR SITE:HTTPS://GitHub.com/Tokio-RS/')).toBe('["web","tokio -site:docs.rs OR site:github.com/Tokio-RS",["brave"],5,[]]');
    expect(web('site:a.org OR  -SITE:b.org/ tokio')).toBe('["web","site:a.org OR -site:b.org tokio",["brave"],5,[]]');
    // Paths, words, a www. host (Brave is sent it, and reads that host alone), quoted phrases and values that name no
    // domain are as typed.
    expect(web('Tokio site:docs.rs/Tokio')).not.toBe(web('Tokio site:docs.rs/tokio'));
    expect(web('Tokio site:docs.rs')).not.toBe(web('tokio site:docs.rs'));
    expect(web('tokio site:www.docs.rs')).not.toBe(web('tokio site:docs.rs'));
    expect(web('"site:Docs.rs is down" SITE:Localhost')).toBe('["web","\\"site:Docs.rs is down\\" SITE:Localhost",["brave"],5,[]]');
    // In a papers search a site: term is words.
    const papers = (text: string) => cacheKey({ kind: 'papers', text, limit: 5, filters: {} }, named('openalex'));
    expect(papers('tokio site:Docs.rs')).not.toBe(papers('tokio site:docs.rs'));
  });

  it('reads a www. host in a domain list as the host without it, as the filter does, and leaves paths in their case', () => {
    const web = (include_domains: string[], exclude_domains?: string[]) =>
      cacheKey({ kind: 'web', text: 'q', limit: 5, filters: { include_domains, exclude_domains } }, named('brave'));
    expect(web(['www.docs.rs'])).toBe(web(['docs.rs']));
    expect(web(['www.docs.rs/tokio', 'a.org'])).toBe(web(['a.org', 'docs.rs/tokio', 'www.a.org']));
    expect(web(['a.org'], ['www.b.org'])).toBe(web(['a.org'], ['b.org']));
    expect(web(['www.docs.rs/Tokio'])).not.toBe(web(['docs.rs/tokio']));
    // Only a leading www. label is no other host: `wwwdocs.rs` and `docs.www.rs` are.
    expect(web(['wwwdocs.rs'])).not.toBe(web(['docs.rs']));
    expect(web(['docs.www.rs'])).not.toBe(web(['docs.rs']));
    // Nor one that leaves a bare suffix: `www.com` is one host, `com` every .com site.
    expect(web(['www.com'])).not.toBe(web(['com']));
  });
});
