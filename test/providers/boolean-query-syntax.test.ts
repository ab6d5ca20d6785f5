import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GithubProvider } from '../../src/providers/github.js';
import { githubSearchText } from '../../src/providers/github-query.js';
import { OpenAlexProvider } from '../../src/providers/openalex.js';
import { PubmedProvider } from '../../src/providers/pubmed.js';
import { makeProvider, makeQuery } from '../support/run-provider.js';

const pubmed = makeProvider(PubmedProvider);
const openalex = makeProvider(OpenAlexProvider);
const github = makeProvider(GithubProvider);

/** What PubMed's esearch is sent as `term` for a text, or its reason to skip it. */
function pubmedTerm(text: string): string {
  return pubmed.queryProblem!(text) ?? new URL(pubmed.buildRequest(makeQuery(text, 'papers', 5)).url).searchParams.get('term')!;
}

function openalexSearch(text: string): string {
  return openalex.queryProblem!(text) ?? new URL(openalex.buildRequest(makeQuery(text, 'papers', 5)).url).searchParams.get('search')!;
}

/** GitHub's repository search `q`, with the `is:public` the adapter puts first. */
function githubRepositoryQuery(text: string): string {
  return github.queryProblem!(text) ?? new URL(github.buildRequest(makeQuery(text, 'code', 5)).url).searchParams.get('q')!;
}

function githubQuery(text: string): string {
  return githubRepositoryQuery(text).replace(/^is:public /, '');
}

/**
 * What GitHub reads of a text: the text it would be sent (githubSearchText, which is what githubQueryProblem weighs, a
 * query it skips included), and its reason to skip the query, if it does.
 */
function githubReading(text: string): { text: string | undefined; problem: string | undefined } {
  return { text: githubSearchText(text), problem: github.queryProblem!(text) };
}

