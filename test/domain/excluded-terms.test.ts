import { describe, expect, it } from 'vitest';
import { excludedTerms, minusSyntax, notIsOperator } from '../../src/domain/excluded-terms.js';

describe('excluded terms: NOT before a group, and NOT in a text written in capitals', () => {
  it('excludes each word and phrase of a NOT group, a nested or unclosed one too, and leaves the group out of the rest', () => {
    expect(excludedTerms('asthma NOT (mice OR rats)')).toEqual({ rest: 'asthma', excluded: ['mice', 'rats'] });
    expect(excludedTerms('asthma AND NOT (mice OR "case report") children')).toEqual({ rest: 'asthma children', excluded: ['mice', 'case report'] });
    expect(excludedTerms('asthma NOT (mice OR (rats AND dogs))')).toEqual({ rest: 'asthma', excluded: ['mice', 'rats', 'dogs'] });
    expect(excludedTerms('asthma NOT (mice OR rats')).toEqual({ rest: 'asthma', excluded: ['mice', 'rats'] });
  });

  it('reads a term first in a group as one after a space: `(-mice` excludes mice, which was read as a word to find', () => {
    expect(excludedTerms('asthma (-mice OR rats)')).toEqual({ rest: 'asthma ( OR rats)', excluded: ['mice'] });
    expect(excludedTerms('(-"case report") asthma', { not: 'kept' })).toEqual({ rest: '( ) asthma', excluded: ['case report'] });
    expect(excludedTerms('asthma (NOT mice)')).toEqual({ rest: 'asthma ( )', excluded: ['mice'] });
    // Spaces inside the parentheses are no syntax to the APIs minusSyntax writes for (YouTube, Hacker News).
    expect(minusSyntax('asthma (NOT mice) rats').replace(/\(\s+|\s+\)/g, (space) => space.trim())).toBe('asthma (-mice) rats');
    // After a `(` inside a word (a formula) or inside a phrase it is still none.
    expect(excludedTerms('sin(-x) "(-mice)"')).toBeUndefined();
    expect(excludedTerms('a ((-b))')).toEqual({ rest: 'a (( ))', excluded: ['b'] });
  });

  it('keeps a NOT group after words for an API that reads NOT and parentheses, and excludes one it finds first', () => {
    expect(excludedTerms('asthma NOT (mice OR rats)', { not: 'kept' })).toBeUndefined();
    expect(excludedTerms('NOT (mice OR rats) asthma', { not: 'kept' })).toEqual({ rest: 'asthma', excluded: ['mice', 'rats'] });
  });

  it('reads NOT as an operator only where its case sets it apart from the other words', () => {
    expect(notIsOperator('asthma NOT rats')).toBe(true);
    expect(notIsOperator('NOT rats')).toBe(true);
    // No cased word besides the operators: the upper-case NOT still stands apart.
    expect(notIsOperator('机器学习 NOT 深度学习')).toBe(true);
    expect(notIsOperator('NOT INVENTED HERE')).toBe(false);
    expect(notIsOperator('NOT FOUND HTTP 404')).toBe(false);
    // In capitals, a NOT between words is the operator: acronyms are how such searches are typed.
    expect(notIsOperator('HIV NOT AIDS')).toBe(true);
    expect(excludedTerms('HIV NOT AIDS')).toEqual({ rest: 'HIV', excluded: ['AIDS'] });
    expect(excludedTerms('NOT INVENTED HERE')).toBeUndefined();
    expect(excludedTerms('NOT FOUND -NGINX')).toEqual({ rest: 'NOT FOUND', excluded: ['NGINX'] });
  });

  it('reads -(a OR b) as NOT (a OR b), for every reader, but not a - before a group of numbers', () => {
    expect(excludedTerms('asthma -(mice OR rats)')).toEqual({ rest: 'asthma', excluded: ['mice', 'rats'] });
    expect(excludedTerms('asthma -(mice OR "case report")', { not: 'kept' })).toEqual({ rest: 'asthma', excluded: ['mice', 'case report'] });
    expect(excludedTerms('asthma OR -(mice OR rats)', { qualifiers: 'kept', not: 'kept' })).toEqual({ rest: 'asthma', excluded: ['mice', 'rats'] });
    expect(excludedTerms('temperature -(40)')).toBeUndefined();
  });

  it('reads no formula as an excluded group: -(x+1), -(a^2) exclude nothing, where words and phrases of a group still do', () => {
    // Read as terms, `-(x+1)` excluded the term x+1 (`(f) NOT x+1` to PubMed): the minus of a formula.
    for (const text of ['f -(x+1)', 'f -(a^2)', 'f -(x=1)', 'f -(a<b)', 'f NOT -(x+1)']) {
      expect(excludedTerms(text), text).toBeUndefined();
      expect(excludedTerms(text, { qualifiers: 'kept', not: 'kept' }), text).toBeUndefined();
    }
    expect(minusSyntax('f -(x+1)')).toBe('f -(x+1)');
    // A + inside a phrase of the group is a character of the phrase; a - inside a word is a word's.
    expect(excludedTerms('rust -("c++" OR covid-19)')).toEqual({ rest: 'rust', excluded: ['c++', 'covid-19'] });
    expect(excludedTerms('rust -(go OR (zig nim))')).toEqual({ rest: 'rust', excluded: ['go', 'zig', 'nim'] });
    // A + before no letter or digit is a name's (C++, g++), not a sum's.
    expect(excludedTerms('compilers -(c++ OR g++)')).toEqual({ rest: 'compilers', excluded: ['c++', 'g++'] });
  });

  it('reads NOT before a `-` that excludes nothing (`NOT -40`, a number) as the exclusion of that word, for every reader', () => {
    // NOT_PREFIX stopped before every `-`: no reader read `NOT -40`, and the word NOT was sent to find.
    expect(excludedTerms('asthma NOT -40')).toEqual({ rest: 'asthma', excluded: ['-40'] });
    expect(excludedTerms('asthma AND NOT -40', { not: 'kept' })).toEqual({ rest: 'asthma', excluded: ['-40'] });
    // Kept where NOT is the API's own operator, after words, as `asthma NOT 40` is.
    expect(excludedTerms('asthma NOT -40', { not: 'kept' })).toBeUndefined();
    // `--40` is no exclusion, `-40` a number to find: the API whose only operator is `-` is sent neither, nor NOT.
    expect(minusSyntax('asthma NOT -40')).toBe('asthma');
    expect(minusSyntax('asthma NOT -40 rats')).toBe('asthma rats');
    expect(minusSyntax('a OR NOT -40 OR c')).toBe('a OR c');
    expect(minusSyntax('NOT -40')).toBe('');
    // In a NOT group too (`--40` again), where the group's other terms are written `-` each.
    expect(minusSyntax('asthma NOT (-40)')).toBe('asthma');
    expect(minusSyntax('asthma NOT (-40 OR mice)')).toBe('asthma -mice');
    // A NOT before a `-` term is still left to the `-`, and a `-40` typed alone is a number to find, as before.
    expect(excludedTerms('asthma NOT -rats')).toEqual({ rest: 'asthma', excluded: ['rats'] });
    expect(minusSyntax('asthma NOT -rats')).toBe('asthma -rats');
    expect(excludedTerms('asthma -40')).toBeUndefined();
  });

  it('excludes the term of an AND NOT even for an API that reads NOT, whose NOT joins two terms', () => {
    expect(excludedTerms('asthma AND NOT mice', { not: 'kept' })).toEqual({ rest: 'asthma', excluded: ['mice'] });
    expect(excludedTerms('asthma AND NOT mice', { qualifiers: 'kept', not: 'kept' })).toEqual({ rest: 'asthma', excluded: ['mice'] });
    // A NOT between words is the API's own.
    expect(excludedTerms('asthma NOT mice', { not: 'kept' })).toBeUndefined();
  });

  it('takes an OR next to an excluded term with it for an API whose only operator is -, never leaving it an alternative', () => {
    expect(minusSyntax('-b OR a')).toBe('-b a');
    expect(minusSyntax('NOT b OR a')).toBe('-b a');
    expect(minusSyntax('a -(b OR c)')).toBe('a -b -c');
    // Between wanted words an OR stays, for the API to read or leave out.
    expect(minusSyntax('a OR b')).toBe('a OR b');
  });

  it('keeps the alternative of the wanted terms either side of excluded ones, which go after the text', () => {
    // Taken with their ORs, they left `a -b c`: a and c both required, where either was asked for.
    const table: Array<[string, string]> = [
      ['a OR -b OR c', 'a OR c -b'],
      ['a OR NOT b OR c', 'a OR c -b'],
      ['a OR NOT -b OR c', 'a OR c -b'],
      ['a OR -b OR -c OR d', 'a OR d -b -c'],
      ['a OR -(b OR c) OR d', 'a OR d -b -c'],
      ['"x OR y" OR -b OR c', '"x OR y" OR c -b'],
      // No alternative on one side: the ORs go with the terms, as before.
      ['a OR -b OR -c d', 'a -b -c d'],
      ['a OR -b', 'a -b'],
      ['-b OR a', '-b a'],
      ['a OR -b AND c', 'a -b c'],
    ];
    for (const [text, sent] of table) expect(minusSyntax(text), text).toBe(sent);
  });

  it('reads an excluded group whole however deep its groups nest, down to the depth closedQuery leaves', () => {
    // One nested level was read; deeper, the NOT or - was left as typed and the group's words were words to find.
    expect(excludedTerms('asthma NOT (mice OR (rats OR (dogs AND cats)))')).toEqual({ rest: 'asthma', excluded: ['mice', 'rats', 'dogs', 'cats'] });
    expect(excludedTerms('asthma -(mice OR (rats (dogs (cats))))', { not: 'kept' })).toEqual({ rest: 'asthma', excluded: ['mice', 'rats', 'dogs', 'cats'] });
    expect(excludedTerms('NOT (mice OR (rats OR (dogs))) asthma', { not: 'kept' })).toEqual({ rest: 'asthma', excluded: ['mice', 'rats', 'dogs'] });
    expect(minusSyntax('asthma NOT (mice OR (rats OR (dogs OR cats)))')).toBe('asthma -mice -rats -dogs -cats');
    expect(minusSyntax('-(mice OR (rats (dogs))) asthma')).toBe('-mice -rats -dogs asthma');
  });

  it('reads a phrase inside a group whole, its parentheses as characters of it, and what follows the group as the rest', () => {
    // Read as closing the group, the `(` of the phrase took the words after the group into it: asthma was excluded.
    expect(excludedTerms('NOT ("f(x" OR rats) asthma')).toEqual({ rest: 'asthma', excluded: ['f(x', 'rats'] });
    expect(excludedTerms('asthma NOT ("f(x" OR rats) mice')).toEqual({ rest: 'asthma mice', excluded: ['f(x', 'rats'] });
    expect(excludedTerms('asthma -("case (report" OR rats) mice', { not: 'kept' })).toEqual({ rest: 'asthma mice', excluded: ['case (report', 'rats'] });
    // A phrase again, as typed: bare, `-f(x` sent YouTube and Hacker News a parenthesis outside quotes.
    expect(minusSyntax('NOT ("f(x" OR rats) asthma')).toBe('-"f(x" -rats asthma');
  });

  it('excludes the whole phrase after a NOT that starts the text, whatever follows its closing quote', () => {
    // Not `a` with the rest `b"c`, a quote left open in what a boolean API is sent.
    expect(excludedTerms('NOT "a b"c', { not: 'kept' })).toEqual({ rest: 'c', excluded: ['a b'] });
    expect(excludedTerms('NOT "rust "async', { not: 'kept' })).toEqual({ rest: 'async', excluded: ['rust'] });
  });
});
