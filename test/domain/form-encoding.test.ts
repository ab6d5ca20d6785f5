import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formEncoded } from '../../src/domain/form-encoding.js';

/** The reference: what the adapters' query strings were built with before. */
const reference = (parameters: Record<string, string>): string => new URLSearchParams(parameters).toString();

describe('formEncoded', () => {
  it('writes what URLSearchParams writes for the usual query parameters', () => {
    const cases: Record<string, string>[] = [
      {},
      { q: 'plain', count: '10', offset: '0' },
      { q: 'two words & more', lang: 'en-US' },
      { q: "it's (almost) ~100% *true*!", 'odd name': 'a+b=c' },
      { q: 'é 中文 🦀', safesearch: 'strict' },
      { '1': 'integer-like names come first', b: 'x', a: 'y' },
    ];
    for (const parameters of cases) expect(formEncoded(parameters)).toBe(reference(parameters));
  });

  it('writes a lone surrogate as U+FFFD, as URLSearchParams does, rather than throwing', () => {
    const parameters = { q: 'broken \uD83D pair', r: '\uDE00 tail' };
    expect(formEncoded(parameters)).toBe(reference(parameters));
  });

  it('agrees with URLSearchParams on any names and values', () => {
    // Characters the two encodings treat differently, any code point (lone surrogates included), and plain ASCII.
    const unit = fc.oneof(
      fc.constantFrom(' ', '!', "'", '(', ')', '~', '*', '%', '+', '&', '=', '-', '.', '_'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
    );
    const text = fc.string({ unit });
    fc.assert(
      fc.property(fc.dictionary(text, text), (parameters) => {
        expect(formEncoded(parameters)).toBe(reference(parameters));
      }),
      { numRuns: 500 },
    );
  });
});
