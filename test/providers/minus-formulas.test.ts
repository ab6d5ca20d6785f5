import { describe, expect, it } from 'vitest';
import { GithubProvider } from '../../src/providers/github.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import type { Provider } from '../../src/providers/provider.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import { makeProvider, makeQuery } from '../support/run-provider.js';

/**
 * What YouTube, Hacker News and GitHub are sent of a minus number, an excluded formula and a negated qualifier, and
 * which group YouTube is skipped for. YouTube documents `-` as its Boolean NOT (search.list `q`); Algolia reads a `-`
 * that starts a word as its prohibit operator, and a `-` inside quotes as a character. GitHub negates a qualifier with
 * a leading `-` ("Understanding the search syntax").
 */
const youtube = makeProvider(YoutubeProvider, { YOUTUBE_API_KEY: 'test-key' });
const hackernews = makeProvider(HackerNewsProvider);
const github = makeProvider(GithubProvider);

function sent(provider: Provider, parameter: string, text: string): string {
  const request = provider.buildRequest(makeQuery(text, provider.settings.kind === 'video' ? 'video' : provider.name === 'github' ? 'code' : 'web', 5));
  return new URL(request.url).searchParams.get(parameter)!;
}

const MINUS_ONLY = [
  [youtube, 'q'],
  [hackernews, 'query'],
] as const;

describe('a minus number and an excluded formula, as YouTube and Hacker News are sent them', () => {
  // typed → sent to both (no OR or group among them, so `|` and the space read alike).
  const table: ReadonlyArray<readonly [string, string]> = [
    // NOT before a number excludes it: `-40` is both APIs' exclusion of 40.
    ['aa NOT 40', 'aa -40'],
    // A `-` before a digit is part of the number, a word to find: quoted, or both APIs would exclude 40.
    ['aa -40', 'aa "-40"'],
    ['aa -(-40)', 'aa "-(-40)"'],
    ['aa -(x+1)', 'aa "-(x+1)"'],
    ['covid-19 -40 °C', 'covid-19 "-40" °C'],
    // An excluded formula is excluded whole, as a phrase: not `f` alone, with `(x)` a word to find.
    ['x -f(x)', 'x -"f(x)"'],
    ['x NOT f(x)', 'x -"f(x)"'],
    ['x AND NOT f(x)', 'x -"f(x)"'],
    // Nested formulas are read whole, to their last `)`.
    ['NOT f(g(x)) y', '-"f(g(x))" y'],
    ['x -f(g(x))', 'x -"f(g(x))"'],
    ['x NOT f(g(h(x)))', 'x -"f(g(h(x)))"'],
    // Unchanged: a formula asked for, a `-` inside a formula or a phrase, excluded words and groups.
    ['sin(-x) y', 'sin(-x) y'],
    ['"a -40" b', '"a -40" b'],
    ['x -mice NOT rats', 'x -mice -rats'],
    ['x -(mice OR rats)', 'x -mice -rats'],
    ['x NOT -40', 'x'],
    // A `+` that is no formula's (none before a letter or digit): an excluded group of words, as every other reader
    // reads it, not the phrase `"-(c++ OR java)"` to find.
    ['compilers -(c++ OR java)', 'compilers -c++ -java'],
    ['x -(g++ OR clang) y', 'x -g++ -clang y'],
    // Nor is a `+` after a `+`: `c++11` is a language's name, `x+1` a formula.
    ['x -(c++11 OR java)', 'x -c++11 -java'],
    // A `+` inside a phrase of the group is the phrase's: the group is excluded.
    ['x -("a+b" OR c)', 'x -"a+b" -c'],
  ];
  for (const [provider, parameter] of MINUS_ONLY) {
    it(`${provider.name}: sends each as the table says`, () => {
      for (const [typed, expected] of table) expect({ typed, sent: sent(provider, parameter, typed) }).toEqual({ typed, sent: expected });
    });
  }

  it('quotes no formula or minus group holding an operator word, whose OR a phrase would search for as a word', () => {
    // `-(2024 OR 2025)` is a group of alternatives (as GitHub's writer reads it, leaving it as typed); quoted whole,
    // YouTube and Algolia were asked for the words `2024 OR 2025` in a row, a phrase no title holds.
    for (const [provider, parameter] of MINUS_ONLY) {
      for (const typed of ['x -(2024 OR 2025)', 'x -(-40 OR y)', 'x -f(a OR b)', 'x NOT f(a AND b)', 'x -(c++11 OR x+1)']) {
        expect(sent(provider, parameter, typed), `${provider.name}: ${typed}`).not.toContain('"');
      }
    }
  });

  it('tells aa NOT 40 (40 excluded) and aa -40 (the number -40 to find) apart', () => {
    for (const [provider, parameter] of MINUS_ONLY) expect(sent(provider, parameter, 'aa -40')).not.toBe(sent(provider, parameter, 'aa NOT 40'));
  });

  it('reads a long run of formulas and minus numbers in time in proportion to its length', () => {
    for (const run of ['-f(', '-(-4', ' NOT f(g(', ' -f(x)', ' (-(-4 OR ']) {
      const text = `word ${run.repeat(500)}`.slice(0, 500);
      const started = performance.now();
      for (const [provider, parameter] of MINUS_ONLY) {
        // Quoted, the formulas may pass Algolia's 511 bytes: skipped then, with its reason, which is read here too; and
        // an unclosed formula that closing leaves holding a NOT is no term either API reads: skipped, with its reason.
        expect(provider.queryProblem!(text) ?? 'sent', text.slice(0, 20)).toMatch(/^(?:sent|accepts queries of at most 511 bytes|reads no parentheses, so a formula)/);
        expect(sent(provider, parameter, text), text.slice(0, 20)).toMatch(/^word/);
      }
      expect(performance.now() - started, text.slice(0, 20)).toBeLessThan(1000);
    }
  });
});

