import { describe, expect, it } from 'vitest';
import { excludedTerms, notIsOperator } from '../../src/domain/excluded-terms.js';

describe('excluded terms: NOT before a group, and NOT in a text written in capitals', () => {
  it('excludes each word and phrase of a NOT group, a nested or unclosed one too, and leaves the group out of the rest', () => {
    expect(excludedTerms('asthma NOT (mice OR rats)')).toEqual({ rest: 'asthma', excluded: ['mice', 'rats'] });
    expect(excludedTerms('asthma AND NOT (mice OR "case report") children')).toEqual({ rest: 'asthma children', excluded: ['mice', 'case report'] });
    expect(excludedTerms('asthma NOT (mice OR (rats AND dogs))')).toEqual({ rest: 'asthma', excluded: ['mice', 'rats', 'dogs'] });
    expect(excludedTerms('asthma NOT (mice OR rats')).toEqual({ rest: 'asthma', excluded: ['mice', 'rats'] });
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
    expect(notIsOperator('HTTP 404 NOT FOUND')).toBe(false);
    expect(excludedTerms('NOT INVENTED HERE')).toBeUndefined();
    expect(excludedTerms('NOT FOUND -NGINX')).toEqual({ rest: 'NOT FOUND', excluded: ['NGINX'] });
  });
});
