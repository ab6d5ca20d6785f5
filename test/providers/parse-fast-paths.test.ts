import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BraveProvider } from '../../src/providers/brave.js';
import { noWordProblem } from '../../src/domain/closed-query.js';
import { httpUrl, text } from '../../src/providers/parse-helpers.js';
import { SearxngProvider } from '../../src/providers/searxng.js';
import { makeProvider, makeQuery } from '../support/run-provider.js';
import { urlsParsedBy as countParses } from '../support/url-parses.js';

/** The general rule for a result URL: what the URL parser makes of it, when it is http or https. */
function parsedHttpUrl(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** Counts the URLs parsed while `run` runs. */
function urlsParsedBy(run: () => void): number {
  return countParses(run).parsed;
}

describe('parse shortcuts for plain values', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('gives for any URL-like string exactly what the URL parser gives', () => {
    const host = fc.constantFrom('example.org', 'a.b', 'Example.ORG', '1.2.3', 'x.0x1', '127.0.0.1', 'xn--nxasmq6b.com', 'xn--a.com', '-a.b', 'a..b', 'a.b.', '3com.com', 'u:p@a.b', 'a.b:443', 'a.b:8080', '');
    const piece = fc.constantFrom(...'aZ09-._~!$&()*+,;=:@/?#%\'"[]^`{}| \\é'.split(''), '%2e', '%2E', '%41', '%zz', '/./', '/../', '/.', '/..', '\t');
    const url = fc.tuple(fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', ' https://', ''), host, fc.string({ unit: piece, maxLength: 12 }));
    fc.assert(
      fc.property(url, ([scheme, name, rest]) => {
        const value = `${scheme}${name}${rest}`;
        expect(httpUrl(value)).toBe(parsedHttpUrl(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('takes a plainly well-formed result URL as it is, without parsing it', () => {
    const plain = ['https://shared.example.org/0a1b2c3d4e/3', 'http://en.wikipedia.org/wiki/Rank_(fusion)?a=1&b=%20#History'];
    expect(urlsParsedBy(() => plain.forEach((value) => expect(httpUrl(value)).toBe(value)))).toBe(0);
    // Anything the parser would change still goes through it.
    expect(urlsParsedBy(() => expect(httpUrl('HTTPS://Example.org:443/a/../b')).toBe('https://example.org/b'))).toBe(1);
  });

  it('folds the white space of tagless text exactly as the general rule does, and leaves no empty text', () => {
    const piece = fc.constantFrom('a', 'é', '>', ';', ' ', '  ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u0001');
    fc.assert(
      fc.property(fc.string({ unit: piece, maxLength: 16 }), (value) => {
        expect(text(value)).toBe(value.replace(/\s+/g, ' ').trim() || undefined);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('request URLs built once per provider', () => {
  /** The general rule: the endpoint parsed, each parameter set on its searchParams. */
  function withParametersSet(address: string, parameters: [string, string][]): string {
    const url = new URL(address);
    for (const [name, value] of parameters) url.searchParams.set(name, value);
    return url.toString();
  }

  it('serialise the query exactly as setting each parameter would, whatever the text', () => {
    const provider = makeProvider(BraveProvider, { BRAVE_API_KEY: 'k' });
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 50 }), (queryText, limit) => {
        // A text with no word at all (`(`, ``) is refused, never built (noWordProblem).
        fc.pre(noWordProblem(queryText) === undefined);
        const { url } = provider.buildRequest(makeQuery(queryText, 'web', limit, { language: 'de' }));
        const expected = withParametersSet('https://api.search.brave.com/res/v1/web/search', [
          ['q', queryText],
          ['count', String(Math.min(limit, 20))],
          ['offset', '0'],
          ['search_lang', 'de'],
        ]);
        expect(url).toBe(expected);
      }),
    );
  });

  it('never see a base URL that brings a query: the path they append would land inside it, so it is refused', () => {
    expect(() => makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local/?token=a b' })).toThrow(
      'SEARXNG_URL: expected an absolute http or https URL with no user info, query or fragment',
    );
  });

  it('parse the endpoint once, not once per request', () => {
    const provider = makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local/' });
    provider.buildRequest(makeQuery('first'));
    expect(urlsParsedBy(() => provider.buildRequest(makeQuery('second')))).toBe(0);
  });
});
