import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProviderItem, SearchResult } from '../../src/domain/result.js';
import { canonicalUrl, domainOf } from '../../src/engine/canonical-url.js';
import { groupResults, type MergeGroup, type RankedItem } from '../../src/engine/merge.js';
import { identifierKeys } from '../../src/engine/paper-identity.js';
import { rankResults } from '../../src/engine/rank.js';

/**
 * Web grouping and ranking keep their bookkeeping in typed arrays and reused objects; these properties state
 * each rule plainly (a Map of arrays, a record per provider, a sort) and check the engine gives exactly that.
 */

const providerName = fc.constantFrom('brave', 'tavily', 'exa', 'searxng');

/** Web entries whose URLs often name the same page in another spelling. */
const webEntries = fc
  .array(
    fc.record({
      provider: providerName,
      page: fc.nat(6),
      spelling: fc.constantFrom('https://www.', 'http://', 'https://'),
      tail: fc.constantFrom('', '/', '?b=2&a=1', '?a=1&b=2&utm_source=x', '#top', '?q=a+b', '%7Ex'),
      weight: fc.constantFrom(0.5, 1, 1.2),
      snippet: fc.option(fc.constantFrom('one', 'another'), { nil: undefined }),
    }),
    { maxLength: 40 },
  )
  .map((rows) => {
    const nextRank = new Map<string, number>();
    return rows.map(({ provider, page, spelling, tail, weight, snippet }): RankedItem => {
      const rank = (nextRank.get(provider) ?? 0) + 1;
      nextRank.set(provider, rank);
      const item: ProviderItem = { title: `Page ${page}`, url: `${spelling}site${page % 3}.example/p${page}${tail}` };
      if (snippet !== undefined) item.snippet = snippet;
      return { provider, rank, weight, item };
    });
  });

describe('web grouping', () => {
  it('groups entries by canonical URL: groups in first-seen order, members in entry order, any domain given the right one', () => {
    fc.assert(
      fc.property(webEntries, (entries) => {
        const byKey = new Map<string, RankedItem[]>();
        for (const entry of entries) {
          const key = canonicalUrl(entry.item.url);
          byKey.set(key, [...(byKey.get(key) ?? []), entry]);
        }
        const groups = groupResults('web', entries);
        const withoutDomain = ({ provider, rank, weight, item }: RankedItem): RankedItem => ({ provider, rank, weight, item });
        expect(groups.map((group) => group.map(withoutDomain))).toEqual([...byKey.values()]);
        for (const member of groups.flat()) {
          if (member.domain !== undefined) expect(member.domain).toBe(domainOf(member.item.url));
        }
      }),
    );
  });
});

/** Weighted reciprocal rank fusion as the documentation states it, one plain record per provider. */
function referenceRanking(groups: MergeGroup[], k: number): SearchResult[] {
  const round = (value: number): number => Math.round(value * 1e6) / 1e6;
  const results = groups.map((group, order) => {
    const best = new Map<string, RankedItem>();
    for (const entry of group) if (!best.has(entry.provider) || entry.rank < best.get(entry.provider)!.rank) best.set(entry.provider, entry);
    const parts = [...best.values()]
      .map((entry) => ({ provider: entry.provider, rank: entry.rank, weight: entry.weight, contribution: entry.weight / (k + entry.rank) }))
      .sort((a, b) => b.contribution - a.contribution || a.rank - b.rank);
    const contributionOf = (entry: RankedItem): number => parts.find((part) => part.provider === entry.provider)!.contribution;
    const members = [...group].sort((a, b) => contributionOf(b) - contributionOf(a) || a.rank - b.rank);
    const combined: Record<string, unknown> = { ...members[0]!.item };
    for (const member of members.slice(1)) {
      for (const [field, value] of Object.entries(member.item)) if (value !== undefined && combined[field] === undefined) combined[field] = value;
    }
    const citations = members.map((member) => member.item.citation_count).filter((count) => count !== undefined);
    if (citations.length > 0) combined.citation_count = Math.max(...citations);
    const abstracts = members.map((member) => member.item.abstract).filter((text) => text !== undefined);
    if (abstracts.length > 0) combined.abstract = abstracts.reduce((longest, text) => (text.length > longest.length ? text : longest));
    const score = round(parts.reduce((sum, part) => sum + part.contribution, 0));
    const result = {
      ...combined,
      score,
      sources: parts.map((part) => ({ provider: part.provider, rank: part.rank })),
      ...(domainOf(String(combined.url)) ? { domain: domainOf(String(combined.url)) } : {}),
      explain: parts.map((part) => ({ ...part, contribution: round(part.contribution) })),
    } as SearchResult;
    return { result, order, bestRank: Math.min(...parts.map((part) => part.rank)) };
  });
  results.sort(
    (a, b) => b.result.score - a.result.score || b.result.sources.length - a.result.sources.length || a.bestRank - b.bestRank || a.order - b.order,
  );
  return results.map(({ result }) => result);
}

