/**
 * What the word rules (opposite-titles.ts, replaced-words.ts, added-words.ts) and the numbers rule read of one title,
 * worked out once per search rather than once per pair: a title is compared with up to 32 others in each of its
 * blocks, and a hostile upstream's titles of 60 words, each alike by its bigrams to every other, had their words
 * split, filtered and searched for numbers again for every pair, holding a search for seconds.
 */

import { wordPlaces, type WordPlaces } from './title-differences.js';
import { titleNumbers } from './title-numbers.js';

export interface TitleWords {
  /** The title as given, for what normalising loses (a subtitle's separator, brackets). */
  readonly given: string;
  readonly normalized: string;
  readonly words: readonly string[];
  /** The title's numbers (titleNumbers): two titles hold the same numbers when these are equal. */
  readonly numbers: string;
  /** Where each word stands (wordPlaces), found the first time the title is read for differing words. */
  places?: WordPlaces;
  /** Filled by added-words.ts the first time it reads them: the words of subject, and those of each part set apart. */
  subjectWords?: readonly string[];
  asideSubjects?: readonly string[];
}

export function titleWords(given: string, normalized: string): TitleWords {
  return { given, normalized, words: normalized.split(' '), numbers: titleNumbers(normalized) };
}

/** The title's WordPlaces, found the first time they are asked for. */
export function placesOf(read: TitleWords): WordPlaces {
  read.places ??= wordPlaces(read.words);
  return read.places;
}
