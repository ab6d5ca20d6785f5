import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_GROUP_DEPTH, NO_WORD_TO_SEARCH, closedQuery, noWordProblem } from '../../src/domain/closed-query.js';

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
    // Nothing but operators, quotes or parentheses: empty, a text with nothing to search for (its API is not asked it).
    expect(closedQuery('AND')).toBe('');
    for (const text of ['(', '"', ')', 'AND (', '()', '""', '( " " )', '(NOT)', 'OR NOT']) expect(closedQuery(text), text).toBe('');
    // Nor a dash with nothing after it to exclude: a minus alone is no word either.
    for (const text of ['-', '- -', '--', '-(', '-""', '(-)']) expect(closedQuery(text), text).toBe('');
    // A dash that starts a word, or stands among words, is kept.
    expect(closedQuery('-mice')).toBe('-mice');
    expect(closedQuery('rust -')).toBe('rust -');
    // A quoted operator is a word searched for.
    expect(closedQuery('"AND" (')).toBe('"AND"');
  });

  it('leaves out the parentheses of groups nested deeper than MAX_GROUP_DEPTH, keeping their words in place', () => {
    expect(MAX_GROUP_DEPTH).toBe(4);
    // Four deep: as typed.
    expect(closedQuery('a NOT (b OR (c AND (d OR (e))))')).toBe('a NOT (b OR (c AND (d OR (e))))');
    // Deeper: the excluded-term readers read no further, and were left a NOT or - whose group they did not see.
    expect(closedQuery('a NOT (b OR (c AND (d OR (e AND (f OR g)))))')).toBe('a NOT (b OR (c AND (d OR (e AND f OR g))))');
    expect(closedQuery('a -(b (c (d (e (f')).toBe('a -(b (c (d (e f))))');
    // A parenthesis inside a phrase is no group.
    expect(closedQuery('a ((((("(((" b)))))')).toBe('a (((("(((" b))))');
  });

  it('moves a NOT that opens a group before it, where it has something to join or is read as a leading NOT', () => {
    // Inside `(NOT x)` PubMed's, OpenAlex's and GitHub's binary NOT had nothing before it.
    expect(closedQuery('asthma (NOT mice)')).toBe('asthma NOT (mice)');
    expect(closedQuery('asthma (NOT (mice OR rats))')).toBe('asthma NOT ((mice OR rats))');
    expect(closedQuery('asthma (AND NOT mice)')).toBe('asthma NOT (mice)');
    expect(closedQuery('(NOT mice) asthma')).toBe('NOT (mice) asthma');
    // After a word inside the group it joins two terms, and stays; inside a phrase it is a word.
    expect(closedQuery('asthma (children NOT mice)')).toBe('asthma (children NOT mice)');
    // A group that joins more to the NOT's term than alternatives to it: the NOT excludes its term alone, as a `-` term.
    // Moved before the group, it took the words searched for with it (`NOT (mice children)`).
    expect(closedQuery('asthma (NOT mice children)')).toBe('asthma (-mice children)');
    expect(closedQuery('covid (NOT "long covid" AND vaccine)')).toBe('covid (-"long covid" AND vaccine)');
    expect(closedQuery('(NOT (mice OR rats) asthma)')).toBe('(-(mice OR rats) asthma)');
    expect(closedQuery('asthma (NOT mice (children OR infants))')).toBe('asthma (-mice (children OR infants))');
    expect(closedQuery('asthma "(NOT mice)"')).toBe('asthma "(NOT mice)"');
  });

  it('reads a NOT that opens a group before alternatives as it reads one outside a group: NOT binds to its one term', () => {
    // `NOT mice OR rats` is `(NOT mice) OR rats` (Google, Bing, PubMed, Lucene): moved before the group, the NOT took
    // rats too, a word the same text without parentheses searches for.
    expect(closedQuery('asthma (NOT mice OR rats)')).toBe('asthma (-mice OR rats)');
    expect(closedQuery('(NOT "long covid" OR vaccine) adults')).toBe('(-"long covid" OR vaccine) adults');
    // Its term alone in the group: the group is the term.
    expect(closedQuery('asthma (NOT mice)')).toBe('asthma NOT (mice)');
  });

  it('asks for a term excluded inside an excluded group, as NOT of NOT asks for it', () => {
    // `a NOT (b OR NOT c)` is `a AND NOT b AND c`: every reader excluded c, the group's words each.
    expect(closedQuery('asthma NOT (mice OR NOT children)')).toBe('asthma NOT (mice) children');
    expect(closedQuery('asthma -(mice OR -children)')).toBe('asthma -(mice) children');
    expect(closedQuery('asthma NOT (NOT children OR mice)')).toBe('asthma NOT (mice) children');
    expect(closedQuery('asthma NOT (mice OR (NOT children))')).toBe('asthma NOT (mice) (children)');
    // A group left with no term goes with its NOT: the two NOTs were read as one, which excluded children.
    expect(closedQuery('asthma NOT (NOT children)')).toBe('asthma children');
    // Excluded three times, a term is excluded.
    expect(closedQuery('asthma NOT (mice OR NOT (rats OR NOT dogs))')).toBe('asthma NOT (mice) (rats OR NOT dogs)');
    // A word glued to the group's `)` stays a word of its own: the term moved out was written against it (`a rustgo`).
    expect(closedQuery('a NOT (NOT rust)go')).toBe('a rust go');
    expect(closedQuery('asthma -(mice -children)adults').match(/\w+/g)).toEqual(['asthma', 'mice', 'children', 'adults']);
    // A NOT after words inside an excluded group's phrase is a word; a `-` before a number excludes nothing.
    expect(closedQuery('asthma NOT (mice OR "NOT rats")')).toBe('asthma NOT (mice OR "NOT rats")');
    expect(closedQuery('asthma NOT (mice OR -40)')).toBe('asthma NOT (mice OR -40)');
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

  it('leaves out an operator that joins nothing at the ends of a group too, and a group of operators alone', () => {
    // Sent as typed, PubMed and OpenAlex were given an OR or AND with one side inside the group and none on the other.
    expect(closedQuery('asthma (mice OR) rats')).toBe('asthma (mice) rats');
    expect(closedQuery('asthma (OR mice) rats')).toBe('asthma (mice) rats');
    expect(closedQuery('asthma (children AND (infants NOT))')).toBe('asthma (children AND (infants))');
    expect(closedQuery('rust (OR) tokio')).toBe('rust tokio');
    expect(closedQuery('rust NOT (AND)')).toBe('rust');
    // Words that start like operators are words; an operator inside a phrase is a word of it.
    expect(closedQuery('db (ORACLE ANDROID)')).toBe('db (ORACLE ANDROID)');
    expect(closedQuery('x "(b OR)" y')).toBe('x "(b OR)" y');
  });

  it('gives balanced syntax with every word kept and no operator joining nothing, once and for all', () => {
    // Numbers and a formula's `+` too: a NOT before one that opens a group goes out of the group with it.
    const token = fc.constantFrom('rust', 'go', 'AND', 'OR', 'NOT', '(', ')', '"', ' ', '-', '40', '+');
    /**
     * The text outside its phrases, each closed phrase one letter (glued to what it is glued to: `OR"a"` is a word to
     * every reader here, not an operator), or undefined when a quote is left open.
     */
    const outsidePhrases = (text: string): string | undefined => {
      const outside = text.replace(/"[^"]*"/g, 'P');
      return outside.includes('"') ? undefined : outside;
    };
    // In any order: a term excluded twice is moved after its group, to be asked for (double-negation.ts).
    const words = (text: string): string => (text.match(/[a-z]+|\d+/g) ?? []).sort().join(' ');
    fc.assert(
      fc.property(
        fc.array(token, { minLength: 1, maxLength: 12 }).map((tokens) => tokens.join('')),
        fc.boolean(),
        (glued, spaced) => {
          const text = spaced ? glued.split('').join(' ') : glued;
          fc.pre(/[a-z]/.test(text));
          const closed = closedQuery(text);
          const outside = outsidePhrases(closed);
          expect(outside).toBeDefined();
          let open = 0;
          for (const character of outside!) {
            if (character === '(') open += 1;
            if (character === ')') open -= 1;
            expect(open).toBeGreaterThanOrEqual(0);
          }
          expect(open).toBe(0);
          expect(outside).not.toMatch(/(?:^|[\s(])(?:AND|OR|NOT)\s*(?:\)|$)|(?:^|\()\s*(?:AND|OR)(?=[\s)]|$)/);
          // No two operators side by side, but the NOT after an AND or OR that every reader excludes with its term.
          expect(outside).not.toMatch(/(?:^|[\s(])(?:AND|OR|NOT)\s+(?:AND|OR)(?=[\s)]|$)|(?:^|[\s(])NOT\s+NOT(?=[\s)]|$)/);
          expect(words(closed)).toBe(words(text));
          expect(closedQuery(closed)).toBe(closed);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('leaves out an empty group, and an operator that joined it, as a group of operators alone', () => {
    // Sent as typed, PubMed and OpenAlex were asked `rust NOT ()`.
    expect(closedQuery('rust NOT ()')).toBe('rust');
    expect(closedQuery('rust ( ) go')).toBe('rust go');
    // Inside a phrase it is a character of the phrase.
    expect(closedQuery('x "()"')).toBe('x "()"');
  });

  it('leaves a NOT before a -word in its group, where it goes with the -word', () => {
    // Moved before the group, the NOT of `NOT -mice` took the group whole, rats too.
    expect(closedQuery('asthma ( NOT -mice rats)')).toBe('asthma ( NOT -mice rats)');
  });

  it('moves a NOT that opens a group before a number out of the group with its number, leaving the rest to find', () => {
    // `-40` is a number, no `-` term: the NOT alone was moved before the group, and excluded rats too.
    expect(closedQuery('asthma (NOT -40 rats)')).toBe('asthma NOT -40 (rats)');
    expect(closedQuery('asthma (NOT 40 rats)')).toBe('asthma NOT 40 (rats)');
    expect(closedQuery('asthma (NOT 40 OR rats)')).toBe('asthma NOT 40 (rats)');
    expect(closedQuery('(NOT .NET rust)')).toBe('NOT .NET (rust)');
    // Alone in its group, the number is the group, as a word is (`asthma NOT (mice)`).
    expect(closedQuery('asthma (NOT 40)')).toBe('asthma NOT (40)');
    // In a group excluded itself, it is excluded twice, and asked for as a word is (`a NOT (NOT mice rats)`).
    for (const excluded of ['asthma NOT (NOT 40 rats)', 'asthma -(NOT 40 rats)']) {
      expect(closedQuery(excluded), excluded).toMatch(/^asthma (?:NOT |-)\( ?rats\) 40$/);
      expect(closedQuery(excluded), excluded).toBe(closedQuery(excluded.replace('40', 'mice')).replace('mice', '40'));
    }
    // A NOT after a `(` glued to a word (a formula's) is read as before.
    expect(closedQuery('f(NOT 40 x)')).toBe('f NOT (40 x)');
    // So does a group that no `-` excludes (numbers, a formula), nested too: moved alone, the NOT excluded bb.
    expect(closedQuery('a (NOT (40) bb)')).toBe('a NOT (40) (bb)');
    expect(closedQuery('a (NOT (x+1) bb)')).toBe('a NOT (x+1) (bb)');
    expect(closedQuery('a (NOT ((40)) bb)')).toBe('a NOT ((40)) (bb)');
    expect(closedQuery('a (NOT (40 OR 41) OR bb)')).toBe('a NOT (40 OR 41) (bb)');
    // A group a `-` excludes is written as a `-` term in place, as before.
    expect(closedQuery('a (NOT (mice) bb)')).toBe('a (-(mice) bb)');
    // In a group excluded itself, the group is excluded twice, and asked for, as the number is.
    expect(closedQuery('a NOT (NOT (40) bb)')).toBe('a NOT ( bb) (40)');
  });

  it('reads a run of NOTs that opens a group as the one NOT it is outside a group, before its one term', () => {
    // `NOT NOT x` is `NOT x` (as below); after a `(` the first NOT was moved before the group as one with no term, and
    // the second excluded its term inside that excluded group: (mice) was asked for, and rats excluded.
    for (const [typed, closed] of [
      ['(NOT NOT (mice) rats)', '(-(mice) rats)'],
      ['(NOT NOT mice rats)', '(-mice rats)'],
      ['a (NOT NOT (mice) rats)', 'a (-(mice) rats)'],
      ['(NOT NOT NOT (mice) rats)', '(-(mice) rats)'],
      ['a (NOT NOT 40 rats)', 'a NOT 40 (rats)'],
    ]) {
      expect(closedQuery(typed!), typed).toBe(closed);
      // As the same text with one NOT.
      expect(closedQuery(typed!), typed).toBe(closedQuery(typed!.replace(/NOT (?:NOT )+/, 'NOT ')));
    }
    // A `-` before a group that opens with a `-` term is two exclusions, nested, not side by side: they cancel.
    expect(closedQuery('a (-(-mice) rats)')).toBe('a (mice rats)');
  });

  /**
   * A run of operators is read once, not again from each of its operators on each pass: `(NOT NOT NOT … x` read so took
   * time by the cube of its length, 30 ms at the 500 characters a query may have (on each of PubMed, OpenAlex and GitHub,
   * twice), and 3.7 s at 3,000. Read once it takes milliseconds at 3,000: a second is room enough for a busy machine.
   */
  it('closes a long run of operators in a group in time that does not grow with the cube of its length', () => {
    for (const text of [`(${'NOT '.repeat(750)}x`, '(NOT '.repeat(600), `(a ${'AND '.repeat(740)}`]) {
      const started = performance.now();
      const closed = closedQuery(text);
      expect(performance.now() - started, text.slice(0, 20)).toBeLessThan(1000);
      // Still closed as before: no operator first in a group, nor last in it or in the text.
      expect(closed).not.toMatch(/\(\s*(?:AND|OR|NOT)(?:\s|$)|(?:^|\s)(?:AND|OR|NOT)\s*\)*$/);
    }
  });

  it.each([
    // Sent as typed, PubMed and OpenAlex read an operator with an operator, not a term, on one side.
    ['a AND OR b', 'a OR b'],
    ['a OR OR b', 'a OR b'],
    ['a AND AND b', 'a AND b'],
    ['a NOT AND b', 'a AND b'],
    ['a NOT NOT b', 'a NOT b'],
    ['NOT NOT x', 'NOT x'],
    ['OR NOT NOT x', 'NOT x'],
    // A NOT after an AND or OR stays so (every reader excludes its term), with the one operator just before it.
    ['a AND NOT b', 'a AND NOT b'],
    ['a OR AND NOT b', 'a AND NOT b'],
    ['a NOT OR NOT b', 'a OR NOT b'],
    // Left so by a group of operators alone, or inside a group.
    ['a OR (AND) AND b', 'a AND b'],
    ['(a OR OR b) c', '(a OR b) c'],
    ['rust AND OR', 'rust'],
    // Inside a phrase they are words; in lower case too.
    ['x "a AND OR b"', 'x "a AND OR b"'],
    ['a and or b', 'a and or b'],
  ])('reads the operators side by side in %j as one: %j', (typed, closed) => {
    expect(closedQuery(typed)).toBe(closed);
  });

  it('finds no word in a text of punctuation or ASCII symbols alone, which the APIs would search for as nothing', () => {
    // Sent as typed, every provider was asked `?` or `!!!`: their tokenizers drop them, and answer with anything.
    for (const text of ['+', '.', '!!!', '…', '?', ':)', '"?"', '$', '...', '— «»', 'NOT ?', '(?) OR !', '-?']) {
      expect(closedQuery(text), text).toBe('');
      expect(noWordProblem(text), text).toBe(NO_WORD_TO_SEARCH);
    }
  });

  it('finds a word in a letter or digit of any script, a symbol past ASCII or an emoji, however much punctuation is about it', () => {
    for (const text of ['C++', 'C#', '.NET', 'F#', 'x', '1', '?!1', '机器学习', 'ß', '🦀', '#️⃣', '€', '∑', '→', '‼️', '"OR"', '-OR', 'a?', '¿qué?']) {
      expect(noWordProblem(text), text).toBeUndefined();
      expect(closedQuery(text), text).toBe(text);
    }
  });
});

describe('closedQuery on punctuation before a word', () => {
  it('reads a long run of punctuation, quotes and spaces before a word in linear time', () => {
    // A space, `"` or `(` was matched both as ASCII and as no symbol: 38 such characters before a word took seconds
    // (2ⁿ ways tried), 60 held the service for good. Linear, 500 characters take well under a millisecond.
    const text = `${'"(NOT " '.repeat(4)}${'? '.repeat(3)}x`;
    const started = performance.now();
    expect(closedQuery(text)).toBe(text);
    expect(performance.now() - started).toBeLessThan(250);
    expect(closedQuery(`${'? '.repeat(250)}x`)).toBe(`${'? '.repeat(250)}x`);
  });
});
