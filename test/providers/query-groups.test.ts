import { describe, expect, it } from 'vitest';
import { withoutGroups } from '../../src/providers/query-groups.js';

/**
 * Which parentheses an API is sent: GitHub refuses a group (422), Algolia reads none, YouTube documents none. A group
 * goes only where the query means the same without it, under what each API documents of AND and OR.
 */
describe('withoutGroups', () => {
  it('leaves out, for GitHub (no order between AND and OR), only groups whose joins do not depend on one', () => {
    const cases: Array<[string, string, string[]]> = [
      ['(a OR b)', 'a OR b', []],
      ['x (a) y', 'x a y', []],
      ['x (a b) NOT c', 'x a b NOT c', []],
      ['(a OR b) OR c', 'a OR b OR c', []],
      ['((a OR b))', 'a OR b', []],
      // `x NOT a b` would exclude a alone; `x OR a b` may be `(x OR a) b`.
      ['x NOT (a b)', 'x NOT (a b)', ['(a b)']],
      ['x OR (a b)', 'x OR (a b)', ['(a b)']],
      ['(a OR b) c', '(a OR b) c', ['(a OR b)']],
      ['(a OR b) NOT c', '(a OR b) NOT c', ['(a OR b)']],
      ['(a b OR c)', 'a b OR c', []],
    ];
    for (const [text, sent, kept] of cases) expect(withoutGroups(text, 'unordered'), text).toEqual({ text: sent, kept });
  });

  it('leaves out, for YouTube (| before the space), every group but AND-ed terms beside an OR', () => {
    expect(withoutGroups('(a OR b) c', 'or-first')).toEqual({ text: 'a OR b c', kept: [] });
    expect(withoutGroups('x (a OR b) OR y', 'or-first')).toEqual({ text: 'x a OR b OR y', kept: [] });
    expect(withoutGroups('x (a b OR c) y', 'or-first')).toEqual({ text: 'x a b OR c y', kept: [] });
    expect(withoutGroups('(a b) OR c', 'or-first')).toEqual({ text: '(a b) OR c', kept: ['(a b)'] });
  });

  it('leaves out, for Algolia (every word required), every group', () => {
    expect(withoutGroups('(a b) OR (c OR d) -e', 'and-only')).toEqual({ text: 'a b OR c OR d -e', kept: [] });
  });

  it('keeps a formula glued to its word, and parentheses inside a phrase, as typed', () => {
    for (const reading of ['unordered', 'or-first', 'and-only'] as const) {
      expect(withoutGroups('solve f(a OR b) -(x+1) "g(y)"', reading), reading).toEqual({ text: 'solve f(a OR b) -(x+1) "g(y)"', kept: [] });
      expect(withoutGroups('(sin(x) cos(x))', reading), reading).toEqual({ text: 'sin(x) cos(x)', kept: [] });
    }
  });
});
