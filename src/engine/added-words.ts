/**
 * Titles where one adds a word the other lacks. By their bigrams "Effects of chronic stress on hippocampal
 * neurogenesis in mice" and "… in mice and rats" are near-identical, yet the second names a study of two animals:
 * a long title changes few of its bigrams for a word more. Indexes drop or add small words ("the", "of"), a
 * possessive's "s" ("Parkinson's disease", "Parkinson disease"), spaces ("non-linear", "nonlinear") and a subtitle
 * or an aside in brackets ("…: a systematic review", "… (CNNs)"), but seldom add a word of a title's subject to its
 * running text. Read only for the few pairs of titles already found similar, never per result.
 */

import { normalizeTitle, TITLE_OPENING_WORDS } from './paper-identity.js';
import { SpellingIndex } from './replaced-words.js';
import { holdsTitleNumber } from './title-numbers.js';
import { differenceOfWords, differingWords, type TitleDifference } from './title-differences.js';
import { titleWords, type TitleWords } from './title-words.js';

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
 * bracketed aside of that title as given (`titleA`, `titleB`). Grouping reads titles once per search and asks
 * titleWordsAdded; this reads a pair on its own.
 */
export function titlesAddAWord(a: string, b: string, titleA: string, titleB: string): boolean {
  if (a === b) return false;
  const readA = titleWords(titleA, a);
  const readB = titleWords(titleB, b);
  return titleWordsAdded(readA, readB, differenceOfWords(readA.words, readB.words));
}

/**
 * titlesAddAWord of two titles read once per search (title-words.ts), whose words of subject and of each part set
 * apart are kept on them the first time they are found, and their titleDifference.
 */
export function titleWordsAdded(readA: TitleWords, readB: TitleWords, difference: TitleDifference): boolean {
  if (readA.normalized === readB.normalized) return false;
  readA.subjectWords ??= subjectWordsOf(readA.words);
  readB.subjectWords ??= subjectWordsOf(readB.words);
  const { differingA: subjectA, differingB: subjectB } = differingWords(readA.subjectWords, readB.subjectWords);
  const differingA = withWordsJoined(subjectA, subjectB);
  const differingB = withWordsJoined(subjectB, differingA);
  if (differingA.length === differingB.length) return false;
  const [more, fewer, read] = differingA.length > differingB.length ? [differingA, differingB, readA] : [differingB, differingA, readB];
  // Titles already found to hold the same numbers: when neither holds any, no word of either does.
  const added = wordsNotIn(more, fewer, readA.numbers !== '' || readB.numbers !== '');
  return added === undefined || (added.length > 0 && !isWholeAside(added, read));
}

/**
 * The words of `more` that are no spelling of a word of `fewer` (sameWordSpelledOtherwise, which takes a word holding a
 * number for a spelling of any word: numbers are sameTitleNumbers's to compare), or undefined when finding them would
 * compare more than MAX_SPELLING_COMPARISONS words one by one. A word is looked up in `fewer` (SpellingIndex), and each
 * word is asked once whether it holds a number, not once for each word it is compared with: the differing words of two
 * titles are nearly all of them when the titles put their words in another order or their spaces elsewhere, and comparing
 * each with each, 60 words a title, held a search of 500 such titles (a hostile upstream's) for 6 to 11 s.
 */
function wordsNotIn(more: readonly string[], fewer: readonly string[], numbered: boolean): string[] | undefined {
  if (fewer.length === 0) return more.slice();
  if (numbered && fewer.some(holdsTitleNumber)) return [];
  const spellings = new SpellingIndex(fewer);
  const budget = { comparisons: MAX_SPELLING_COMPARISONS };
  const added: string[] = [];
  for (const word of more) {
    if (numbered && holdsTitleNumber(word)) continue;
    const spelled = spellings.holdsSpellingOf(word, budget);
    if (spelled === undefined) return undefined;
    if (!spelled) added.push(word);
  }
  return added;
}

/**
 * Words of two titles compared one by one (spelledAlike) for one pair, at most: only words opening with the same letter
 * are (SpellingIndex), and two real titles' differing words ask few (30 words against 30, spread over the alphabet, ask
 * a few dozen), while a hostile pair, every word of one opening like every word of the other, would ask thousands. Past it
 * the titles are taken to differ: two works kept apart, never joined.
 */
const MAX_SPELLING_COMPARISONS = 256;

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
  // Sorted the first time a run is looked for at the start of another word: a prefix's words are found together there.
  let sorted: string[] | undefined;
  const opensAWord = (prefix: string): boolean => {
    sorted ??= others.slice().sort();
    return sorted[lowerBound(sorted, prefix)]?.startsWith(prefix) ?? false;
  };
  const joined: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    let run = words[index]!;
    let end = index + 1;
    while (end < words.length && !present.has(run)) {
      const longer = run + words[end]!;
      if (!opensAWord(longer)) break;
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

/** The first position in `sorted` (in code unit order, as sort() leaves it) whose word is not before `word`. */
function lowerBound(sorted: readonly string[], word: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Whether `added` are the words of subject of one part a title as given sets apart (ASIDE_SEPARATORS), and all of them.
 * Each part's words are found once per title and kept on it.
 */
function isWholeAside(added: string[], read: TitleWords): boolean {
  const wanted = added.join(' ');
  read.asideSubjects ??= read.given.split(ASIDE_SEPARATORS).map((part) => subjectWordsOf(normalizeTitle(part).split(' ')).join(' '));
  return read.asideSubjects.includes(wanted);
}
