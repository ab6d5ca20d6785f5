import { describe, expect, it } from 'vitest';
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
  ];
  for (const { provider, parameter, excluding } of PROVIDERS) {
    it.each(table)(`${provider.name}: %j excludes its NOT's term alone`, (typed, { excluded, wanted }) => {
      const text = sent(provider, parameter, typed);
      expect({ text, read: wordRead(text, excluded, excluding) }).toEqual({ text, read: 'excluded' });
      for (const word of wanted) expect({ text, word, read: wordRead(text, word, excluding) }).toEqual({ text, word, read: 'wanted' });
    });
  }
});
