import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findInvalidPercentEncoding } from '../../src/http/request-parsing.js';

/** Whether every name and value of a query string decodes on its own: what the check must agree with. */
function everyPartDecodes(search: string): boolean {
  return search.split('&').every((pair) =>
    pair.split('=').every((piece) => {
      try {
        decodeURIComponent(piece);
        return true;
      } catch {
        return false;
      }
    }),
  );
}

// Fragments that make valid and broken escapes, split or not by the separators.
const fragment = fc.constantFrom('a', 'q', '+', '&', '=', '%', '%2', '%20', '%C3', '%A9', '%C3%A9', '%E0%A4', '%A4', '%F0%9F%98%80', '%zz', '%FF', '%%');
const queryString = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(''));

describe('findInvalidPercentEncoding', () => {
  it('finds a problem exactly when some name or value does not decode on its own', () => {
    fc.assert(
      fc.property(queryString, (search) => {
        expect(findInvalidPercentEncoding(search) === undefined).toBe(everyPartDecodes(search));
      }),
      { numRuns: 2000 },
    );
  });

  it('names the parameter whose value holds the bad escape', () => {
    expect(findInvalidPercentEncoding('q=caf%C3%A9&limit=%E0%A4')).toEqual({ field: 'limit', problem: '"%E0%A4" is not UTF-8' });
    expect(findInvalidPercentEncoding('q=100%&limit=5')).toEqual({ field: 'q', problem: '"%" not followed by two hex digits' });
    expect(findInvalidPercentEncoding('q=caf%C3%A9&limit=5')).toBeUndefined();
  });
});
