/**
 * Titles that say opposite things. By their bigrams "Hyperthyroidism in pregnancy" and "Hypothyroidism in
 * pregnancy", "… in vivo" and "… in vitro", "X does reduce Y" and "X does not reduce Y" are near-identical, yet
 * they name two works. The differences indexes make to one title (punctuation, case, accents, hyphens, a
 * subtitle's separator) never turn a word into its opposite or add a negation, so such a difference is read as
 * two works. Read only for the few pairs of titles already found similar, never per result.
 */

import { differingWordSets, onlySpacesDiffer, titleDifference, type TitleDifference, type WordLookup } from './title-differences.js';

/** Words that turn what follows around: "does not reduce", "with and without", "non small cell", "anti inflammatory". */
const NEGATIONS: ReadonlySet<string> = new Set(['not', 'no', 'non', 'never', 'without', 'anti']);

/**
 * Openings of a word that, with the same rest, name opposites: "hyper|thyroidism" and "hypo|thyroidism",
 * "pre|operative" and "post|operative", "in|crease" and "de|crease"; a rest may be empty ("pre-operative" is
 * normalised to "pre operative", and "vivo" and "vitro" are whole words). Word pairs with no shared rest are
 * here too, as openings with an empty rest or a shared ending ("activat|ion", "inhibit|ion").
 */
const OPPOSITE_OPENINGS: ReadonlyArray<readonly [string, string]> = [
  ['hyper', 'hypo'], ['pre', 'post'], ['ante', 'post'], ['intra', 'extra'], ['intra', 'inter'], ['endo', 'exo'],
  ['in', 'ex'], ['im', 'ex'], ['in', 'out'], ['in', 'de'], ['up', 'down'], ['over', 'under'], ['hetero', 'homo'],
  ['mono', 'poly'], ['uni', 'bi'], ['uni', 'multi'], ['micro', 'macro'], ['pro', 'anti'], ['sub', 'supra'],
  ['sub', 'super'], ['ana', 'cata'],
  ['with', 'without'], ['vivo', 'vitro'], ['vivo', 'silico'], ['vitro', 'silico'], ['men', 'women'], ['male', 'female'],
  ['positive', 'negative'], ['acute', 'chronic'], ['benign', 'malignant'], ['agonist', 'antagonist'],
  ['activat', 'inhibit'], ['activate', 'inhibit'], ['presence', 'absence'], ['maxim', 'minim'],
];

/**
 * Openings that negate the word they come before: "un|supervised", "non|linear", "ir|reversible",
 * "de|centralized", "a|synchronous" (Greek's "a" only before a consonant, "an" before a vowel: "an|aerobic";
 * "aetiology" is a spelling of "etiology"). The rest must be a word of three letters or more.
 */
const NEGATING_OPENINGS: readonly string[] = ['un', 'non', 'in', 'im', 'ir', 'il', 'dis', 'de', 'anti', 'dys', 'mal'];
const SHORTEST_NEGATED_REST = 3;
const VOWELS = 'aeiou';

/**
 * Whether two normalised titles, already found similar, differ by a negation or by a word turned into its opposite.
 * `found`: their titleDifference, when the caller has it already.
 */
export function titlesOpposite(a: string, b: string, found?: TitleDifference): boolean {
  if (a === b) return false;
  const difference = found ?? titleDifference(a, b);
  if (onlySpacesDiffer(difference)) return false;
  const { wordsA, wordsB, start, differingA, differingB } = difference;
  // Looked up, not searched for: titles that put their words in another order differ in most of them, and comparing
  // each with each held a search of 500 such titles for seconds.
  const { setA: inA, setB: inB } = differingWordSets(difference);
  if (negationCount(wordsA, start, start + differingA.length, inB) !== negationCount(wordsB, start, start + differingB.length, inA)) return true;
  if (differingA.length !== differingB.length) return false;
  // A word whose opposite the other title also holds was moved, not turned: "inflow and outflow", "outflow and inflow".
  return differingA.some((word, index) => !inB.has(word) && !inA.has(differingB[index]!) && wordsOpposite(word, differingB[index]!));
}

/**
 * NEGATIONS among words[start, end), and contractions ("doesn't" is normalised to "doesn t": a "t" after a word
 * ending in "n"); "no" before a number numbers ("report no 5"), and a negation the other title writes joined to the
 * word it comes before (`otherWords`: "non linear" where the other has "nonlinear", with other words differing too)
 * is the same word written apart.
 */
function negationCount(words: readonly string[], start: number, end: number, otherWords: WordLookup): number {
  let count = 0;
  for (let index = start; index < end; index += 1) {
    const word = words[index]!;
    if (word === 't') {
      if (index > 0 && words[index - 1]!.endsWith('n')) count += 1;
    } else if (NEGATIONS.has(word) && !(word === 'no' && /^\d/.test(words[index + 1] ?? '')) && !writtenJoined(word, words[index + 1], otherWords)) {
      count += 1;
    }
  }
  return count;
}

function writtenJoined(negation: string, next: string | undefined, otherWords: WordLookup): boolean {
  return next !== undefined && otherWords.has(negation + next);
}

/** Whether one word is the other with an opposite opening (OPPOSITE_OPENINGS) or a negating one (NEGATING_OPENINGS). */
function wordsOpposite(a: string, b: string): boolean {
  for (const [first, second] of OPPOSITE_OPENINGS) {
    if (sameRest(a, first, b, second) || sameRest(b, first, a, second)) return true;
  }
  return negatedBy(a, b) || negatedBy(b, a);
}

/** Whether `a` opens with `openingA`, `b` with `openingB`, and what follows is the same. */
function sameRest(a: string, openingA: string, b: string, openingB: string): boolean {
  return a.startsWith(openingA) && b.startsWith(openingB) && a.length - openingA.length === b.length - openingB.length && a.endsWith(b.slice(openingB.length));
}

/** Whether `negated` is `word` after a negating opening. */
function negatedBy(negated: string, word: string): boolean {
  if (word.length < SHORTEST_NEGATED_REST || !negated.endsWith(word)) return false;
  const opening = negated.slice(0, negated.length - word.length);
  const startsWithVowel = VOWELS.includes(word[0]!);
  if (opening === 'a') return !startsWithVowel;
  if (opening === 'an') return startsWithVowel;
  return NEGATING_OPENINGS.includes(opening);
}
