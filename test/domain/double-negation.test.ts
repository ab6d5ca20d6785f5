import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_GROUP_DEPTH, closedQuery } from '../../src/domain/closed-query.js';
import { closedTextExcludedTerms, excludedTerms, minusSyntax } from '../../src/domain/excluded-terms.js';

/**
 * A term inside excluded groups (`a NOT (NOT (NOT x))`), as every reader of excluded terms is given it once the text is
 * closed: excluded by an odd number of NOTs, asked for by an even number, and, where the group joins it to a term to
 * find (`a NOT (b AND NOT c)`), neither excluded nor asked for, as no search without OR can ask for NOT b OR c.
 */

/**
 * What opens a group around the term: a group excluded by a NOT or a `-`, a group opened by a NOT, or a group alone. A
 * `-(` after another opener is a `-` before a group that starts with a `-` term or a group (`-(-(mice))`, `-((-mice))`).
 */
const OPENERS = ['NOT (', '(NOT ', '(', '-('] as const;

/** The text with each run of NOTs side by side written as one NOT, the one operator every reader reads it as. */
function oneNotPerRun(text: string): string {
  return text.replace(/NOT (?:NOT )+/g, 'NOT ');
}

/** How the readers take `mice`: excluded, or a word to find (in the rest). */
function miceRead(text: string): { excluded: boolean; wanted: boolean } {
  const read = closedTextExcludedTerms(text);
  return { excluded: read.excluded.some((term) => term.includes('mice')), wanted: read.rest.includes('mice') };
}

