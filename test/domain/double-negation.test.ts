import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_GROUP_DEPTH, closedQuery } from '../../src/domain/closed-query.js';
import { closedTextExcludedTerms } from '../../src/domain/excluded-terms.js';

/**
 * A term inside excluded groups (`a NOT (NOT (NOT x))`), as every reader of excluded terms is given it once the text is
 * closed: excluded by an odd number of NOTs, asked for by an even number, and, where the group joins it to a term to
 * find (`a NOT (b AND NOT c)`), neither excluded nor asked for, as no search without OR can ask for NOT b OR c.
 */

/** What opens a group around the term: an excluded group, a group opened by a NOT, or a group alone. */
const OPENERS = ['NOT (', '(NOT ', '('] as const;

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
          fc.pre(groups <= MAX_GROUP_DEPTH && !(term.startsWith('-') && openers.at(-1) === '(NOT '));
          const negations = openers.filter((opener) => opener.includes('NOT')).length + (term.startsWith('-') ? 1 : 0);
          const text = `asthma ${openers.join('')}${term}${')'.repeat(openers.length)}`;
          const odd = negations % 2 === 1;
          expect({ text, ...miceRead(text) }).toEqual({ text, excluded: odd, wanted: !odd });
        },
      ),
      { numRuns: 500 },
    );
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
        const negations = 1 + openers.filter((opener) => opener.includes('NOT')).length;
        const text = `asthma -(${openers.join('')}mice${')'.repeat(openers.length + 1)}${more ? ' rats' : ''}`;
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
});
