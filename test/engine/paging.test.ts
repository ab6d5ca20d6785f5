import { describe, expect, it } from 'vitest';
import type { ProviderOutcome } from '../../src/domain/outcome.js';
import type { SearchResult } from '../../src/domain/result.js';
import { isStoredAnswer, type CachedAnswer } from '../../src/engine/cached-answer.js';
import { extendResults, hasMorePages, isEmptyPlace, keptAsShown, pageOf, servesPage } from '../../src/engine/paging.js';

function result(url: string, extra: Partial<SearchResult> = {}): SearchResult {
  return { title: url, url, score: 1, sources: [{ provider: 'brave', rank: 1 }], ...extra };
}

function answer(results: number, depth: number, counts: number[]): CachedAnswer {
  const providers: ProviderOutcome[] = counts.map((count, index) => ({ provider: `p${index}`, status: 'ok', count, latency_ms: 1 }));
  return { results: Array.from({ length: results }, (_, index) => result(`https://r.example/${index}`)), depth, providers, cached_at: 0 };
}

describe('pages of one fused list', () => {
  it('slices page after page without overlap', () => {
    const list = [1, 2, 3, 4, 5, 6, 7];
    expect([pageOf(list, 3, 1), pageOf(list, 3, 2), pageOf(list, 3, 3), pageOf(list, 3, 4)]).toEqual([[1, 2, 3], [4, 5, 6], [7], []]);
  });

  it('serves a page from a list that fills it, or that no provider could lengthen', () => {
    expect(servesPage(answer(22, 11, [11, 11]), 10, 2)).toBe(true);
    // 15 results, and a provider gave all 11 it was asked for: asking deeper may fill page 2.
    expect(servesPage(answer(15, 11, [11, 4]), 10, 2)).toBe(false);
    // Every provider gave less than it was asked for: there is nothing more to get.
    expect(servesPage(answer(15, 11, [10, 5]), 10, 2)).toBe(true);
    // Gathered deep enough already (for a later page), whatever its length.
    expect(servesPage(answer(15, 31, [15]), 10, 2)).toBe(true);
  });

  it('says a next page exists when the list reaches past this page, or a deeper list would be gathered for it', () => {
    expect(hasMorePages(answer(11, 11, [11]), 10, 1)).toBe(true);
    expect(hasMorePages(answer(10, 11, [10]), 10, 1)).toBe(false);
    expect(hasMorePages(answer(20, 21, [20]), 10, 2)).toBe(false);
    expect(hasMorePages(answer(20, 11, [11, 9]), 10, 2)).toBe(true);
    expect(hasMorePages(answer(200, 101, [101, 101]), 10, 10)).toBe(false);
  });

  it('counts a provider the engine filtered by its full upstream answer, not by the few results its filter kept', () => {
    // Brave asked for 6 gave 6, of which the filter kept 3: the results past the sixth may match too.
    const filtered = { ...answer(3, 6, [3]), upstreamFull: ['p0'] };
    expect(hasMorePages(filtered, 5, 1)).toBe(true);
    expect(servesPage(filtered, 5, 2)).toBe(false);
    // Without it, 3 of 6 reads as a provider that gave all it has.
    expect(hasMorePages(answer(3, 6, [3]), 5, 1)).toBe(false);
    expect(servesPage(answer(3, 6, [3]), 5, 2)).toBe(true);
    // Another provider's full answer does not make this one's count full.
    expect(hasMorePages({ ...answer(3, 6, [3]), upstreamFull: ['elsewhere'] }, 5, 1)).toBe(false);
  });

  it('extends a shown list with a deeper one without moving or repeating what was shown', () => {
    const shown = [result('https://a.example/'), result('https://b.example/'), result('https://p.example/1', { doi: '10.1/x' })];
    const deeper = [
      result('https://b.example/'),
      result('https://c.example/'),
      result('https://www.a.example'),
      result('https://doi.org/10.1/x', { doi: '10.1/x' }),
      result('https://d.example/'),
    ];
    expect(extendResults(shown, deeper).map((entry) => entry.url)).toEqual([
      'https://a.example/',
      'https://b.example/',
      'https://p.example/1',
      'https://c.example/',
      'https://d.example/',
    ]);
    expect(extendResults([], deeper)).toBe(deeper);
  });

  it('extends a paper list with a deeper work under a listed work\'s link, and not with the listed work come back', () => {
    // OpenAlex links chapters without a DOI of their own to the landing page of their book: one link, two works.
    const book = 'https://www.taylorfrancis.com/books/9781003000000';
    const paper = (title: string): SearchResult => result(book, { title, year: 2020 });
    const shown = [paper('Soil carbon flux in boreal peatlands'), result('https://openalex.org/W2', { title: 'Glacier melt modelling', year: 2020 })];
    const deeper = [paper('Soil carbon flux in boreal peatlands'), paper('Urban heat islands and street canyon ventilation')];
    expect(extendResults(shown, deeper, 'papers').map((entry) => entry.title)).toEqual([
      'Soil carbon flux in boreal peatlands',
      'Glacier melt modelling',
      'Urban heat islands and street canyon ventilation',
    ]);
    // A web page is its link, whatever its title.
    expect(extendResults([result('https://a.example/', { title: 'A' })], [result('https://a.example/', { title: 'B' })], 'web')).toHaveLength(1);
  });

  it('keeps the places of pages a list served short, and only of those, before a deeper list extends it', () => {
    const three = answer(3, 6, [6]).results;
    // Asked 6 deep for page 1 of 5, it served page 1 with three: page 2 starts after page 1's five places.
    const forPage2 = keptAsShown(three, 6, 5, 2);
    expect(forPage2.slice(0, 3)).toEqual(three);
    expect(forPage2.map(isEmptyPlace)).toEqual([false, false, false, true, true]);
    // Page 2 was never served from a list 6 deep (a deeper one was gathered for it): page 3 adds no place for it.
    expect(keptAsShown(three, 6, 5, 3)).toHaveLength(5);
    // Asked 11 deep, it served pages 1 and 2 with what it had.
    expect(keptAsShown(three, 11, 5, 3)).toHaveLength(10);
    // A page 1 asks nothing before it, and a list that filled its pages keeps them as they are.
    expect(keptAsShown(three, 6, 5, 1)).toBe(three);
    const full = answer(12, 11, [11]).results;
    expect(keptAsShown(full, 11, 5, 3)).toBe(full);
  });

  it('extends past the empty places without taking them for results, and keeps them through a shared cache', () => {
    const kept = keptAsShown([result('https://a.example/')], 6, 5, 2);
    const extended = extendResults(kept, [result('https://a.example/'), result('https://b.example/')]);
    expect(extended.map((entry) => (isEmptyPlace(entry) ? '' : entry.url))).toEqual(['https://a.example/', '', '', '', '', 'https://b.example/']);
    // Redis keeps the answer as JSON: read back, it is still an answer to serve, its places still empty.
    const stored: unknown = JSON.parse(JSON.stringify({ ...answer(0, 11, [11]), results: extended }));
    expect(isStoredAnswer(stored)).toBe(true);
    expect((stored as CachedAnswer).results.map(isEmptyPlace)).toEqual(extended.map((entry) => entry.url === ''));
  });
});