describe('a group only parentheses can say, for YouTube', () => {
  it('skips YouTube, saying why, where `|` read before the space would change the meaning', () => {
    for (const typed of ['(a b) OR c', 'c OR (a b)', '(surfing hawaii) OR sailing']) {
      expect(youtube.queryProblem!(typed), typed).toMatch(/parentheses.*\|.*binds before the space.*\(\S+ \S+\)/);
    }
  });

  it('sends YouTube a group its reading keeps, and Hacker News every one (all its words are required anyway)', () => {
    expect(youtube.queryProblem!('(a OR b) c')).toBeUndefined();
    expect(sent(youtube, 'q', '(a OR b) c')).toBe('a|b c');
    expect(hackernews.queryProblem!('(a b) OR c')).toBeUndefined();
    expect(sent(hackernews, 'query', '(a b) OR c')).toBe('a b c');
  });
});

describe('a negated qualifier, as GitHub is sent it', () => {
  const table: ReadonlyArray<readonly [string, string]> = [
    ['x -language:go', 'x -language:go'],
    ['x NOT language:go', 'x -language:go'],
    ['x AND NOT language:go', 'x -language:go'],
    ['x AND NOT user:octo rust', 'x -user:octo rust'],
    // Unchanged: an OR NOT (no `-` form), a qualifier excluded twice, a URL, a phrase, and NOT before a word.
    ['x OR NOT language:go', 'x OR NOT language:go'],
    ['x NOT -language:go', 'x NOT -language:go'],
    ['"x NOT language:go" y', '"x NOT language:go" y'],
    ['x NOT mice', 'x NOT mice'],
  ];
  it('sends a NOT or AND NOT before a qualifier as the - GitHub documents for qualifiers', () => {
    for (const [typed, expected] of table) {
      expect({ typed, problem: github.queryProblem!(typed) }).toEqual({ typed, problem: undefined });
      expect({ typed, sent: sent(github, 'q', typed).replace(/^is:public /, '') }).toEqual({ typed, sent: expected });
    }
  });

  it('reads a run of NOTs before a qualifier as the one NOT the closed text holds, not as an exclusion of an exclusion', () => {
    // Its last NOT alone written `-`, `x NOT NOT language:go` became `x NOT -language:go`: Go excluded twice,
    // where the closed reading (and every other search) excludes it once.
    for (const typed of ['x NOT NOT language:go', 'x NOT AND NOT language:go', 'x AND NOT NOT language:go']) {
      expect({ typed, sent: sent(github, 'q', typed).replace(/^is:public /, '') }).toEqual({ typed, sent: 'x -language:go' });
    }
    expect(sent(github, 'q', 'x OR NOT NOT language:go')).toBe('is:public x OR NOT language:go');
  });

  it('keeps the NOT before a word with a colon but no qualifier value (std::vector, TODO:), which no - excludes', () => {
    // GitHub documents `-` for qualifiers only: `-std::vector` would be searched for, not left out.
    for (const [typed, expected] of [
      ['x NOT std::vector', 'x NOT std::vector'],
      ['bug NOT TODO: fix', 'bug NOT TODO: fix'],
    ] as const) {
      expect({ typed, sent: sent(github, 'q', typed).replace(/^is:public /, '') }).toEqual({ typed, sent: expected });
    }
  });
});
