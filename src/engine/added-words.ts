/**
 * Titles where one adds a word the other lacks. By their bigrams "Effects of chronic stress on hippocampal
 * neurogenesis in mice" and "… in mice and rats" are near-identical, yet the second names a study of two animals:
 * a long title changes few of its bigrams for a word more. Indexes drop or add small words ("the", "of"), a
 * possessive's "s" ("Parkinson's disease", "Parkinson disease"), spaces ("non-linear", "nonlinear") and a subtitle
 * or an aside in brackets ("…: a systematic review", "… (CNNs)"), but seldom add a word of a title's subject to its
 * running text. Read only for the few pairs of titles already found similar, never per result.
 */

import { normalizeTitle, TITLE_OPENING_WORDS } from './paper-identity.js';
import { sameWordSpelledOtherwise } from './replaced-words.js';
import { differingWords } from './title-differences.js';

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
 * bracketed aside of that title as given (`titleA`, `titleB`).
 */
export function titlesAddAWord(a: string, b: string, titleA: string, titleB: string): boolean {
  if (a === b) return false;
  const { differingA: subjectA, differingB: subjectB } = differingWords(subjectWords(a), subjectWords(b));
  const differingA = withWordsJoined(subjectA, subjectB);
  const differingB = withWordsJoined(subjectB, differingA);
  if (differingA.length === differingB.length) return false;
  const [more, fewer, title] = differingA.length > differingB.length ? [differingA, differingB, titleA] : [differingB, differingA, titleB];
  const added = more.filter((word) => !fewer.some((other) => sameWordSpelledOtherwise(word, other)));
  return added.length > 0 && !isWholeAside(added, title);
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
  return normalized.split(' ').filter((word, index, words) => !isSmallWord(word, words[index + 1]));
}

/**
 * `words` with each run of neighbours that another list writes as one word joined ("non linear" where the other
 * has "nonlinear"): such a run is one word written apart, not words added.
 */
function withWordsJoined(words: string[], others: string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    let run = words[index]!;
    let end = index + 1;
    while (end < words.length && !others.includes(run) && others.some((other) => other.startsWith(run + words[end]!))) {
      run += words[end]!;
      end += 1;
    }
    if (others.includes(run)) {
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
