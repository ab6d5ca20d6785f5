import { describe, expect, it } from 'vitest';
import { GithubProvider } from '../../src/providers/github.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import { OpenAlexProvider } from '../../src/providers/openalex.js';
import type { Provider } from '../../src/providers/provider.js';
import { PubmedProvider } from '../../src/providers/pubmed.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import { makeProvider, makeQuery } from '../support/run-provider.js';

/**
 * Formulas no phrase can hold, and phrases inside excluded groups, as each provider is sent them (or skipped).
 * YouTube and Algolia read no parentheses (YouTube documents `|` and `-`, Algolia's advancedSyntax quotes and `-`), so
 * a formula holding an operator word or a quote, which a phrase cannot hold as typed, is no term they can be sent.
 * PubMed and OpenAlex read quotes as a phrase; GitHub reads no parenthesis outside quotes and its NOT before one term.
 */
const youtube = makeProvider(YoutubeProvider, { YOUTUBE_API_KEY: 'test-key' });
const hackernews = makeProvider(HackerNewsProvider);
const github = makeProvider(GithubProvider);
const pubmed = makeProvider(PubmedProvider);
const openalex = makeProvider(OpenAlexProvider);

const PARAMETER: Record<string, string> = { youtube: 'q', hackernews: 'query', github: 'q', pubmed: 'term', openalex: 'search' };

function sent(provider: Provider, text: string): string {
  const kind = provider.settings.kind === 'video' ? 'video' : provider.name === 'github' ? 'code' : 'web';
  const request = provider.buildRequest(makeQuery(text, kind, 5));
  return new URL(request.url).searchParams.get(PARAMETER[provider.name]!)!;
}

describe('a formula holding an operator word or a quote, for YouTube and Hacker News', () => {
  // Typed → what the formula left in the text would have been sent as; each is skipped instead, with the reason.
  const skipped: ReadonlyArray<string> = [
    // A minus before a group of numbers is a formula (as `-40` is a number), not an exclusion: `-(2024|2025)` and
    // `-(2024 2025)` were sent, parentheses neither API reads.
    'x -(2024 OR 2025)',
    'x -(-40 OR y)',
    'x f(a OR b)',
    'x NOT f(a AND b)',
    // A quote inside a formula after a `-`: read as `-f` excluded and `("x")` to find, it was split.
    'asthma -f("x")',
    'asthma -fo("x") y',
    // Beside a formula that is a word to find, sent as typed (f(x) alone is no reason to skip).
    'solve f(x) -(2024 OR 2025) y',
  ];
  for (const provider of [youtube, hackernews]) {
    it(`${provider.name}: skips each, naming the formula and what is allowed`, () => {
      for (const typed of skipped) {
        expect(provider.queryProblem!(typed), typed).toMatch(/^reads no parentheses, so a formula holding a quote or an AND, OR or NOT \(here \S*\(.*\)\).*search without it/);
      }
    });
  }

  it('still sends what they can read: a quotable formula or minus number as a phrase, an excluded group as -a -b', () => {
    const table: ReadonlyArray<readonly [string, string]> = [
      ['x -(-40)', 'x "-(-40)"'],
      ['x -(x+1)', 'x "-(x+1)"'],
      ['x -f(x) y', 'x -"f(x)" y'],
      ['x NOT (2024 OR 2025)', 'x -2024 -2025'],
      ['x -(a OR b)', 'x -a -b'],
      ['a "b(" c', 'a "b(" c'],
      // A formula that is no exclusion and holds no quote or operator is a word to find, sent as typed: not skipped.
      ['f(x) solver', 'f(x) solver'],
      ['e-mail(s) spam', 'e-mail(s) spam'],
    ];
    for (const provider of [youtube, hackernews]) {
      for (const [typed, expected] of table) {
        expect(provider.queryProblem!(typed), `${provider.name}: ${typed}`).toBeUndefined();
        expect(sent(provider, typed), `${provider.name}: ${typed}`).toBe(expected);
      }
    }
  });
});

describe('a formula with a quote inside after a -, for every reader', () => {
  it('is left whole, not read as -f with ("x") a group to find', () => {
    for (const provider of [pubmed, openalex]) expect(sent(provider, 'asthma -f("x")'), provider.name).toBe('asthma -f("x")');
    // GitHub reads no parenthesis outside a phrase, and no phrase holds this one as typed.
    expect(github.queryProblem!('asthma -f("x")')).toMatch(/accepts no parentheses.*-f\("x"\) cannot be sent without them/);
  });
});

describe('a phrase inside an excluded group, for PubMed, OpenAlex and GitHub', () => {
  const table: ReadonlyArray<readonly [string, string, string]> = [
    // typed, PubMed and OpenAlex, GitHub (`is:public` first for code search).
    ['x -("a+b" OR c)', '(x) NOT ("a+b" OR c)', 'is:public x NOT "a+b" NOT c'],
    ['x -"a+b"', '(x) NOT "a+b"', 'is:public x NOT "a+b"'],
    ['NOT "a+b" y', '(y) NOT "a+b"', 'is:public y NOT "a+b"'],
    // Unchanged: a word excluded bare, a phrase of several words quoted as before.
    ['x -(a OR c)', '(x) NOT (a OR c)', 'is:public x NOT a NOT c'],
    ['x -("a b" OR c)', '(x) NOT ("a b" OR c)', 'is:public x NOT "a b" NOT c'],
  ];
  it('keeps the phrase quoted, as typed', () => {
    for (const [typed, boolean, githubText] of table) {
      expect(sent(pubmed, typed), typed).toBe(boolean);
      expect(sent(openalex, typed), typed).toBe(boolean);
      expect(sent(github, typed), typed).toBe(githubText);
    }
  });
});

describe('a formula a NOT group excludes, for GitHub', () => {
  it('is sent as a phrase after NOT, as YouTube and Hacker News are sent it after -', () => {
    const table: ReadonlyArray<readonly [string, string]> = [
      ['asthma (NOT (x+1) rats)', 'is:public asthma rats NOT "x+1"'],
      ['asthma NOT (x+1 OR y)', 'is:public asthma NOT "x+1" NOT y'],
      ['asthma NOT (a^2)', 'is:public asthma NOT "a^2"'],
      // Unchanged: a language's name (`c++`) is a word, no formula.
      ['compilers NOT (c++ OR java)', 'is:public compilers NOT c++ NOT java'],
    ];
    for (const [typed, expected] of table) expect(sent(github, typed), typed).toBe(expected);
    expect(sent(youtube, 'asthma (NOT (x+1) rats)')).toBe('asthma -"x+1" rats');
  });
});
