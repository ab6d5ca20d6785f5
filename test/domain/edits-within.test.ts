import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editsWithin } from '../../src/domain/edits-within.js';
import { titlesReplaceAWord } from '../../src/engine/replaced-words.js';

/** The optimal string alignment distance over the whole matrix, as the textbook writes it: what the band must agree with. */
function alignmentDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, row) => Array.from({ length: b.length + 1 }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)));
  for (let row = 1; row <= a.length; row += 1) {
    for (let column = 1; column <= b.length; column += 1) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      rows[row]![column] = Math.min(rows[row - 1]![column]! + 1, rows[row]![column - 1]! + 1, rows[row - 1]![column - 1]! + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        rows[row]![column] = Math.min(rows[row]![column]!, rows[row - 2]![column - 2]! + 1);
      }
    }
  }
  return rows[a.length]![b.length]!;
}

describe('editsWithin', () => {
  it('agrees with the whole alignment matrix', () => {
    // Few letters, so that words share many and swaps, repeats and near misses are common.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 12 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, allowed) => {
        expect(editsWithin(a, b, allowed)).toBe(alignmentDistance(a, b) <= allowed);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads swaps and edits far into long words', () => {
    const long = 'x'.repeat(5000);
    expect(editsWithin(`${long}ab`, `${long}ba`, 1)).toBe(true);
    expect(editsWithin(`ab${long}cd`, `ba${long}dc`, 1)).toBe(false);
    expect(editsWithin(`ab${long}cd`, `ba${long}dc`, 2)).toBe(true);
    expect(editsWithin(`${long}abc`, `${long}`, 2)).toBe(false);
  });
});

describe('titles that differ in one long word', () => {
  /** Far above what the band takes (a few ms), far below what the whole matrix took for these words (over 10 s). */
  const IN_PROPORTION_MS = 2000;
  /** Letters of the word: titlesReplaceAWord takes any two titles, and a word is whatever lies between two spaces. */
  const LETTERS = 30_000;

  it('are compared in proportion to the word\'s length', () => {
    const word = `s${'a'.repeat(LETTERS)}`;
    const started = performance.now();
    // Two swaps apart at the end of the word: another spelling of it, found only by reading the word to its end.
    const replaced = titlesReplaceAWord(`effects of chronic ${word}xy`, `effects of chronic ${word}yx`);
    expect(performance.now() - started).toBeLessThan(IN_PROPORTION_MS);
    expect(replaced).toBe(false);
    // Three letters replaced, more than a word that long may differ by: another word.
    expect(titlesReplaceAWord(`effects of chronic ${word}bcd`, `effects of chronic ${word}pqr`)).toBe(true);
  }, 60_000);
});
