/**
 * Titles that differ by a word put in place of another. By their bigrams "Effects of chronic stress on hippocampal
 * neurogenesis in adult mice" and "… in adult rats" are near-identical, yet they name two works: one word of a long
 * title changes few of its bigrams. Indexes spell a word of one title in other ways (a typo, "behaviour" and
 * "behavior", "modelling" and "modeling", "analysis" and "analyses", "fibre" and "fiber"), a few letters apart,
 * but never put another word in its place. Read only for the few pairs of titles already found similar, never
 * per result.
 */

import { editsWithin } from '../domain/edits-within.js';
import { TITLE_OPENING_WORDS } from './paper-identity.js';
import { differingWordSets, onlySpacesDiffer, titleDifference, type TitleDifference } from './title-differences.js';
import { holdsTitleNumber } from './title-numbers.js';

/**
 * Edits two spellings of one word may differ by, by the longer word's length: none up to LONGEST_WORD_OF_NO_EDIT
 * letters, since a word that short is one letter away from many other words ("dna" and "rna", "fat" and "fit"),
 * one up to LONGEST_WORD_OF_ONE_EDIT ("tumour" and "tumor", "fibre" and "fiber"), and two past it ("catalogue"
 * and "catalog", "sulphur" and "sulfur").
 */
const LONGEST_WORD_OF_NO_EDIT = 3;
const LONGEST_WORD_OF_ONE_EDIT = 5;

/**
 * Whether two normalised titles, already found similar, differ by a word in place of another: where they differ
 * they have as many words, and some word of one is neither a spelling of the word in its place
 * (sameWordSpelledOtherwise) nor, with that word, moved from elsewhere in the other title ("inflow and outflow",
 * "outflow and inflow"). Titles that differ by a word more or less (added-words.ts reads them), or by their spaces
 * alone, are left as they were found. `found`: their titleDifference, when the caller has it already.
 */
export function titlesReplaceAWord(a: string, b: string, found?: TitleDifference): boolean {
  if (a === b) return false;
  const difference = found ?? titleDifference(a, b);
  if (difference.differingA.length !== difference.differingB.length || onlySpacesDiffer(difference)) return false;
  const differingA = withoutContractions(difference.wordsA, difference.start, difference.differingA);
  const differingB = withoutContractions(difference.wordsB, difference.start, difference.differingB);
  // Looked up, not searched for, and before the slower spelling test: titles that put their words in another order
  // differ in most of them, each moved, and comparing each with each held a search of 500 such titles for seconds.
  // Those the opposites rule looked its words up in, unless a contraction was written out.
  const asFound = differingA === difference.differingA && differingB === difference.differingB;
  const { setA: wordsA, setB: wordsB } = asFound ? differingWordSets(difference) : { setA: new Set(differingA), setB: new Set(differingB) };
  return differingA.some((word, index) => {
    const other = differingB[index]!;
    // Both found elsewhere in the other title: moved, and the words between them compared on their own turn.
    if (wordsB.has(word) && wordsA.has(other)) return false;
    return !sameWordSpelledOtherwise(word, other);
  });
}

/**
 * The differing words (from `words[start]` on) with "n't" written out: normalised, "doesn't" is "doesn t", which
 * is "does not" (a "t" after a word ending in "n", as opposite-titles.ts reads a contraction). Copied only when
 * there is one.
 */
function withoutContractions(words: readonly string[], start: number, differing: string[]): string[] {
  let expanded: string[] | undefined;
  for (let index = 0; index < differing.length; index += 1) {
    const before = index > 0 ? differing[index - 1]! : words[start - 1];
    if (differing[index] !== 't' || before === undefined || !before.endsWith('n')) continue;
    expanded ??= differing.slice();
    expanded[index] = 'not';
    if (index > 0) expanded[index - 1] = before.slice(0, -1);
  }
  return expanded ?? differing;
}

/**
 * Whether two words may be one word as indexes spell it: the same word, two words that say nothing of a title's
 * subject ("on" and "in", TITLE_OPENING_WORDS), words holding a number (sameTitleNumbers's to compare), a regular
 * plural ("study" and "studies") or an irregular one ("mouse" and "mice", IRREGULAR_PLURALS), "versus" and "vs",
 * or words that open with one letter (sameFirstLetter) a few edits apart (spelledWithin) or with other endings on
 * one stem (sameStem). A run of Chinese, Japanese or Thai between two spaces is read as one word too: each of its
 * characters says as much as a word, so a run that differs in more than a few is another phrase.
 */
