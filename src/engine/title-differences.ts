/**
 * Where two normalised titles differ, as words: the rules that read a difference between two similar titles
 * (opposite-titles.ts, replaced-words.ts) look only at the words between the titles' common opening words and
 * their common ending words. Found only for the few pairs of titles already found similar, never per result.
 */

/** Two titles' words, and the words where they differ: `differingA` from `wordsA[start]` on, `differingB` from `wordsB[start]` on. */
export interface TitleDifference {
  wordsA: string[];
  wordsB: string[];
  start: number;
  differingA: string[];
  differingB: string[];
}

/** Splits two normalised titles into words and finds the words where they differ, their common opening and ending words aside. */
export function titleDifference(a: string, b: string): TitleDifference {
  const wordsA = a.split(' ');
  const wordsB = b.split(' ');
  return { wordsA, wordsB, ...differingWords(wordsA, wordsB) };
}

/** Where two lists of words differ: from `start`, past their common opening words, up to their common ending words. */
export function differingWords(wordsA: readonly string[], wordsB: readonly string[]): { start: number; differingA: string[]; differingB: string[] } {
  let start = 0;
  while (start < wordsA.length && start < wordsB.length && wordsA[start] === wordsB[start]) start += 1;
  let endA = wordsA.length;
  let endB = wordsB.length;
  while (endA > start && endB > start && wordsA[endA - 1] === wordsB[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  return { start, differingA: wordsA.slice(start, endA), differingB: wordsB.slice(start, endB) };
}

/** Whether only the spaces differ ("non linear" and "nonlinear", "pre training" and "pretraining"): one title. */
export function onlySpacesDiffer({ differingA, differingB }: TitleDifference): boolean {
  return differingA.join('') === differingB.join('');
}
