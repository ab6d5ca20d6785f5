import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noWordProblem } from '../../src/domain/closed-query.js';
import type { SearchKind } from '../../src/domain/result.js';
import { ArxivProvider } from '../../src/providers/arxiv.js';
import { CrossrefProvider } from '../../src/providers/crossref.js';
import { GithubProvider } from '../../src/providers/github.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import { OpenAlexProvider } from '../../src/providers/openalex.js';
import type { Provider } from '../../src/providers/provider.js';
import { PubmedProvider } from '../../src/providers/pubmed.js';
import { SemanticScholarProvider } from '../../src/providers/semanticscholar.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import { makeProvider, makeQuery } from '../support/run-provider.js';

/**
 * A NOT that opens a group of more than its term binds to that term alone, for every provider: where the term is a run
 * of NOTs before it (`(NOT NOT (mice) rats)`, one NOT, as outside a group) or a number, which no `-` can exclude
 * (`(NOT 40 rats)`). Both had the NOT moved before the whole group, and rats, a word to find, was excluded.
 */
const KIND: Record<string, SearchKind> = { papers: 'papers', video: 'video', code: 'code' };
/** Each provider, where its request carries the text, and whether it can exclude (or leaves an excluded term out). */
const PROVIDERS: Array<{ provider: Provider; parameter: string; excluding: 'reads' | 'leaves out' }> = [
  { provider: makeProvider(PubmedProvider), parameter: 'term', excluding: 'reads' },
  { provider: makeProvider(OpenAlexProvider), parameter: 'search', excluding: 'reads' },
  { provider: makeProvider(GithubProvider), parameter: 'q', excluding: 'reads' },
  { provider: makeProvider(ArxivProvider), parameter: 'search_query', excluding: 'reads' },
  { provider: makeProvider(YoutubeProvider, { YOUTUBE_API_KEY: 'test-key' }), parameter: 'q', excluding: 'reads' },
  { provider: makeProvider(HackerNewsProvider), parameter: 'query', excluding: 'reads' },
  { provider: makeProvider(SemanticScholarProvider), parameter: 'query', excluding: 'leaves out' },
  { provider: makeProvider(CrossrefProvider), parameter: 'query', excluding: 'leaves out' },
];

function sent(provider: Provider, parameter: string, text: string): string {
  return new URL(provider.buildRequest(makeQuery(text, KIND[provider.settings.kind] ?? 'web', 5)).url).searchParams.get(parameter)!;
}

/**
 * How a provider's text takes a word: excluded where the NOTs (arXiv's ANDNOT) and `-`s before it and before the groups
 * it is in are odd in number, wanted where they are even; 'mixed' where it stands more than once, read both ways. A
 * provider that cannot exclude leaves an excluded word out.
 */
function wordRead(text: string, word: string, excluding: 'reads' | 'leaves out'): 'excluded' | 'wanted' | 'mixed' {
  const reads = new Set<'excluded' | 'wanted'>();
  const groupsNegated: boolean[] = [];
  let negated = false;
  for (const token of text.match(/"[^"]*"|[()]|[^\s()"]+/g) ?? []) {
    if (token === 'NOT' || token === 'ANDNOT') negated = true;
    else if (token === '(') [groupsNegated[groupsNegated.length], negated] = [negated, false];
    else if (token === ')') groupsNegated.pop();
    else {
      const minus = token.startsWith('-') ? 1 : 0;
      const negations = groupsNegated.filter(Boolean).length + (negated ? 1 : 0) + minus;
      negated = false;
      if (token.slice(minus).replace(/^all:/, '') === word) reads.add(negations % 2 === 1 ? 'excluded' : 'wanted');
    }
  }
  if (reads.size === 0) return excluding === 'leaves out' ? 'excluded' : 'mixed';
  return reads.size === 1 ? [...reads][0]! : 'mixed';
}

describe('a NOT that opens a group of more, before a run of NOTs or a number, as every provider is sent it', () => {
  const table: Array<[string, { excluded: string; wanted: string[] }]> = [
    ['asthma (NOT NOT (mice) rats)', { excluded: 'mice', wanted: ['asthma', 'rats'] }],
    ['asthma (NOT NOT mice rats)', { excluded: 'mice', wanted: ['asthma', 'rats'] }],
    ['(NOT NOT NOT (mice) rats) asthma', { excluded: 'mice', wanted: ['asthma', 'rats'] }],
    ['asthma (NOT 40 rats)', { excluded: '40', wanted: ['asthma', 'rats'] }],
    ['asthma (NOT 40 OR rats)', { excluded: '40', wanted: ['asthma', 'rats'] }],
    ['asthma (NOT NOT 40 rats)', { excluded: '40', wanted: ['asthma', 'rats'] }],
    // A group that no `-` can exclude, as a number: the NOT alone was moved before the whole group, rats excluded too.
    ['asthma (NOT (40) rats)', { excluded: '40', wanted: ['asthma', 'rats'] }],
    ['asthma (NOT ((40)) rats)', { excluded: '40', wanted: ['asthma', 'rats'] }],
  ];
  for (const { provider, parameter, excluding } of PROVIDERS) {
    it.each(table)(`${provider.name}: %j excludes its NOT's term alone`, (typed, { excluded, wanted }) => {
      const text = sent(provider, parameter, typed);
      expect({ text, read: wordRead(text, excluded, excluding) }).toEqual({ text, read: 'excluded' });
      for (const word of wanted) expect({ text, word, read: wordRead(text, word, excluding) }).toEqual({ text, word, read: 'wanted' });
    });
  }
});

