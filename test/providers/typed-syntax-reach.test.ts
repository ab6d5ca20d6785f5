import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import type { SearchKind } from '../../src/domain/result.js';
import { ArxivProvider } from '../../src/providers/arxiv.js';
import { BraveProvider } from '../../src/providers/brave.js';
import { CrossrefProvider } from '../../src/providers/crossref.js';
import { ExaProvider } from '../../src/providers/exa.js';
import { FirecrawlProvider } from '../../src/providers/firecrawl.js';
import { GithubProvider } from '../../src/providers/github.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import { LocalProvider } from '../../src/providers/local.js';
import { OpenAlexProvider } from '../../src/providers/openalex.js';
import type { Provider } from '../../src/providers/provider.js';
import { PubmedProvider } from '../../src/providers/pubmed.js';
import { SearxngProvider } from '../../src/providers/searxng.js';
import { SemanticScholarProvider } from '../../src/providers/semanticscholar.js';
import { TavilyProvider } from '../../src/providers/tavily.js';
import { WikipediaProvider } from '../../src/providers/wikipedia.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import { noWordProblem } from '../../src/domain/closed-query.js';
import { makeProvider, makeQuery } from '../support/run-provider.js';

/**
 * What each provider is sent of typed query syntax that the readers of excluded terms missed: a NOT inside a group, a
 * query with no word at all, an excluded term between two alternatives, and excluded groups nested more than one deep.
 */
const youtube = makeProvider(YoutubeProvider, { YOUTUBE_API_KEY: 'test-key' });
const hackernews = makeProvider(HackerNewsProvider);
const arxiv = makeProvider(ArxivProvider);
const pubmed = makeProvider(PubmedProvider);
const openalex = makeProvider(OpenAlexProvider);
const github = makeProvider(GithubProvider);
const semanticscholar = makeProvider(SemanticScholarProvider);
const crossref = makeProvider(CrossrefProvider);
const tavily = makeProvider(TavilyProvider, { TAVILY_API_KEY: 'test-key' });
const exa = makeProvider(ExaProvider, { EXA_API_KEY: 'test-key' });

const KIND: Record<string, SearchKind> = { papers: 'papers', video: 'video', code: 'code' };
/** Where each provider's request carries the text. */
const PARAMETER: Record<string, string> = {
  youtube: 'q',
  hackernews: 'query',
  arxiv: 'search_query',
  pubmed: 'term',
  openalex: 'search',
  github: 'q',
  semanticscholar: 'query',
  crossref: 'query',
  brave: 'q',
  searxng: 'q',
  wikipedia: 'srsearch',
};

/** The text a provider's request carries for a typed text. */
function sent(provider: Provider, text: string): string {
  const request = provider.buildRequest(makeQuery(text, KIND[provider.settings.kind] ?? 'web', 5));
  if (request.body !== undefined) return (JSON.parse(request.body) as { query: string }).query;
  return new URL(request.url).searchParams.get(PARAMETER[provider.name]!)!;
}

describe('a NOT that opens a group, for the providers that read no NOT of their own', () => {
  // Seen only at the start or after a space, `(NOT x)` reached these as the words NOT and x, which they then searched
  // for (arXiv as the clause all:x, Semantic Scholar and Crossref as a word to score by).
  const table: Array<[Provider, string, string]> = [
    [youtube, 'surfing (NOT kitesurfing)', 'surfing -kitesurfing'],
    [youtube, 'surfing (NOT (kitesurfing OR "wave pool")) hawaii', 'surfing -kitesurfing -"wave pool" hawaii'],
    [youtube, '(NOT kitesurfing) surfing', '-kitesurfing surfing'],
    [hackernews, 'rust (NOT crab)', 'rust -crab'],
    [hackernews, 'rust (AND NOT (crab OR zig)) wasm', 'rust -crab -zig wasm'],
    [arxiv, 'asthma (NOT mice)', 'all:asthma ANDNOT all:mice'],
    [semanticscholar, 'asthma (NOT mice)', 'asthma'],
    [crossref, 'asthma (NOT (mice OR rats)) children', 'asthma children'],
  ];
  it.each(table.map(([provider, text, expected]) => ({ name: provider.name, provider, text, expected })))(
    '$name is sent $text as $expected',
    ({ provider, text, expected }) => {
      expect(sent(provider, text)).toBe(expected);
    },
  );
});

