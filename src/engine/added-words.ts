/**
 * Titles where one adds a word the other lacks. By their bigrams "Effects of chronic stress on hippocampal
 * neurogenesis in mice" and "… in mice and rats" are near-identical, yet the second names a study of two animals:
 * a long title changes few of its bigrams for a word more. Indexes drop or add small words ("the", "of"), a
 * possessive's "s" ("Parkinson's disease", "Parkinson disease"), spaces ("non-linear", "nonlinear") and a subtitle
 * or an aside in brackets ("…: a systematic review", "… (CNNs)"), but seldom add a word of a title's subject to its
 * running text. Read only for the few pairs of titles already found similar, never per result.
 */

import { normalizeTitle, TITLE_OPENING_WORDS } from './paper-identity.js';
import { spelledAlike } from './replaced-words.js';
import { holdsTitleNumber } from './title-numbers.js';
import { differingWords, type TitleDifference } from './title-differences.js';

/**
 * Where a title as given sets a part off from the rest: a subtitle's separator (a colon, a semicolon, a question or
 * exclamation mark, a full stop before a space, an em dash, a dash between spaces) or brackets. An en dash or a
 * hyphen between letters joins ("Smith–Waterman", "pre-training"): it sets nothing apart.
 */
const ASIDE_SEPARATORS = /[:;?!()[\]{}—]|\.\s|\s[-–]+\s/;

/**
 * Whether two normalised titles, already found similar, differ by a word of their subject that one holds and the
 * other lacks: past their common opening and ending words of subject (small words, isSmallWord, set aside), one has
 * more such words than the other, even once words written apart in one and together in the other are joined, and
 * its words that are not spellings of the other's (sameWordSpelledOtherwise) are not the whole of a subtitle or a
 * bracketed aside of that title as given (`titleA`, `titleB`). `found`: the titles' titleDifference, when the caller
 * has it already (its words, split once for every rule).
 */
export function titlesAddAWord(a: string, b: string, titleA: string, titleB: string, found?: TitleDifference): boolean {
  if (a === b) return false;
  const wordsA = found?.wordsA ?? a.split(' ');
  const wordsB = found?.wordsB ?? b.split(' ');
  const { differingA: subjectA, differingB: subjectB } = differingWords(subjectWordsOf(wordsA), subjectWordsOf(wordsB));
  const differingA = withWordsJoined(subjectA, subjectB);
  const differingB = withWordsJoined(subjectB, differingA);
  if (differingA.length === differingB.length) return false;
  const [more, fewer, title] = differingA.length > differingB.length ? [differingA, differingB, titleA] : [differingB, differingA, titleB];
  const added = wordsNotIn(more, fewer);
  return added.length > 0 && !isWholeAside(added, title);
}

/**
 * The words of `more` that are no spelling of a word of `fewer` (sameWordSpelledOtherwise, which takes a word holding a
 * number for a spelling of any word: numbers are sameTitleNumbers's to compare). A word found as it is in `fewer` is
 * looked up, and each word is asked once whether it holds a number, not once for each word it is compared with: the
 * differing words of two titles are nearly all of them when the titles put their words in another order, and comparing
 * each with each, 60 words a title, held a search of 500 such titles (a hostile upstream's) for 6 to 11 s.
 */
function wordsNotIn(more: readonly string[], fewer: readonly string[]): string[] {
  if (fewer.length === 0) return more.slice();
  if (fewer.some(holdsTitleNumber)) return [];
  const present = new Set(fewer);
  return more.filter((word) => !present.has(word) && !holdsTitleNumber(word) && !fewer.some((other) => spelledAlike(word, other)));
}

/**
 * Words that number what follows ("report no. 5", "vol 3"): an index may drop them before the number, which the
 * numbers rule (title-numbers.ts) compares.
 */
const NUMBERING_WORDS: ReadonlySet<string> = new Set(['no', 'nr', 'number', 'vol', 'volume']);

/**
 * Small words say nothing of a title's subject, and an index adds or drops them: TITLE_OPENING_WORDS ("the", "of",
 * "and"), a possessive's "s", and NUMBERING_WORDS before a number.
 */
function isSmallWord(word: string, next: string | undefined): boolean {
  if (word === 's' || TITLE_OPENING_WORDS.has(word)) return true;
  return NUMBERING_WORDS.has(word) && next !== undefined && next.charCodeAt(0) >= 0x30 && next.charCodeAt(0) <= 0x39;
}

function subjectWords(normalized: string): string[] {
  return subjectWordsOf(normalized.split(' '));
}

function subjectWordsOf(words: readonly string[]): string[] {
  return words.filter((word, index) => !isSmallWord(word, words[index + 1]));
}

/**
 * `words` with each run of neighbours that another list writes as one word joined ("non linear" where the other
 * has "nonlinear"): such a run is one word written apart, not words added.
 */
function withWordsJoined(words: string[], others: string[]): string[] {
  // Looked up, not searched for: both lists are every word of their titles when the titles order them otherwise.
  const present = new Set(others);
  const joined: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    let run = words[index]!;
    let end = index + 1;
    while (end < words.length && !present.has(run)) {
      const longer = run + words[end]!;
      if (!others.some((other) => other.startsWith(longer))) break;
      run = longer;
      end += 1;
    }
    if (present.has(run)) {
      joined.push(run);
      index = end - 1;
    } else joined.push(words[index]!);
  }
  return joined;
}

/** Whether `added` are the words of subject of one part a title as given sets apart (ASIDE_SEPARATORS), and all of them. */
function isWholeAside(added: string[], title: string): boolean {
  const wanted = added.join(' ');
  return title.split(ASIDE_SEPARATORS).some((part) => subjectWords(normalizeTitle(part)).join(' ') === wanted);
}