describe('a term excluded more than once', () => {
  it('is excluded by an odd number of NOTs and asked for by an even number, however the groups around it are written', () => {
    // Two NOTs side by side, where closing moves a group's opening NOT before a group excluded itself, were read as
    // one: `asthma NOT (NOT (NOT mice))` asked for mice, and `asthma NOT (NOT (40))` excluded 40.
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...OPENERS), { minLength: 1, maxLength: MAX_GROUP_DEPTH }),
        fc.constantFrom('mice', '(mice)', '-(mice)', '-mice'),
        (openers, term) => {
          const groups = openers.length + (term.includes('(') ? 1 : 0);
          // Past MAX_GROUP_DEPTH groups lose their parentheses; a NOT just before a `-` term goes with it (closed-query.ts).
          const text = `asthma ${openers.join('')}${term}${')'.repeat(openers.length)}`;
          fc.pre(groups <= MAX_GROUP_DEPTH && !text.includes('NOT -'));
          // NOTs side by side (`(NOT ` then `NOT (`) are one operator (closed-query.ts oneOperator), as outside a group.
          const negations = [...oneNotPerRun(text).matchAll(/NOT |-/g)].length;
          const odd = negations % 2 === 1;
          expect({ text, ...miceRead(text) }).toEqual({ text, excluded: odd, wanted: !odd });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('excludes its term alone where a NOT opening a group of more is before groups excluded or not, and counts every NOT and `-`', () => {
    // `aa (NOT (-aa) bb)`: a NOT before a group that opens with a `-` term, a group or a NOT was moved before the whole
    // group, which excluded bb too, a word to find.
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...OPENERS), { maxLength: MAX_GROUP_DEPTH - 2 }),
        fc.constantFrom('mice', '(mice)', '-(mice)', '-mice'),
        (openers, term) => {
          const text = `asthma (NOT (${openers.join('')}${term}${')'.repeat(openers.length)}) rats)`;
          // NOTs side by side are read as one operator (closed-query.ts oneOperator), not counted each.
          fc.pre(openers.length + 2 + (term.includes('(') ? 1 : 0) <= MAX_GROUP_DEPTH && !/NOT -|NOT NOT/.test(text));
          const odd = [...text.matchAll(/NOT |-/g)].length % 2 === 1;
          const read = closedTextExcludedTerms(text);
          expect({ text, ...miceRead(text) }).toEqual({ text, excluded: odd, wanted: !odd });
          expect({ text, rats: read.excluded.includes('rats'), wanted: read.rest.includes('rats') }).toEqual({ text, rats: false, wanted: true });
        },
      ),
      { numRuns: 300 },
    );
    expect(closedQuery('aa (NOT (-aa) bb)')).toBe('aa (aa bb)');
    const grouped = closedTextExcludedTerms('aa (NOT ((x)) bb)');
    expect({ excluded: grouped.excluded, words: grouped.rest.match(/\w+/g) }).toEqual({ excluded: ['x'], words: ['aa', 'bb'] });
  });

  it('reads a run of NOTs that opens a group of more as the one NOT it is, excluding or asking for its term alone', () => {
    // `(NOT NOT (mice) rats)`: the run was read as one operator with no term (moved before the group, excluding it) and
    // as two NOTs (the second excluding (mice) inside that excluded group): mice was asked for and rats excluded.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.constantFrom(...OPENERS), { maxLength: MAX_GROUP_DEPTH - 2 }),
        fc.constantFrom('mice', '(mice)', '-(mice)'),
        fc.constantFrom('', 'asthma '),
        (nots, openers, term, before) => {
          const text = `${before}(${'NOT '.repeat(nots)}${openers.join('')}${term}${')'.repeat(openers.length)} rats)`;
          fc.pre(openers.length + 1 + (term.includes('(') ? 1 : 0) <= MAX_GROUP_DEPTH && !text.includes('NOT -'));
          const odd = [...oneNotPerRun(text).matchAll(/NOT |-/g)].length % 2 === 1;
          const read = closedTextExcludedTerms(text);
          expect({ text, ...miceRead(text) }).toEqual({ text, excluded: odd, wanted: !odd });
          expect({ text, rats: read.excluded.includes('rats'), wanted: read.rest.includes('rats') }).toEqual({ text, rats: false, wanted: true });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('excludes a number that a NOT opening a group of more binds to, not the rest of the group', () => {
    // `-40` is a number, so the NOT could not be written as a `-` term: it was moved before the group, and bb excluded.
    for (const text of ['a (NOT 40 bb)', 'a (NOT NOT 40 bb)', 'a (NOT 40 OR bb)', '(NOT 40 bb) a']) {
      const read = closedTextExcludedTerms(text);
      expect({ text, excluded: read.excluded, words: read.rest.match(/\w+/g) }).toEqual({ text, excluded: ['40'], words: ['a', 'bb'].sort((x, y) => text.indexOf(x) - text.indexOf(y)) });
    }
    // Excluded twice (in a group excluded itself), it is asked for, and the rest excluded, as a word is.
    for (const text of ['a NOT (NOT 40 bb)', 'a -(NOT 40 bb)']) expect(closedTextExcludedTerms(text), text).toEqual({ rest: 'a 40', excluded: ['bb'] });
    // So is a word after a `-` before the group (read as a formula's `f(NOT x)`, the two cancelled, and bb was asked for).
    for (const text of ['a NOT (NOT mice bb)', 'a -(NOT mice bb)']) expect(closedTextExcludedTerms(text), text).toEqual({ rest: 'a mice', excluded: ['bb'] });
  });

  it('excludes or asks for a number a NOT opening a group of more binds to by every NOT and `-` around it, however the groups are written', () => {
    // `a (NOT (NOT (NOT 40 bb)))`: the innermost NOT, moved out of its group with its number, stood beside the NOT that
    // excludes that group, left for the next reading; the two were read as one, and 40, excluded three times, was asked for.
    const sequences: string[][] = [[]];
    for (const sequence of sequences) if (sequence.length < MAX_GROUP_DEPTH - 1) for (const opener of OPENERS) sequences.push([...sequence, opener]);
    for (const term of ['40', '.NET']) {
      for (const openers of sequences) {
        const text = `asthma ${openers.join('')}(NOT ${term} bb)${')'.repeat(openers.length)}`;
        if (text.includes('NOT -')) continue;
        // The NOTs and `-`s around the group, each run of NOTs one; the term has one more, its own NOT.
        const around = [...oneNotPerRun(text.replace(`NOT ${term}`, '')).matchAll(/NOT |-/g)].length;
        const read = closedTextExcludedTerms(text);
        const words = read.rest.split(/[\s()]+/);
        expect({ text, term: read.excluded.includes(term), bb: read.excluded.includes('bb'), termWanted: words.includes(term), bbWanted: words.includes('bb') }).toEqual({
          text,
          term: around % 2 === 0,
          bb: around % 2 === 1,
          termWanted: around % 2 === 1,
          bbWanted: around % 2 === 0,
        });
      }
    }
  });

  it('reads a `-` before a group that opens with a `-` term or group as excluding it, however deep', () => {
    // Read as no exclusion, each asked for x, negated an odd number of times.
    for (const text of ['a -(-(-(x)))', 'a -(-(-x))', 'a NOT (-(-x))']) expect(closedTextExcludedTerms(text), text).toEqual({ rest: 'a', excluded: ['x'] });
    // Negated twice, it is asked for (before, `-((-mice))` excluded mice and left `a -`, a dash joining nothing).
    expect(closedTextExcludedTerms('a -((-mice))')).toEqual({ rest: 'a mice', excluded: [] });
    expect(closedTextExcludedTerms('a -(-x y)')).toEqual({ rest: 'a x', excluded: ['y'] });
    // A `-` before a number is still no exclusion: neither is a `-` before a group that opens with one.
    expect(closedTextExcludedTerms('a -(-40 x)').excluded).toEqual([]);
  });

  it('counts the NOTs around a number or a formula too, which a `-` cannot exclude', () => {
    expect(miceRead('asthma NOT (NOT (NOT mice))')).toEqual({ excluded: true, wanted: false });
    expect(closedTextExcludedTerms('asthma NOT (NOT 40)')).toEqual({ rest: 'asthma (40)', excluded: [] });
    expect(closedTextExcludedTerms('asthma NOT (NOT (x+1))').excluded).toEqual([]);
    expect(closedTextExcludedTerms('asthma NOT (NOT (NOT 40))').excluded).toEqual(['40']);
  });

  it('is asked for, never excluded, where its group joins it to a term to find', () => {
    // `a NOT (b AND NOT c)` is `a AND (NOT b OR c)`. Excluded, c was the very word the caller let in (`cats NOT (dogs NOT
    // cats)` found nothing). Asked for (`a NOT (b) c`), every answer is one asked for, fewer than all of them (those with
    // neither b nor c), and no word the caller typed is lost: left out, it would be (closed-query.test.ts's words).
    expect(closedTextExcludedTerms('asthma NOT (mice AND NOT children)')).toEqual({ rest: 'asthma children', excluded: ['mice'] });
    expect(closedTextExcludedTerms('asthma -(mice -children)')).toEqual({ rest: 'asthma children', excluded: ['mice'] });
    expect(closedTextExcludedTerms('asthma NOT (NOT children mice)')).toEqual({ rest: 'asthma children', excluded: ['mice'] });
    expect(closedTextExcludedTerms('cats NOT (dogs NOT cats)')).toEqual({ rest: 'cats cats', excluded: ['dogs'] });
    expect(closedTextExcludedTerms('asthma NOT (mice OR (rats NOT dogs))')).toEqual({ rest: 'asthma dogs', excluded: ['mice', 'rats'] });
  });

  it('is asked for where it is an alternative of its group, alone or with other excluded terms', () => {
    // `a NOT (b OR NOT c)` is `a AND NOT b AND c`; `a NOT (b OR NOT c NOT d)` asks for c and d (one of its answers).
    expect(closedTextExcludedTerms('asthma NOT (mice OR NOT children)')).toEqual({ rest: 'asthma children', excluded: ['mice'] });
    expect(closedTextExcludedTerms('asthma NOT (mice OR -children -adults)')).toEqual({
      rest: 'asthma children adults',
      excluded: ['mice'],
    });
    expect(closedQuery('asthma NOT (mice OR (rats OR NOT dogs))')).toBe('asthma NOT (mice OR (rats)) dogs');
  });

  it('is excluded by an odd number where a `-` excludes the outermost group, the NOTs inside cancelled pairwise', () => {
    // Closing turns `-(-(NOT mice))` into `-( (mice))` (the inner `-` and NOT cancel): a `-` before a group that opens
    // with a group of its own was read as no exclusion, and mice, excluded three times, was asked for.
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...OPENERS), { minLength: 1, maxLength: MAX_GROUP_DEPTH - 1 }), fc.boolean(), (openers, more) => {
        const text = `asthma -(${openers.join('')}mice${')'.repeat(openers.length + 1)}${more ? ' rats' : ''}`;
        fc.pre(!text.includes('NOT -'));
        const negations = [...oneNotPerRun(text).matchAll(/NOT |-/g)].length;
        const odd = negations % 2 === 1;
        expect({ text, ...miceRead(text) }).toEqual({ text, excluded: odd, wanted: !odd });
      }),
      { numRuns: 300 },
    );
    expect(miceRead('asthma -(-(NOT mice))')).toEqual({ excluded: true, wanted: false });
    expect(miceRead('asthma -(-(NOT mice)) rats')).toEqual({ excluded: true, wanted: false });
    expect(closedTextExcludedTerms('asthma -((mice) OR rats)')).toEqual({ rest: 'asthma', excluded: ['mice', 'rats'] });
    // A number or a formula in such a group is still no term a `-` excludes.
    expect(closedTextExcludedTerms('asthma -((40))').excluded).toEqual([]);
    expect(closedTextExcludedTerms('asthma -((x+1))').excluded).toEqual([]);
  });

  /**
   * The readers of a `-` before a group look past `-(`, `(` and `NOT (` for its first term: a hostile text of them, at
   * the 500 characters a query may have, must be read in milliseconds by each, as a pattern that backtracked on them would
   * not be. A second is room enough for a busy machine; no case can hang, as each reader is timed on its own.
   */
  it('reads 500 characters of `-(`, `((`, `NOT (` runs in time that does not grow past milliseconds', () => {
    const readers: Array<(text: string) => unknown> = [
      closedQuery,
      closedTextExcludedTerms,
      (text) => excludedTerms(text),
      (text) => excludedTerms(text, { qualifiers: 'kept' }),
      (text) => excludedTerms(text, { not: 'kept', upperCaseNot: 'operator' }),
      minusSyntax,
    ];
    const units = ['-(', '-(-', '(NOT (-', '-((', '-( ', '(NOT -(', 'NOT (-(', '-("', '-(NOT ', '((-', '-(-x ', 'a (NOT (-a) ', '-(-(-(x) '];
    for (const unit of units) {
      for (const tail of ['x', '', '+1', ')']) {
        const text = unit.repeat(Math.ceil(500 / unit.length)).slice(0, 500 - tail.length) + tail;
        for (const read of readers) {
          const started = performance.now();
          read(text);
          expect(performance.now() - started, `${unit} ${tail}`).toBeLessThan(1000);
        }
      }
    }
  });
});