describe('a NOT that opens a group holding more than its term and alternatives to it', () => {
  // `(NOT mice children)` was closed as `NOT (mice children)`: children, a word searched for, was excluded too (YouTube
  // was sent `-mice -children`, arXiv `ANDNOT (all:mice OR all:children)`), and `(NOT mice asthma)` was skipped by
  // PubMed and OpenAlex as a query of excluded terms alone.
  const readers = [youtube, hackernews, arxiv, pubmed, openalex, github, semanticscholar, crossref];
  /** What a provider is sent, or why it is not. */
  const sentOrProblem = (provider: Provider, text: string): string => provider.queryProblem?.(text) ?? sent(provider, text);
  const pairs: Array<[string, string]> = [
    ['asthma (NOT mice children)', 'asthma (-mice children)'],
    ['(NOT mice asthma)', '(-mice asthma)'],
    ['surfing (NOT kitesurfing AND hawaii)', 'surfing (-kitesurfing AND hawaii)'],
    ['covid (NOT "long covid" vaccine)', 'covid (-"long covid" vaccine)'],
    ['asthma (NOT (mice OR rats) children)', 'asthma (-(mice OR rats) children)'],
  ];

  it.each(readers.map((provider) => ({ name: provider.name, provider })))('$name excludes the term alone, as it does a -term there', ({ provider }) => {
    for (const [typed, minus] of pairs) expect(sentOrProblem(provider, typed), `${provider.name}: ${typed}`).toBe(sentOrProblem(provider, minus));
  });

  it('sends the other words of the group to be found', () => {
    expect(sent(arxiv, 'asthma (NOT mice children)')).toBe('(all:asthma AND all:children) ANDNOT all:mice');
    expect(sent(pubmed, '(NOT mice asthma)')).toMatch(/^\(.*\basthma\b.*\) NOT mice$/);
    for (const provider of [youtube, hackernews]) {
      const words = sent(provider, 'asthma (NOT mice children)');
      expect(words, provider.name).toMatch(/-mice/);
      expect(words, provider.name).toMatch(/(?<![-\w])children/);
      expect(words, provider.name).not.toMatch(/-children/);
    }
  });
});

describe('a query with no word at all', () => {
  const noWord = 'the query has no word to search for, only operators (AND, OR, NOT), quotes, parentheses or punctuation';
  // Sent as typed, `(` or `-` asked Tavily and Exa for punctuation, and Crossref, YouTube and Hacker News for anything.
  // Nor `.`, `!!!` or `+`: punctuation and ASCII symbols alone, which every API's tokenizer drops (`?` too, which
  // OpenAlex's own check finds first as a wildcard: the pipeline asks noWordProblem before it).
  const texts = ['(', '"', 'AND (', 'NOT ""', '-', '-(', '- -', 'OR', '.', '!!!', '+', '…', ':)'];

  it('is a problem for every provider (the pipeline skips them all for it: test/http/refused-before-sending)', () => {
    for (const text of [...texts, '?', '"?"']) expect(noWordProblem(text), text).toBe(noWord);
    // A word among them is searched for.
    for (const text of ['(rust', '-rust', 'NOT "a b"', 'OR rust', 'C++', 'C#', '🦀', '€']) expect(noWordProblem(text), text).toBeUndefined();
  });

  it.each([youtube, hackernews, pubmed, openalex, github].map((provider) => ({ name: provider.name, provider })))(
    '$name, whose own rewriting would send an empty text for it, builds no request for it',
    ({ provider }) => {
      for (const text of texts) {
        let refused: unknown;
        try {
          sent(provider, text);
        } catch (error) {
          refused = error;
        }
        expect(refused, `${provider.name}: ${text}`).toBeInstanceOf(FedsearchError);
        expect([(refused as FedsearchError).code, (refused as FedsearchError).message]).toEqual(['QUERY_INVALID', noWord]);
      }
    },
  );
});