describe('a NOT that opens a group of more, before a formula no `-` excludes, as every provider is sent it', () => {
  for (const { provider, parameter, excluding } of PROVIDERS) {
    it(`${provider.name}: leaves the rest of the group to find`, () => {
      // (arXiv is sent the formula as the phrase "x 1", after ANDNOT: its words are read here, not the formula.)
      const text = sent(provider, parameter, 'asthma (NOT (x+1) rats)');
      for (const word of ['asthma', 'rats']) expect({ text, word, read: wordRead(text, word, excluding) }).toEqual({ text, word, read: 'wanted' });
    });
  }
});

/**
 * `NOT -40`: a NOT before a `-` that excludes nothing (a number). No reader read it: the APIs without NOT (Semantic
 * Scholar, Crossref, YouTube, Hacker News) were sent the word NOT to find, and arXiv was asked for 40.
 */
describe('a NOT before a minus number, as every provider is sent it', () => {
  /** The providers whose API reads NOT itself: sent `NOT -40` as their own operator and its term. */
  const READS_NOT = new Set(['pubmed', 'openalex', 'github']);
  const typedTexts = ['asthma NOT -40', 'asthma (NOT -40 rats)', 'NOT -40 asthma', 'asthma AND NOT -40', 'asthma OR NOT -40 OR rats'];
  for (const { provider, parameter } of PROVIDERS) {
    it.each(typedTexts)(`${provider.name}: %j excludes -40 and never sends NOT as a word`, (typed) => {
      const text = sent(provider, parameter, typed);
      const tokens = text.split(/[\s()|]+/).filter((token) => token !== '');
      for (const word of ['asthma', ...(typed.includes('rats') ? ['rats'] : [])]) {
        expect({ text, word, found: tokens.some((token) => token.replace(/^all:/, '') === word) }).toEqual({ text, word, found: true });
      }
      if (READS_NOT.has(provider.name)) {
        // Its own operator, before the term it excludes, and never before a word to find.
        expect(text, text).toMatch(/(?:^|[\s(])NOT -40(?:$|[\s)])/);
        expect(text.match(/\bNOT\s+\S+/g) ?? [], text).toEqual(['NOT -40']);
      } else if (provider.name === 'arxiv') {
        expect(text, text).toMatch(/ ANDNOT all:40$/);
        expect(text.match(/all:40\b/g), text).toHaveLength(1);
      } else {
        // A `-` cannot exclude -40 (`--40` is none, `-40` a number to find): it is left out, as these leave out
        // every term they cannot exclude.
        expect(tokens, text).not.toContain('NOT');
        expect(text, text).not.toMatch(/40/);
      }
    });
  }

  it('never sends the word NOT, nor 40 where it cannot be excluded, however the NOT -40 stands among groups and operators', () => {
    // No NOT before a group: one holding `NOT -40` is excluded itself, and -40, excluded twice, is asked for.
    const item = fc.constantFrom('asthma', 'rats', 'NOT -40', 'NOT -40', 'OR', 'AND', '(', ')', '(NOT -40');
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), (items) => {
        const typed = ['asthma', ...items].join(' ');
        for (const { provider, parameter } of PROVIDERS) {
          if (READS_NOT.has(provider.name) || noWordProblem(typed) !== undefined || provider.queryProblem?.(typed) !== undefined) continue;
          const text = sent(provider, parameter, typed);
          expect(text.split(/[\s()|]+/), `${provider.name}: ${typed} → ${text}`).not.toContain('NOT');
          if (provider.name !== 'arxiv') expect(text, `${provider.name}: ${typed} → ${text}`).not.toMatch(/40/);
          else expect(text.split(' ANDNOT ')[0], `${typed} → ${text}`).not.toMatch(/40/);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('skips YouTube and Hacker News for a text with nothing else to search, saying why', () => {
    for (const { provider } of PROVIDERS.filter(({ provider: { name } }) => name === 'youtube' || name === 'hackernews')) {
      expect(provider.queryProblem?.('NOT -40'), provider.name).toMatch(/no words .* can search for.*cannot exclude/);
      expect(provider.queryProblem?.('asthma NOT -40'), provider.name).toBeUndefined();
      expect(provider.queryProblem?.('NOT mice'), provider.name).toBeUndefined();
    }
  });
});
