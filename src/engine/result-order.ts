/** Scores are rounded to millionths (rank.ts): a score times this is a whole number. */
const SCORE_SCALE = 1e6;
/** Whole numbers up to this are exact in a double, so keys packed below it sort exactly. */
const PACKED_KEY_BITS = 53;

/**
 * The order of ranked results, as indexes: score (highest first), then number of sources (most first), then
 * best rank (lowest first), then the order the groups came in. No two results tie, so any correct sort gives
 * this one order (as long as the keys are numbers: see comparedOrder).
 *
 * A comparator sort calls back into JavaScript for each of its n log n comparisons, the largest cost of
 * ranking that grows faster than the results. When every key is a small whole number (scores in millionths,
 * ranks and counts as they are), the four keys are packed into one whole number below 2^53 and the results
 * are sorted by a numeric sort of those numbers, which gives the same order; otherwise the comparator sorts.
 */
export function rankingOrder(scores: Float64Array, sourceCounts: Int32Array, bestRanks: Float64Array): ArrayLike<number> {
  return packedOrder(scores, sourceCounts, bestRanks) ?? comparedOrder(scores, sourceCounts, bestRanks);
}

/**
 * The general rule: Array.prototype.sort with a comparator of the four keys. (A NaN score makes the comparator
 * inconsistent, and then only this very sort gives the order it always gave.)
 */
function comparedOrder(scores: Float64Array, sourceCounts: Int32Array, bestRanks: Float64Array): number[] {
  const order: number[] = [];
  for (let index = 0; index < scores.length; index += 1) order.push(index);
  return order.sort((a, b) => scores[b]! - scores[a]! || sourceCounts[b]! - sourceCounts[a]! || bestRanks[a]! - bestRanks[b]! || a - b);
}

/**
 * The same order from one numeric sort, or undefined when a key is not a small whole number (a score that is not
 * a whole number of millionths or is negative, a rank that is not a whole number, keys too large to pack).
 */
function packedOrder(scores: Float64Array, sourceCounts: Int32Array, bestRanks: Float64Array): Int32Array | undefined {
  const count = scores.length;
  const millionths = new Float64Array(count);
  let highestScore = 0;
  let mostSources = 0;
  let highestRank = 0;
  for (let index = 0; index < count; index += 1) {
    const scaled = Math.round(scores[index]! * SCORE_SCALE);
    const rank = bestRanks[index]!;
    // Only where the whole number gives the score back exactly do the two order alike.
    if (!(scaled >= 0 && scaled <= Number.MAX_SAFE_INTEGER && scaled / SCORE_SCALE === scores[index]!)) return undefined;
    if (!(Number.isInteger(rank) && rank >= 0 && rank <= Number.MAX_SAFE_INTEGER)) return undefined;
    millionths[index] = scaled;
    if (scaled > highestScore) highestScore = scaled;
    if (sourceCounts[index]! > mostSources) mostSources = sourceCounts[index]!;
    if (rank > highestRank) highestRank = rank;
  }
  const indexBits = bitsFor(count);
  const rankBits = bitsFor(highestRank + 1);
  const sourceBits = bitsFor(mostSources + 1);
  if (bitsFor(highestScore + 1) + sourceBits + rankBits + indexBits > PACKED_KEY_BITS) return undefined;
  // Ascending keys: the highest score and the most sources first, so each is counted down from its largest.
  const indexUnit = 1;
  const rankUnit = 2 ** indexBits;
  const sourceUnit = rankUnit * 2 ** rankBits;
  const scoreUnit = sourceUnit * 2 ** sourceBits;
  const keys = new Float64Array(count);
  for (let index = 0; index < count; index += 1) {
    keys[index] =
      (highestScore - millionths[index]!) * scoreUnit + (mostSources - sourceCounts[index]!) * sourceUnit + bestRanks[index]! * rankUnit + index * indexUnit;
  }
  keys.sort();
  const order = new Int32Array(count);
  for (let position = 0; position < count; position += 1) order[position] = keys[position]! % rankUnit;
  return order;
}

/** How many bits hold the whole numbers below `limit` (at least one). */
function bitsFor(limit: number): number {
  let bits = 1;
  while (2 ** bits < limit) bits += 1;
  return bits;
}