describe('ranking', () => {
  it('fuses each group as the rule states: best rank per provider, contributions best first, fields from the best source', () => {
    fc.assert(
      fc.property(webEntries, (entries) => {
        const groups = groupResults('web', entries);
        // Key order counts too: the answer is serialised as it is built.
        expect(JSON.stringify(rankResults(groups, { k: 60, explain: true }))).toBe(JSON.stringify(referenceRanking(groups, 60)));
      }),
    );
  });

  it('makes only the first `atMost` results, each exactly as the whole ranking has it', () => {
    fc.assert(
      fc.property(webEntries, fc.nat(45), fc.boolean(), (entries, atMost, explain) => {
        const groups = groupResults('web', entries);
        const whole = rankResults(groups, { k: 60, explain });
        const first = rankResults(groups, { k: 60, explain, atMost });
        expect(first).toHaveLength(Math.min(atMost, groups.length));
        expect(JSON.stringify(first)).toBe(JSON.stringify(whole.slice(0, atMost)));
      }),
    );
  });

  it('makes them all for an `atMost` that is not a number below the count, and whole results for a fraction', () => {
    const groups = groupResults('web', fc.sample(webEntries.filter((entries) => entries.length >= 3), { numRuns: 1, seed: 7 })[0]!);
    const whole = JSON.stringify(rankResults(groups, { k: 60 }));
    for (const atMost of [Number.NaN, Number.POSITIVE_INFINITY, groups.length, groups.length + 5]) {
      expect(JSON.stringify(rankResults(groups, { k: 60, atMost }))).toBe(whole);
    }
    expect(rankResults(groups, { k: 60, atMost: 1.5 })).toHaveLength(1);
    expect(rankResults(groups, { k: 60, atMost: -2 })).toEqual([]);
  });
});

describe('paper identifiers', () => {
  it('keys a DOI, an arXiv id (or the one an arXiv DOI names) and a PMID, and no empty value', () => {
    const value = <T extends string>(...values: T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
    const item = fc.record({
      doi: value('', '10.1000/a', '10.48550/arXiv.2101.00001', ' 10.48550/ARXIV.2101.00002v2 '),
      arxiv_id: value('', '2101.00001'),
      pmid: value('', '123'),
    });
    fc.assert(
      fc.property(item, ({ doi, arxiv_id, pmid }) => {
        const paper: ProviderItem = { title: 't', url: 'https://p.example/', ...(doi === undefined ? {} : { doi }), ...(arxiv_id === undefined ? {} : { arxiv_id }) };
        if (pmid !== undefined) paper.pmid = pmid;
        const arxivFromDoi = /^10\.48550\/arxiv\.(\d{4}\.\d{4,5})(v\d+)?$/i.exec(doi?.trim() ?? '')?.[1];
        const arxiv = arxiv_id ?? arxivFromDoi;
        const expected = [
          ...(doi && !arxivFromDoi ? [`doi:${doi}`] : []),
          ...(arxiv ? [`arxiv:${arxiv}`] : []),
          ...(pmid ? [`pmid:${pmid}`] : []),
        ];
        expect(identifierKeys(paper)).toEqual(expected);
      }),
    );
  });
});
