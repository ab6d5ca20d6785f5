import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { findDois, normalizeDoi, readPaperIdentifier } from '../../src/domain/paper-identifiers.js';

/** What readPaperIdentifier threw for `input`, or undefined when it returned. */
function refusal(input: string): FedsearchError | undefined {
  try {
    readPaperIdentifier(input);
  } catch (error) {
    if (error instanceof FedsearchError) return error;
    throw error;
  }
  return undefined;
}

describe('a DOI with a "." or ".." part, which a lookup would resolve in its URL path', () => {
  const climbing = ['10.1234/../x', '10.1234/./x', '10.1234/%2e%2e/x', '10.1234/.%2E/x', '10.1234/x/%2E', 'https://doi.org/10.1234/..', 'doi:10.1234/%2e./x'];

  it.each(climbing)('refuses %s as invalid input (400) saying what is wrong and what is allowed', (input) => {
    const error = refusal(input);
    expect(error?.code).toBe('QUERY_INVALID');
    expect(error?.httpStatus).toBe(400);
    expect(error?.message).toBe(
      `id: "${input}" has a part between slashes that is "." or ".." (also as %2e), which no DOI has; use the DOI as registered, such as 10.1000/a.b/c..d or 10.1016/S0140-6736(20)30183-5`,
    );
  });

  it.each(climbing)('is no DOI to the normaliser either, so no adapter puts %s in a path', (input) => {
    expect(normalizeDoi(input)).toBeUndefined();
  });

  it('leaves such DOIs out of running text', () => {
    expect(findDois('see 10.1234/../../graph/v1/author/1 and 10.1000/xyz')).toEqual(['10.1000/xyz']);
  });

  it('accepts real DOIs: several slashes, dots inside a part, parentheses', () => {
    expect(readPaperIdentifier('10.1016/S0140-6736(20)30183-5')).toEqual({ type: 'doi', value: '10.1016/s0140-6736(20)30183-5' });
    expect(readPaperIdentifier('10.1000/a.b/c..d')).toEqual({ type: 'doi', value: '10.1000/a.b/c..d' });
    expect(readPaperIdentifier('10.1093/mind/lix.236.433')).toEqual({ type: 'doi', value: '10.1093/mind/lix.236.433' });
    expect(readPaperIdentifier('10.1000/...')).toEqual({ type: 'doi', value: '10.1000/...' });
    expect(readPaperIdentifier('10.1000/.hidden/x')).toEqual({ type: 'doi', value: '10.1000/.hidden/x' });
  });
});