export function sameWordSpelledOtherwise(a: string, b: string): boolean {
  // Last, as the slowest test: most words compared hold no number.
  return spelledAlike(a, b) || holdsTitleNumber(a) || holdsTitleNumber(b);
}

/**
 * sameWordSpelledOtherwise but for words holding a number: for a caller comparing one word with many, which asks
 * holdsTitleNumber of each word once rather than once per pair.
 */
export function spelledAlike(a: string, b: string): boolean {
  if (a === b || (TITLE_OPENING_WORDS.has(a) && TITLE_OPENING_WORDS.has(b)) || pluralOf(a, b) || pluralOf(b, a)) return true;
  if (VERSUS.has(a) && VERSUS.has(b)) return true;
  if (IRREGULAR_PLURALS.get(a) === b || IRREGULAR_PLURALS.get(b) === a) return true;
  const longer = Math.max(a.length, b.length);
  const allowed = longer <= LONGEST_WORD_OF_NO_EDIT ? 0 : longer <= LONGEST_WORD_OF_ONE_EDIT ? 1 : 2;
  return sameFirstLetter(a, b) && (spelledWithin(a, b, allowed) || sameStem(a, b));
}

/**
 * spelledAlike of one word against each of many: the tests that name the other word outright (the same word, a plural
 * in "ies", an irregular plural) are looked up, and those that hold for a kind of word (small words, "versus") are
 * asked once, so that only the words opening with the same letter are compared one by one (sameFirstLetter). Two
 * titles whose spaces stand elsewhere ("pre training", "pretraining"; a hostile upstream's) differ in all of their
 * words, and comparing each with each held a search of 2,500 such titles for seconds.
 */
export class SpellingIndex {
  private readonly present: ReadonlySet<string>;
  private readonly holdsOpeningWord: boolean;
  private readonly holdsVersus: boolean;
  private readonly byFirstLetter = new Map<string | undefined, string[]>();

  constructor(words: readonly string[]) {
    this.present = new Set(words);
    this.holdsOpeningWord = words.some((word) => TITLE_OPENING_WORDS.has(word));
    this.holdsVersus = words.some((word) => VERSUS.has(word));
    for (const word of words) {
      const letter = firstLetter(word);
      const alike = this.byFirstLetter.get(letter);
      if (alike === undefined) this.byFirstLetter.set(letter, [word]);
      else alike.push(word);
    }
  }

  /**
   * Whether some word indexed is `word` as spelledAlike reads them, or undefined once `budget.comparisons` words have been
   * compared one by one: the caller then takes the titles to differ.
   */
  holdsSpellingOf(word: string, budget: { comparisons: number }): boolean | undefined {
    const { present } = this;
    if (present.has(word) || (this.holdsOpeningWord && TITLE_OPENING_WORDS.has(word)) || (this.holdsVersus && VERSUS.has(word))) return true;
    if (word.endsWith('y') && present.has(`${word.slice(0, -1)}ies`)) return true;
    if (word.endsWith('ies') && present.has(`${word.slice(0, -3)}y`)) return true;
    const plural = IRREGULAR_PLURALS.get(word);
    const singular = SINGULARS.get(word);
    if ((plural !== undefined && present.has(plural)) || (singular !== undefined && present.has(singular))) return true;
    for (const other of this.byFirstLetter.get(firstLetter(word)) ?? []) {
      budget.comparisons -= 1;
      if (budget.comparisons < 0) return undefined;
      if (spelledAlike(word, other)) return true;
    }
    return false;
  }
}

/**
 * Whether `a` is `b` spelled otherwise in at most `allowed` edits (editsWithin). Words of one length differ by letters
 * in place of letters (and neighbours swapped: "fibre", "fiber"), and there a letter for another is another word more
 * often than another spelling: "absorption" and "adsorption", "spinal" and "spiral", "sulfate" and "sulfite",
 * "alkene" and "alkyne", "mitosis" and "meiosis". Only the letters spellings trade (SPELLING_LETTERS: "organise",
 * "organize"; "sceptic", "skeptic"; "defence", "defense"; "analysis", "analyses") count as one word there; words of
 * two lengths keep editsWithin's allowance (a letter dropped or added: "tumour", "tumor").
 */
function spelledWithin(a: string, b: string, allowed: number): boolean {
  if (a.length !== b.length) return editsWithin(a, b, allowed);
  let edits = 0;
  for (let index = 0; index < a.length; index += 1) {
    if (a[index] === b[index]) continue;
    edits += 1;
    if (edits > allowed) return false;
    // Two neighbours swapped are one edit, a typo's or a spelling's ("centre", "center").
    if (a[index] === b[index + 1] && a[index + 1] === b[index]) {
      index += 1;
      continue;
    }
    if (!spellingLetters(a, b, index)) return false;
  }
  return true;
}