describe('an excluded term between two alternatives, for YouTube and Hacker News', () => {
  // Taken with both its ORs, `a OR -b OR c` was sent `a -b c`: videos with both a and c, where either was asked for.
  const table: Array<[Provider, string, string]> = [
    [youtube, 'surfing OR -kitesurfing OR sailing', 'surfing|sailing -kitesurfing'],
    [youtube, 'surfing OR NOT kitesurfing OR sailing', 'surfing|sailing -kitesurfing'],
    [youtube, 'surfing OR -(kitesurfing OR foil) OR sailing hawaii', 'surfing|sailing hawaii -kitesurfing -foil'],
    // With no alternative on one side, the OR still goes with the excluded term: `-kitesurfing|surfing` would make it one.
    [youtube, 'surfing OR -kitesurfing', 'surfing -kitesurfing'],
    [youtube, '-kitesurfing OR surfing', '-kitesurfing surfing'],
    // Algolia has no OR: every word is required, as for `rust OR zig`.
    [hackernews, 'rust OR -crab OR zig', 'rust zig -crab'],
  ];
  it.each(table.map(([provider, text, expected]) => ({ name: provider.name, provider, text, expected })))(
    '$name is sent $text as $expected',
    ({ provider, text, expected }) => {
      expect(sent(provider, text)).toBe(expected);
    },
  );
});

