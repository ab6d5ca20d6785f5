/**
 * Where two normalised titles differ, as words: the rules that read a difference between two similar titles
 * (opposite-titles.ts, replaced-words.ts) look only at the words between the titles' common opening words and
 * their common ending words. Found only for the few pairs of titles already found similar, never per result.
 */

/**
 * Two titles' words, and the words where they differ: `differingA` from `wordsA[start]` on, `differingB` from
 * `wordsB[start]` on. What more than one rule reads of the differing words (whether only spaces differ, the words as
 * sets) is worked out by the first rule that reads it and kept here (onlySpacesDiffer, differingWordSets): titles that
 * put their words in another order differ in nearly all of them, and each rule working it out again cost seconds for a
 * hostile upstream's titles.
 */
export interface TitleDifference {
  wordsA: readonly string[];
  wordsB: readonly string[];
  start: number;
  differingA: string[];
  differingB: string[];
  /** Each title's WordPlaces, when the caller has them (title-words.ts). */
  placesA?: WordPlaces;
  placesB?: WordPlaces;
  spacesOnly?: boolean;
  setA?: ReadonlySet<string>;
  setB?: ReadonlySet<string>;
}

/** Splits two normalised titles into words and finds the words where they differ, their common opening and ending words aside. */
export function titleDifference(a: string, b: string): TitleDifference {
  return differenceOfWords(a.split(' '), b.split(' '));
}

/** titleDifference of two titles already split into words (title-words.ts: once per title, not once per pair). */
export function differenceOfWords(wordsA: readonly string[], wordsB: readonly string[], placesA?: WordPlaces, placesB?: WordPlaces): TitleDifference {
  return { wordsA, wordsB, placesA, placesB, ...differingWords(wordsA, wordsB) };
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
export function onlySpacesDiffer(difference: TitleDifference): boolean {
  difference.spacesOnly ??= sameLetters(difference.differingA, difference.differingB);
  return difference.spacesOnly;
}

/** Whether two lists of words hold the same letters once joined, read in place rather than joined. */
function sameLetters(wordsA: readonly string[], wordsB: readonly string[]): boolean {
  let lengthA = 0;
  let lengthB = 0;
  for (const word of wordsA) lengthA += word.length;
  for (const word of wordsB) lengthB += word.length;
  if (lengthA !== lengthB) return false;
  let wordB = 0;
  let letterB = 0;
  for (const word of wordsA) {
    for (let letter = 0; letter < word.length; letter += 1) {
      while (letterB === wordsB[wordB]!.length) {
        wordB += 1;
        letterB = 0;
      }
      if (word.charCodeAt(letter) !== wordsB[wordB]!.charCodeAt(letterB)) return false;
      letterB += 1;
    }
  }
  return true;
}

/** A word looked up among one title's differing words. */
export interface WordLookup {
  has(word: string): boolean;
}

/**
 * Where each word of a title stands, first and last: worked out once per title (title-words.ts), so that whether a
 * word is among the differing words of a pair is looked up without making a set of them for each pair.
 */
export interface WordPlaces {
  first: ReadonlyMap<string, number>;
  last: ReadonlyMap<string, number>;
}

export function wordPlaces(words: readonly string[]): WordPlaces {
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  for (let index = 0; index < words.length; index += 1) {
    if (!first.has(words[index]!)) first.set(words[index]!, index);
    last.set(words[index]!, index);
  }
  return { first, last };
}

/**
 * The differing words of each title, to look a word up rather than search for it: through each title's WordPlaces when
 * the caller gives them, otherwise as sets made once per pair, by whichever rule asks first.
 */
export function differingWordSets(difference: TitleDifference): { setA: WordLookup; setB: WordLookup } {
  const { placesA, placesB } = difference;
  if (placesA !== undefined && placesB !== undefined) {
    return {
      setA: differingLookup(difference.wordsA, difference.start, difference.differingA, placesA),
      setB: differingLookup(difference.wordsB, difference.start, difference.differingB, placesB),
    };
  }
  difference.setA ??= new Set(difference.differingA);
  difference.setB ??= new Set(difference.differingB);
  return { setA: difference.setA, setB: difference.setB };
}

/** Whether a word stands in words[start, start + differing.length): at its first or last place, or, rarely, between them. */
function differingLookup(words: readonly string[], start: number, differing: readonly string[], places: WordPlaces): WordLookup {
  const end = start + differing.length;
  return {
    has(word: string): boolean {
      const first = places.first.get(word);
      if (first === undefined) return false;
      const last = places.last.get(word)!;
      if ((first >= start && first < end) || (last >= start && last < end)) return true;
      // Before and after the differing words both: another of its places may be among them.
      return first < start && last >= end && differing.includes(word);
    },
  };
}