/** Letters one spelling of a word has where another has the other, in either order. */
const SPELLING_LETTERS: ReadonlySet<string> = new Set(['sz', 'zs', 'ck', 'kc', 'cs', 'sc']);

/** Whether the letters at `index` are ones spellings trade: SPELLING_LETTERS, or a plural's "is" and "es" at the end. */
function spellingLetters(a: string, b: string, index: number): boolean {
  if (SPELLING_LETTERS.has(a[index]! + b[index]!)) return true;
  const atPluralEnding = index === a.length - 2 && a.endsWith('s');
  return atPluralEnding && (a[index] === 'i' || a[index] === 'e') && (b[index] === 'i' || b[index] === 'e');
}

/**
 * Singulars and the irregular plurals titles use that the edits allowed do not reach ("mouse" and "mice", "child"
 * and "children", "index" and "indices"): without them "profiling of mouse retinal cells" and "profiling of mice
 * retinal cells" were read as a word put in place of another. Plurals a few edits away need no entry ("criterion"
 * and "criteria", "nucleus" and "nuclei"); those whose letters are changed do ("woman" and "women"). Only these
 * pairs: "men" is "man", never "women" (opposite-titles.ts).
 */
const IRREGULAR_PLURALS: ReadonlyMap<string, string> = new Map([
  ['mouse', 'mice'], ['louse', 'lice'], ['child', 'children'], ['man', 'men'], ['foot', 'feet'], ['tooth', 'teeth'],
  ['goose', 'geese'], ['ox', 'oxen'], ['person', 'people'], ['datum', 'data'], ['index', 'indices'], ['vertex', 'vertices'],
  ['apex', 'apices'], ['cortex', 'cortices'], ['genus', 'genera'], ['corpus', 'corpora'],
  // A letter for another (spelledWithin): one word only as this pair.
  ['woman', 'women'], ['matrix', 'matrices'], ['appendix', 'appendices'],
]);

/** IRREGULAR_PLURALS the other way: each plural's singular. */
const SINGULARS: ReadonlyMap<string, string> = new Map([...IRREGULAR_PLURALS].map(([singular, plural]) => [plural, singular]));

/** "versus" as titles write it; "v" is left out, as a Roman five is sameTitleNumbers's. */
const VERSUS: ReadonlySet<string> = new Set(['versus', 'vs']);

/**
 * Endings one title's wording may put on a word where another has another ending or none ("predicting" and
 * "predict", "automated" and "automatic", "analysing" and "analysis"): the longest first, taken off only where a
 * stem of MIN_STEM letters is left, so "bats" and "bees" keep their letters.
 */
const WORD_ENDINGS = ['ations', 'ation', 'ings', 'ing', 'ions', 'ion', 'ed', 'es', 'ic', 'al', 'ly', 's', 'e'];
const MIN_STEM = 4;

/**
 * Whether two words are one word with other endings: their stems (stem) at most one edit apart. A word with a
 * longer part of its own ("insulin" and "insulinoma") is not: no ending is taken off it.
 */
function sameStem(a: string, b: string): boolean {
  const stemA = stem(a);
  const stemB = stem(b);
  return (stemA !== a || stemB !== b) && spelledWithin(stemA, stemB, 1);
}

function stem(word: string): string {
  for (const ending of WORD_ENDINGS) {
    if (word.length - ending.length >= MIN_STEM && word.endsWith(ending)) return word.slice(0, -ending.length);
  }
  return word;
}

/**
 * Whether two words open with one letter, an opening "ae" or "oe" read as "e" ("aetiology" and "etiology",
 * "oesophagus" and "esophagus"): a typo or another spelling of a word seldom changes its first letter, and many
 * words are another word but for their first ("maternal" and "paternal", "afferent" and "efferent", "methanol"
 * and "ethanol").
 */
function sameFirstLetter(a: string, b: string): boolean {
  return firstLetter(a) === firstLetter(b);
}

function firstLetter(word: string): string | undefined {
  return word[0] === 'a' || word[0] === 'o' ? (word[1] === 'e' ? 'e' : word[0]) : word[0];
}

/** Whether `plural` is `word` with y turned to ies ("therapy", "therapies"): three edits, one word. */
function pluralOf(plural: string, word: string): boolean {
  return word.endsWith('y') && plural.length === word.length + 2 && plural.endsWith('ies') && plural.startsWith(word.slice(0, -1));
}
