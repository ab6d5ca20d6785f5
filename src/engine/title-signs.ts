/**
 * Signs in titles. "… in ER+ breast cancer" and "… in ER− breast cancer", "CD4+CD25+ T cells" and "CD4+CD25− T cells",
 * "W+ boson" and "W− boson" name two works, yet a normalised title has no punctuation, and no sign with it: by their
 * bigrams and their words such titles are one. Read only for the few pairs of titles already found similar.
 */

/**
 * A word closed by a sign: `+`, `−` (U+2212, only ever a minus), or `-` or `–` with no letter or digit after it (with
 * one, it is a hyphen, "HER2-negative", or a range, "1–2"). Matched from a word's start only: tried from each of its
 * letters, a long word without a sign was read again from each (quadratic time).
 */
const SIGNED_WORD = /(?<![\p{L}\p{N}])([\p{L}\p{N}]+)(?:(\+)|−|[-–](?![\p{L}\p{N}]))/gu;
const PLUS = 1;
const MINUS = 2;

/** The words a title signs (lower case), each with PLUS, MINUS or both (`μ+μ−`); empty when it signs none. */
export function titleSigns(title: string): ReadonlyMap<string, number> {
  const signs = new Map<string, number>();
  for (const match of title.matchAll(SIGNED_WORD)) {
    const word = match[1]!.toLowerCase();
    signs.set(word, (signs.get(word) ?? 0) | (match[2] === undefined ? MINUS : PLUS));
  }
  return signs;
}

/**
 * Whether two titles may sign a word oppositely: one of them holds a `+` (a title whose only signs are minus signs
 * signs nothing the other way). A test of two titles, so that titleSigns is read for few pairs.
 */
export function maySignOppositely(a: string, b: string): boolean {
  return a !== b && (a.includes('+') || b.includes('+'));
}

/** Whether one title signs a word with a plus only and the other the same word with a minus only. */
export function signedOppositely(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  for (const [word, sign] of a) {
    const other = b.get(word);
    // One PLUS and one MINUS; a word both signs in one title ("W+ and W− bosons") is not turned by the other.
    if (other !== undefined && (sign ^ other) === (PLUS | MINUS)) return true;
  }
  return false;
}
