import fc from 'fast-check';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { doiUrl, normalizeDoi } from '../../src/domain/paper-identifiers.js';
import { CrossrefProvider } from '../../src/providers/crossref.js';
import { OpenAlexProvider } from '../../src/providers/openalex.js';
import { makeProvider, makeQuery, response } from '../support/run-provider.js';

/** A SICI-style DOI: its check character is `#`, which in a link would start a fragment. */
const SICI_DOI = '10.1002/(sici)1099-1050(199612)5:6<461::aid-hec240>3.0.co;2-#';

/** The DOI doi.org is asked for by a link: its path, decoded; a fragment or query never reaches it. */
function resolvedBy(link: string): { doi: string; search: string; hash: string } {
  const url = new URL(link);
  return { doi: decodeURIComponent(url.pathname.slice(1)), search: url.search, hash: url.hash };
}

describe('doi.org links', () => {
  it('name the whole DOI, # and ? included', () => {
    expect(resolvedBy(doiUrl(SICI_DOI))).toEqual({ doi: SICI_DOI, search: '', hash: '' });
    expect(resolvedBy(doiUrl('10.1000/a?b%c d'))).toEqual({ doi: '10.1000/a?b%c d', search: '', hash: '' });
  });

  it('leave an ordinary DOI as written', () => {
    expect(doiUrl('10.1371/journal.pone.0033693')).toBe('https://doi.org/10.1371/journal.pone.0033693');
    expect(doiUrl('10.1016/s0140-6736(20)30183-5')).toBe('https://doi.org/10.1016/s0140-6736(20)30183-5');
  });

  it('resolve to the DOI for any DOI the service accepts', () => {
    const suffix = fc.string({ unit: fc.constantFrom(...'ab9.-_;:()/<>#?%& +[]'), minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(suffix, (tail) => {
        const doi = normalizeDoi(`10.1234/${tail}`);
        fc.pre(doi !== undefined);
        expect(resolvedBy(doiUrl(doi!))).toEqual({ doi, search: '', hash: '' });
      }),
    );
  });

  it('are what adapters give as a paper URL built from its DOI', () => {
    const openalex = makeProvider(OpenAlexProvider).parseResponse(
      response(JSON.stringify({ meta: { count: 1 }, results: [{ id: 'https://openalex.org/W1', display_name: 'A SICI paper', doi: `https://doi.org/${SICI_DOI}` }] })),
      makeQuery('sici', 'papers'),
    );
    const crossref = makeProvider(CrossrefProvider).parseResponse(
      response(JSON.stringify({ status: 'ok', message: { 'total-results': 1, items: [{ DOI: SICI_DOI, title: ['A SICI paper'] }] } })),
      makeQuery('sici', 'papers'),
    );
    for (const outcome of [openalex, crossref]) {
      const item = 'items' in outcome ? outcome.items[0] : undefined;
      expect(item?.doi).toBe(SICI_DOI);
      expect(resolvedBy(item!.url)).toEqual({ doi: SICI_DOI, search: '', hash: '' });
    }
  });

  it('are what the search page links a DOI to', async () => {
    const { document } = parseHTML('<!doctype html><ol id="results"></ol>');
    (globalThis as { document?: unknown }).document = document;
    // @ts-expect-error: a plain ES module of the page, without type declarations
    const { renderResults } = (await import('../../public/results.js')) as { renderResults: (list: unknown, results: unknown[], kind: string) => void };
    renderResults(document.getElementById('results'), [{ title: 'A SICI paper', url: 'https://example.org/p', doi: SICI_DOI, score: 1, sources: [{ provider: 'crossref', rank: 1 }] }], 'papers');
    const href = [...document.querySelectorAll('.paper-links a')].map((anchor) => anchor.getAttribute('href')).find((value) => value?.startsWith('https://doi.org/'));
    expect(href).toBe(doiUrl(SICI_DOI));
    delete (globalThis as { document?: unknown }).document;
  });
});