describe('an excluded group with groups nested in it more than one deep', () => {
  // One nested group was read; deeper, the NOT or - was left as typed: arXiv was sent `all:d AND (all:a OR …)`, PubMed
  // and OpenAlex `d -(a OR …)` (no minus to them), YouTube `d -(a|(b…`, each asking for the excluded words.
  const table: Array<[Provider, string, string]> = [
    [arxiv, 'asthma NOT (mice OR (rats AND (dogs OR cats)))', 'all:asthma ANDNOT (all:mice OR all:rats OR all:dogs OR all:cats)'],
    [arxiv, 'asthma -(mice OR (rats (dogs cats)))', 'all:asthma ANDNOT (all:mice OR all:rats OR all:dogs OR all:cats)'],
    [pubmed, 'asthma -(mice OR (rats (dogs cats)))', '(asthma) NOT (mice OR rats OR dogs OR cats)'],
    [pubmed, 'NOT (mice OR (rats OR (dogs))) asthma', '(asthma) NOT (mice OR rats OR dogs)'],
    // A NOT after words is PubMed's and OpenAlex's own, nested as they read it.
    [pubmed, 'asthma NOT (mice OR (rats AND (dogs OR cats)))', 'asthma NOT (mice OR (rats AND (dogs OR cats)))'],
    [openalex, 'asthma AND NOT (mice OR (rats OR (dogs)))', '(asthma) NOT (mice OR rats OR dogs)'],
    [github, 'tokio NOT (async OR (futures OR (mio)))', 'is:public tokio NOT async NOT futures NOT mio'],
    [github, 'tokio -(async OR (futures (mio)))', 'is:public tokio NOT async NOT futures NOT mio'],
    [youtube, 'surfing NOT (kitesurfing OR (foil OR (wing)))', 'surfing -kitesurfing -foil -wing'],
    [hackernews, 'rust -(crab OR (zig (nim)))', 'rust -crab -zig -nim'],
    [semanticscholar, 'asthma -(mice OR (rats (dogs)))', 'asthma'],
    [crossref, 'asthma NOT (mice OR (rats OR (dogs)))', 'asthma'],
  ];
  it.each(table.map(([provider, text, expected]) => ({ name: provider.name, provider, text, expected })))(
    '$name is sent $text as $expected',
    ({ provider, text, expected }) => {
      expect(sent(provider, text)).toBe(expected);
    },
  );

  /** Whether a provider's text asks for the word: anywhere but after its own way of excluding. */
  const asks: Array<[Provider, (text: string, word: string) => boolean]> = [
    [arxiv, (text, word) => (text.split(' ANDNOT ')[0] ?? '').includes(`all:${word}`) || !text.includes(' ANDNOT ')],
    [pubmed, (text, word) => new RegExp(`\\b${word}\\b`).test(text.split(' NOT ')[0] ?? '') || !text.includes(' NOT ')],
    [openalex, (text, word) => new RegExp(`\\b${word}\\b`).test(text.split(' NOT ')[0] ?? '') || !text.includes(' NOT ')],
    [github, (text, word) => new RegExp(`(?<!NOT )\\b${word}\\b`).test(text)],
    [youtube, (text, word) => new RegExp(`(?<!-)\\b${word}\\b`).test(text)],
    [hackernews, (text, word) => new RegExp(`(?<!-)\\b${word}\\b`).test(text)],
    [semanticscholar, (text, word) => new RegExp(`\\b${word}\\b`).test(text)],
    [crossref, (text, word) => new RegExp(`\\b${word}\\b`).test(text)],
  ];

  it('never asks any provider for a word of the excluded group, however deep it nests', () => {
    const excludedWords = fc.uniqueArray(fc.constantFrom('mice', 'rats', 'dogs', 'cats', 'pigs'), { minLength: 1, maxLength: 5 });
    // Each level's words joined by one way, then the next level's group: `(mice OR (rats (dogs AND cats)))`.
    const nested = fc
      .tuple(excludedWords, fc.array(fc.constantFrom(' OR ', ' ', ' AND '), { minLength: 5, maxLength: 5 }), fc.integer({ min: 1, max: 5 }))
      .map(([words, joins, perLevel]) => {
        const levels: string[][] = [];
        for (let index = 0; index < words.length; index += perLevel) levels.push(words.slice(index, index + perLevel));
        return { words, group: levels.reduceRight((inner, level, depth) => `(${[...level, ...(inner ? [inner] : [])].join(joins[depth]!)})`, '') };
      });
    const form = fc.constantFrom(
      (group: string) => `asthma NOT ${group}`,
      (group: string) => `asthma -${group}`,
      (group: string) => `NOT ${group} asthma`,
      (group: string) => `-${group} asthma`,
      (group: string) => `asthma AND NOT ${group}`,
      (group: string) => `asthma (NOT ${group})`,
    );
    fc.assert(
      fc.property(nested, form, ({ words, group }, write) => {
        const text = write(group);
        for (const [provider, asksFor] of asks) {
          const query = sent(provider, text);
          expect(query, `${provider.name}: ${text}`).toContain('asthma');
          for (const word of words) expect(asksFor(query, word), `${provider.name} asks for ${word}: ${text} → ${query}`).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('a NOT before alternatives, in a group or not, and a term excluded inside an excluded group', () => {
  /**
   * Whether a provider's text excludes the word (after its own way of excluding), and whether it asks for it: both are
   * read off what each API documents (arXiv's ANDNOT, PubMed's and OpenAlex's `(…) NOT …`, GitHub's `NOT word`, `-word`).
   */
  const excludes: Array<[Provider, (text: string, word: string) => boolean, (text: string, word: string) => boolean]> = [
    [arxiv, (text, word) => (text.split(' ANDNOT ')[1] ?? '').includes(`all:${word}`), (text, word) => (text.split(' ANDNOT ')[0] ?? '').includes(`all:${word}`)],
    ...[pubmed, openalex].map((provider): [Provider, (text: string, word: string) => boolean, (text: string, word: string) => boolean] => [
      provider,
      (text, word) => new RegExp(`NOT (?:\\(+(?:[^()]*\\bOR )?)?${word}\\b`).test(text),
      (text, word) => new RegExp(`\\b${word}\\b`).test(text.replace(new RegExp(`NOT (?:\\(+(?:[^()]*\\bOR )?)?${word}\\b`), '')),
    ]),
    [github, (text, word) => text.includes(`NOT ${word}`), (text, word) => new RegExp(`(?<!NOT )\\b${word}\\b`).test(text)],
    ...[youtube, hackernews].map((provider): [Provider, (text: string, word: string) => boolean, (text: string, word: string) => boolean] => [
      provider,
      (text, word) => text.includes(`-${word}`),
      (text, word) => new RegExp(`(?<!-)\\b${word}\\b`).test(text),
    ]),
    ...[semanticscholar, crossref].map((provider): [Provider, (text: string, word: string) => boolean, (text: string, word: string) => boolean] => [
      provider,
      (text, word) => !new RegExp(`\\b${word}\\b`).test(text),
      (text, word) => new RegExp(`\\b${word}\\b`).test(text),
    ]),
  ];

  it.each(excludes.map(([provider, excluded, asked]) => ({ name: provider.name, provider, excluded, asked })))(
    '$name excludes the term after NOT and asks for its alternatives, with parentheses as without',
    ({ provider, excluded, asked }) => {
      // `NOT mice OR rats` is `(NOT mice) OR rats`: with parentheses, rats was excluded too.
      for (const text of ['asthma NOT mice OR rats', 'asthma (NOT mice OR rats)', '(NOT mice OR rats) asthma', 'asthma (AND NOT mice OR rats)']) {
        const query = sent(provider, text);
        expect(excluded(query, 'mice'), `${provider.name} excludes mice: ${text} → ${query}`).toBe(true);
        expect(asked(query, 'mice'), `${provider.name} asks for mice: ${text} → ${query}`).toBe(false);
        expect(excluded(query, 'rats'), `${provider.name} excludes rats: ${text} → ${query}`).toBe(false);
        expect(asked(query, 'rats'), `${provider.name} asks for rats: ${text} → ${query}`).toBe(true);
      }
    },
  );

  it('sends no OR that an excluded term left joining nothing to the providers that read the rest as words', () => {
    // `(-mice OR rats)` left `( OR rats)`: an OR with nothing before it, one more word to score by.
    for (const provider of [semanticscholar, crossref]) {
      for (const text of ['asthma (NOT mice OR rats)', 'asthma (-mice OR rats)']) expect(sent(provider, text), `${provider.name}: ${text}`).not.toMatch(/\bOR\b/);
    }
  });

  it.each(excludes.map(([provider, excluded, asked]) => ({ name: provider.name, provider, excluded, asked })))(
    '$name asks for a term excluded inside an excluded group (NOT of NOT), and excludes the others',
    ({ provider, excluded, asked }) => {
      for (const text of ['asthma NOT (mice OR NOT rats)', 'asthma -(mice OR -rats)', 'asthma NOT (NOT rats OR mice)', 'asthma AND NOT (mice OR (NOT rats))']) {
        const query = sent(provider, text);
        expect(excluded(query, 'mice'), `${provider.name} excludes mice: ${text} → ${query}`).toBe(true);
        expect(excluded(query, 'rats'), `${provider.name} excludes rats: ${text} → ${query}`).toBe(false);
        expect(asked(query, 'rats'), `${provider.name} asks for rats: ${text} → ${query}`).toBe(true);
      }
      // With nothing else in the group, the two NOTs were read as one.
      const query = sent(provider, 'asthma NOT (NOT rats)');
      expect([excluded(query, 'rats'), asked(query, 'rats')], `${provider.name}: ${query}`).toEqual([false, true]);
    },
  );

  it.each(excludes.map(([provider, excluded, asked]) => ({ name: provider.name, provider, excluded, asked })))(
    '$name excludes a term inside a `-` group that opens with a `-` term or group by how often it is negated',
    ({ provider, excluded, asked }) => {
      // A `-(` whose first term started with a `-` was read as no exclusion: x, negated three times, was asked for.
      for (const text of ['asthma -(-(-(mice)))', 'asthma -(-(-mice))', 'asthma NOT (-(-mice))', 'asthma (NOT ((mice)) rats)']) {
        const query = sent(provider, text);
        expect([excluded(query, 'mice'), asked(query, 'mice')], `${provider.name}: ${text} → ${query}`).toEqual([true, false]);
      }
      for (const text of ['asthma -((-mice))', 'asthma -(-mice)', 'asthma (NOT (-mice) rats)', 'asthma (NOT (NOT mice) rats)']) {
        const query = sent(provider, text);
        expect([excluded(query, 'mice'), asked(query, 'mice')], `${provider.name}: ${text} → ${query}`).toEqual([false, true]);
      }
      // A group-opening NOT excludes its term alone: moved before the whole group, it excluded rats, a word to find.
      for (const text of ['asthma (NOT (-mice) rats)', 'asthma (NOT ((mice)) rats)', 'asthma (NOT (NOT mice) rats)']) {
        const query = sent(provider, text);
        expect([excluded(query, 'rats'), asked(query, 'rats')], `${provider.name}: ${text} → ${query}`).toEqual([false, true]);
      }
    },
  );
});