describe('the boolean text PubMed, OpenAlex and GitHub are sent', () => {
  it('reads a NOT as typed, not again once closing has put it first in a query written in capitals', () => {
    // Typed, these NOTs follow a `(`, an OR or a `)`, so they are the operator (notIsOperator); closed, the text starts
    // with them, where a query in capitals has a NOT that is a word. Read again, they were sent first: `NOT HIV AIDS`.
    for (const text of ['(NOT HIV) AIDS', 'OR NOT HIV AIDS', ') NOT HIV AIDS']) {
      expect(pubmedTerm(text), text).toBe('(AIDS) NOT HIV');
      expect(openalexSearch(text), text).toBe('(AIDS) NOT HIV');
      expect(githubQuery(text), text).toBe('AIDS NOT HIV');
    }
    // Typed first, it is a word, as before.
    expect(pubmedTerm('NOT HIV AIDS')).toBe('not HIV AIDS');
  });

  it('reads NOTs side by side first in a query written in capitals as one word, as it reads them as one operator', () => {
    // Made words one by one, `NOT NOT FOUND` was `not not FOUND`, where every other provider reads the run as one NOT
    // (closedQuery), which the capitals make a word: `NOT FOUND`.
    for (const text of ['NOT NOT FOUND', 'NOT  NOT NOT FOUND']) {
      expect(pubmedTerm(text), text).toBe('not FOUND');
      expect(openalexSearch(text), text).toBe('not FOUND');
      expect(githubQuery(text), text).toBe('not FOUND');
    }
    // Inside a phrase they are the phrase's words.
    expect(pubmedTerm('NOT NOT "NOT NOT" FOUND')).toBe('not "NOT NOT" FOUND');
  });

  it('leaves out an operator that joined an excluded term, and a group the term was alone in', () => {
    // `AND NOT -mice`: the AND was left behind as `(asthma AND)`, with nothing after it.
    expect(pubmedTerm('asthma AND NOT -mice')).toBe('(asthma) NOT mice');
    expect(openalexSearch('asthma OR NOT -mice')).toBe('(asthma) NOT mice');
    expect(githubQuery('asthma AND NOT -mice')).toBe('asthma NOT mice');
    // A `-` first in a group starts an excluded term too: `asthma (-mice)` was sent as typed, mice to find.
    expect(pubmedTerm('asthma (-mice)')).toBe('(asthma) NOT mice');
    expect(openalexSearch('(-mice OR -rats) asthma')).toBe('(asthma) NOT (mice OR rats)');
    expect(githubQuery('asthma (-mice)')).toBe('asthma NOT mice');
    expect(pubmedTerm('asthma ( AND -mice rats)')).toBe('(asthma ( rats)) NOT mice');
    // An empty group is all the rest: a query of excluded terms alone, skipped (it was sent `(( )) NOT mice`).
    expect(pubmedTerm('( -mice)')).toBe('the query has no word to search for besides its excluded terms (-word)');
  });

  it('sends an operator excluded as a word in quotes, not as the operator after NOT', () => {
    expect(pubmedTerm('oregon -OR')).toBe('(oregon) NOT "OR"');
    expect(githubQuery('oregon -OR')).toBe('oregon NOT "OR"');
  });

  it.each([
    // Sent as typed, each was an operator with an operator, not a term, on one side.
    ['a AND OR b', 'a OR b', 'a OR b', 'a OR b'],
    ['a OR OR b', 'a OR b', 'a OR b', 'a OR b'],
    ['a NOT NOT b', 'a NOT b', 'a NOT b', 'a NOT b'],
    // Closing left `asthma OR NOT (rats)`: the OR NOT an excluded term's reader takes, read again.
    ['asthma OR (-mice) NOT (rats)', '(asthma) NOT (mice OR rats)', '(asthma) NOT (mice OR rats)', 'asthma NOT mice NOT rats'],
    ['asthma OR (-mice) AND children', '(asthma AND children) NOT mice', '(asthma AND children) NOT mice', 'asthma AND children NOT mice'],
  ])('sends %j with no two operators side by side', (typed, toPubmed, toOpenalex, toGithub) => {
    expect(pubmedTerm(typed)).toBe(toPubmed);
    expect(openalexSearch(typed)).toBe(toOpenalex);
    expect(githubQuery(typed)).toBe(toGithub);
  });

  it('excludes a term that closing writes as a `-` term (a NOT opening a group of more), not send it as a word', () => {
    // `(-mice NOT rats asthma)`: once mice is taken out, `( NOT rats asthma)` is closed as `(-rats asthma)`.
    for (const typed of ['(-mice NOT rats asthma)', 'asthma (-mice NOT rats children)']) {
      for (const sent of [pubmedTerm(typed), openalexSearch(typed)]) {
        expect(sent, typed).not.toMatch(/(?<![^\s(])-\p{L}/u);
        expect(sent, typed).toMatch(/\) NOT \(mice OR rats\)$/);
      }
      expect(githubQuery(typed), typed).toMatch(/ NOT mice NOT rats$/);
    }
  });

  it('skips a query in capitals of (NOT word) alone for GitHub too, as for PubMed and OpenAlex: a NOT with nothing before it', () => {
    // The NOT follows a `(`, so it is the operator (as in `(NOT HIV) AIDS`); GitHub was sent `NOT (FOUND)`.
    const onlyExcluded = 'the query has no word to search for besides its excluded terms (-word)';
    for (const text of ['(NOT FOUND)', '(NOT FOUND', 'OR (NOT FOUND)']) {
      expect(pubmedTerm(text), text).toBe(onlyExcluded);
      expect(openalexSearch(text), text).toBe(onlyExcluded);
      expect(githubQuery(text), text).toBe(onlyExcluded);
    }
  });

  it('excludes a formula after a NOT that starts the query whole, as it does a word', () => {
    // Read up to its `(`, the NOT was left first, with nothing before it: `NOT f(x) asthma` was sent as typed.
    expect(pubmedTerm('NOT f(x) asthma')).toBe('(asthma) NOT "f(x)"');
    expect(githubQuery('NOT f(x) asthma')).toBe('asthma NOT "f(x)"');
    expect(githubQuery('-mice NOT f(x) asthma')).toBe('asthma NOT mice NOT "f(x)"');
  });

  it('leaves out an empty group, and an operator it leaves with nothing after it', () => {
    expect(pubmedTerm('rust NOT ()')).toBe('rust');
    expect(openalexSearch('HIV AND ( ) AIDS')).toBe('HIV AND AIDS');
  });

  /**
   * Texts of words, `-` words and groups of them (one level: what the readers of excluded terms take; the last may be
   * left open), each with an operator or a run of them before it (`AND OR`, `NOT NOT`), in capitals or not, after a
   * stray `)` at times; a group may start with an excluded term or a NOT; an excluded group may hold a `-` or NOT term,
   * excluded twice and so asked for (`NOT (a OR NOT b)`, `-(a -b)`).
   */
  const operator = fc.constantFrom('', '', 'AND ', 'OR ', 'NOT ', 'AND OR ', 'OR OR ', 'NOT NOT ', 'NOT AND ', 'OR AND NOT ');
  const joining = fc.constantFrom('', 'AND ', 'OR ');
  const plainWord = fc.constantFrom('asthma', 'children', 'HIV', 'AIDS', 'café', '机器学习');
  const excludedWord = fc.constantFrom('mice', 'rats', 'MICE', 'éclair').map((excluded) => `-${excluded}`);
  const word = fc.oneof(plainWord, excludedWord);
  const words = (terms: fc.Arbitrary<string>, operators: fc.Arbitrary<string>) =>
    fc
      .tuple(terms, fc.array(fc.tuple(operators, terms), { maxLength: 3 }))
      .map(([first, others]) => [first, ...others.map(([before, term]) => `${before}${term}`)].join(' '));
  // A group may start with an excluded term (`a OR (-b) AND c`, left empty: `a OR AND c`) or a NOT (`a OR (NOT b)`).
  const group = fc
    .tuple(fc.constantFrom('', 'AND ', 'OR ', 'NOT '), word, fc.array(fc.tuple(operator, word), { maxLength: 3 }))
    .map(([first, start, others]) => `(${first === '' ? '' : ` ${first}`}${[start, ...others.map(([before, term]) => `${before}${term}`)].join(' ')}`);
  const excludedTwice = fc.tuple(fc.constantFrom('-', 'NOT '), fc.constantFrom('mice', 'rats', 'MICE')).map(([before, excluded]) => `${before}${excluded}`);
  const excludedGroup = fc
    .tuple(fc.constantFrom('-', 'NOT '), words(fc.oneof(plainWord, plainWord, excludedTwice), joining))
    .map(([before, inside]) => `${before}( ${inside}`);
  const item = fc.oneof(
    fc.tuple(operator, word).map(([before, term]) => `${before}${term}`),
    fc.tuple(joining, fc.oneof(group, excludedGroup), fc.constantFrom(' )', ')')).map(([before, open, close]) => `${before}${open}${close}`),
  );
  const unclosed = fc.option(fc.tuple(joining, fc.oneof(group, excludedGroup)).map(([before, open]) => ` ${before}${open}`), { nil: '' });
  const text = fc
    .tuple(fc.constantFrom('', '', ') '), fc.array(item, { minLength: 1, maxLength: 5 }), unclosed)
    .map(([stray, items, last]) => `${stray}${items.join(' ')}${last}`);

  /**
   * The problems of a boolean text: an operator with nothing before it or after it (at either end of the text or of a
   * group), an unbalanced parenthesis, and a word after `-`, which PubMed and OpenAlex read as the word itself.
   */
  function syntaxProblem(sent: string): string | undefined {
    const tokens = sent.match(/"[^"]*"|[()]|[^\s()"]+/g) ?? [];
    let depth = 0;
    let before = 'start';
    for (const token of tokens) {
      const isOperator = /^(?:AND|OR|NOT)$/.test(token);
      if (isOperator && (before === 'start' || before === 'operator')) return `${token} with nothing before it`;
      if (token === ')' && before !== 'term') return `) after ${before}`;
      if (/^-\p{L}/u.test(token)) return `${token} sent as a word`;
      if (token === '(') depth += 1;
      if (token === ')') depth -= 1;
      if (depth < 0) return 'a ) that closes nothing';
      before = token === '(' ? 'start' : isOperator ? 'operator' : 'term';
    }
    if (depth !== 0) return 'an unclosed (';
    return before === 'operator' ? 'an operator at the end' : undefined;
  }

  it('is balanced for PubMed, OpenAlex and GitHub, joins nothing to nothing, and never sends an excluded word as one to find', () => {
    fc.assert(
      fc.property(text, (typed) => {
        for (const [name, provider, sent] of [
          ['pubmed', pubmed, pubmedTerm],
          ['openalex', openalex, openalexSearch],
        ] as const) {
          // A query skipped is sent nothing: its reason is no query text.
          const problem = provider.queryProblem!(typed);
          if (problem !== undefined) {
            expect(problem, `${name}: ${typed} is skipped`).toMatch(/\p{L}/u);
            continue;
          }
          const query = sent(typed);
          expect(syntaxProblem(query), `${name}: ${typed} → ${query}`).toBeUndefined();
        }
        // GitHub's text is read as written for it (githubSearchText) whether or not the query is skipped, as
        // githubQueryProblem weighs that text; its reasons to skip are no query text. One with nothing to send is skipped.
        const reading = githubReading(typed);
        if (reading.problem !== undefined || !reading.text) expect(reading.problem, `github: ${typed} is skipped`).toMatch(/\p{L}/u);
        if (reading.text) expect(syntaxProblem(reading.text), `github: ${typed} → ${reading.text}`).toBeUndefined();
        if (reading.problem === undefined) expect(githubQuery(typed), `github: ${typed}`).toBe(reading.text);
      }),
      { numRuns: 3000 },
    );
  });

  // Numbers and formulas beside the operators: `AND NOT 40`, `OR NOT -40`, `f(x)`, `-(2024 OR 2025)`, `"x"(a OR b)`.
  const numberOrFormula = fc.constantFrom('40', '-40', 'f(x)', '-f(x)', 'sin(-x)', '-(x+1)', '-(2024)', '-(2024 OR 2025)', '"x"(a OR b)');
  const githubText = words(fc.oneof(word, numberOrFormula, numberOrFormula), operator);

  it('sends GitHub no parenthesis outside a phrase and no two operators side by side, numbers and formulas among the words', () => {
    fc.assert(
      fc.property(githubText, (typed) => {
        // A query GitHub skips is sent nothing (its parentheses are why, and its reason says so): no q to read.
        if (github.queryProblem!(typed) !== undefined) return;
        const sent = githubQuery(typed);
        expect(sent.replace(/"[^"]*"/g, ' '), `${typed} → ${sent}`).not.toMatch(/[()]/);
        expect(syntaxProblem(sent), `${typed} → ${sent}`).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});
