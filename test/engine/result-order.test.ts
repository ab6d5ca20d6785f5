import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankingOrder } from '../../src/engine/result-order.js';

/** The order as the rule states it: a comparator sort of the four keys. */
function referenceOrder(scores: number[], sourceCounts: number[], bestRanks: number[]): number[] {
  return scores
    .map((_, index) => index)
    .sort((a, b) => scores[b]! - scores[a]! || sourceCounts[b]! - sourceCounts[a]! || bestRanks[a]! - bestRanks[b]! || a - b);
}

describe('ranking order', () => {
  it('orders by score, then sources, then best rank, then first seen, whichever way it sorts', () => {
    const round = (value: number): number => Math.round(value * 1e6) / 1e6;
    // Mostly scores as ranking makes them (ties included), sometimes values the packed sort must leave alone.
    const score = fc.oneof(
      { arbitrary: fc.constantFrom(1, 2, 3).chain((sources) => fc.constant(round(sources / 61))), weight: 4 },
      { arbitrary: fc.double({ min: 0, max: 2, noNaN: true }).map(round), weight: 4 },
      { arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, -0.5, 0.1 + 0.2, 1e12), weight: 1 },
    );
    const rank = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 60 }), weight: 9 }, { arbitrary: fc.constantFrom(1.5, 2 ** 40, Number.NaN), weight: 1 });
    const row = fc.tuple(score, fc.integer({ min: 1, max: 5 }), rank);
    fc.assert(
      fc.property(fc.array(row, { maxLength: 80 }), (rows) => {
        const scores = rows.map(([value]) => value);
        const sourceCounts = rows.map(([, sources]) => sources);
        const bestRanks = rows.map(([, , best]) => best);
        const order = rankingOrder(Float64Array.from(scores), Int32Array.from(sourceCounts), Float64Array.from(bestRanks));
        expect(Array.from(order)).toEqual(referenceOrder(scores, sourceCounts, bestRanks));
      }),
      { numRuns: 2000 },
    );
  });
});
