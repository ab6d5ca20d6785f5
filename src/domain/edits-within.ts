/**
 * Whether `a` becomes `b` in at most `allowed` edits: a letter inserted, deleted or replaced, or two neighbours
 * swapped ("fibre" and "fiber", "centre" and "center" are one edit apart). The optimal string alignment distance,
 * row by row, within a band: a cell more than `allowed` columns off the diagonal already costs more than `allowed`
 * edits (a distance is at least the difference of the lengths compared), so only the 2 × `allowed` + 1 cells around
 * the diagonal of each row are worked out. A "word" is whatever lies between two spaces, up to a whole title (a run
 * of Chinese or Japanese, a title a provider wrote without spaces), and the whole matrix costs the product of the
 * lengths: a provider's 500 near-identical titles of 300 characters took 0.4 s to merge, two words of 30,000
 * letters 15 s. The band keeps it linear.
 */
export function editsWithin(a: string, b: string, allowed: number): boolean {
  if (Math.abs(a.length - b.length) > allowed) return false;
  // Any value past `allowed` reads as "too many edits": cells outside the band, never worked out, hold it.
  const tooMany = allowed + 1;
  let beforePrevious = new Array<number>(b.length + 1).fill(tooMany);
  let previous = Array.from({ length: b.length + 1 }, (_, column) => Math.min(column, tooMany));
  let current = new Array<number>(b.length + 1).fill(tooMany);
  for (let row = 1; row <= a.length; row += 1) {
    const first = Math.max(1, row - allowed);
    const last = Math.min(b.length, row + allowed);
    // The cell left of the band: this array last held a row three rows up, whose value there is no longer true.
    current[first - 1] = first === 1 ? Math.min(row, tooMany) : tooMany;
    let smallest = current[first - 1]!;
    for (let column = first; column <= last; column += 1) {
      const replaced = a[row - 1] === b[column - 1] ? 0 : 1;
      let distance = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + replaced);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        distance = Math.min(distance, beforePrevious[column - 2]! + 1);
      }
      current[column] = distance;
      smallest = Math.min(smallest, distance);
    }
    // Every later row is at least the smallest of this one.
    if (smallest > allowed) return false;
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return previous[b.length]! <= allowed;
}
