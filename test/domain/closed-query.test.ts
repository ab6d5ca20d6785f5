import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closedQuery } from '../../src/domain/closed-query.js';

describe('closed query: what a boolean API is sent of unbalanced or dangling syntax', () => {
  it('closes an unclosed group or phrase, nested ones too, and leaves out a ) that closes nothing', () => {
    expect(closedQuery('asthma NOT (mice OR rats')).toBe('asthma NOT (mice OR rats)');
    expect(closedQuery('a ((b OR c')).toBe('a ((b OR c))');
    expect(closedQuery('rust "async runtime')).toBe('rust "async runtime"');
    // The group is closed after the phrase that runs to the end: `(a "b)"` would end the phrase with the parenthesis.
    expect(closedQuery('(a "b')).toBe('(a "b")');
    expect(closedQuery('a) OR (b')).toBe('a OR (b)');
    // A parenthesis inside a phrase is a character of it.
    expect(closedQuery('x "(" y')).toBe('x "(" y');
  });

  it('leaves out an operator with nothing after it, or an AND or OR with nothing before it, and an empty group', () => {
    expect(closedQuery('rust NOT')).toBe('rust');
    expect(closedQuery('rust NOT "')).toBe('rust');
    expect(closedQuery('a (b OR')).toBe('a (b)');
    expect(closedQuery('asthma (')).toBe('asthma');
    expect(closedQuery('OR AND rust')).toBe('rust');
    // A leading NOT excludes (readers of NOT take it); lower-case operators are words.
    expect(closedQuery('NOT rust go')).toBe('NOT rust go');
    expect(closedQuery('rust and')).toBe('rust and');
    // Nothing but operators: as typed, not an empty query that would find everything.
    expect(closedQuery('AND')).toBe('AND');
  });

  it('gives a text without quotes, parentheses or operators at its ends back as it is', () => {
    const word = fc.constantFrom('rust', 'ANDROID', 'NOTE', 'or', 'not', 'covid-19', '-mice', 'C++', 'é', 'ORACLE');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (words) => {
        const text = words.join(' ');
        expect(closedQuery(text)).toBe(text);
      }),
    );
  });
});
