import type { ProviderItem } from '../domain/result.js';
import { arxivIdFromDoi } from '../domain/paper-identifiers.js';

/** Titles this similar (Dice coefficient on bigrams of normalised titles) name the same paper. */
export const TITLE_SIMILARITY_THRESHOLD = 0.9;
/** Years may differ by this much between a preprint and its journal version, or between indexes. */
export const YEAR_TOLERANCE = 1;
/** Comparisons one title may make inside one block; keeps the worst case linear on pathological input. */
const MAX_COMPARISONS_PER_TITLE = 32;

/** The identifiers a paper is matched by, each absent or non-empty. */
export interface MatchingIdentifiers {
  doi: string | undefined;
  arxiv: string | undefined;
  pmid: string | undefined;
}

/** A paper's DOI, arXiv id and PMID as matching sees them: an arXiv DOI counts as its arXiv id, not as a DOI. */
export function matchingIdentifiers(item: ProviderItem): MatchingIdentifiers {
  const arxivFromDoi = arxivIdFromDoi(item.doi);
  return {
    doi: item.doi && !arxivFromDoi ? item.doi : undefined,
    // An arXiv id given as an empty string is given: the DOI does not stand in for it.
    arxiv: (item.arxiv_id ?? arxivFromDoi) || undefined,
    pmid: item.pmid || undefined,
  };
}

/** Identifier keys of a paper: DOI, arXiv id (an arXiv DOI counts as its arXiv id) and PMID. */
export function identifierKeys(item: ProviderItem): string[] {
  const keys: string[] = [];
  const { doi, arxiv, pmid } = matchingIdentifiers(item);
  if (doi) keys.push(`doi:${doi}`);
  if (arxiv) keys.push(`arxiv:${arxiv}`);
  if (pmid) keys.push(`pmid:${pmid}`);
  return keys;
}

/** Printable ASCII: NFKD and NFC leave it as it is and it holds no marks, so normalising it skips those steps. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Lower-case ASCII words of letters and digits, one space between them: normalising gives them back as they are. */
const FOLDED_ASCII = /^(?:[a-z0-9]+(?: [a-z0-9]+)*)?$/;
/**
 * In lower-case ASCII, the runs of characters other than letters and digits that are not a single space (the
 * longest such run where one starts): replacing only those with a space gives what replacing every run gives,
 * with a match per punctuation mark instead of one per word.
 */
const ASCII_RUNS_TO_FOLD = /[^a-z0-9]{2,}|[^a-z0-9 ]/g;

/**
 * Marks dropped once a title is decomposed (NFKD): the combining diacritical marks (their blocks for letters,
 * supplements and symbols, and half marks), which are the accents of Latin, Greek and Cyrillic ("café" is "cafe"),
 * Hebrew's points and Arabic's short vowels (fathatan to sukun, and the dagger alif), which most text leaves
 * unwritten, so a pointed title and an unpointed one are one title, and variation selectors, which pick a glyph
 * (葛 and 葛󠄀 are one kanji; ❤️ is ❤). Every other mark is part of its letter and is composed back (NFC): kana's
 * voicing marks (デ is not テ), Hangul's jamo (한 is one letter, not three), the vowel signs and viramas of Indic and
 * Thai scripts (दिन, day, is not दान, a gift), and Arabic's hamza and madda. A class of code points, not a test of
 * the letter under each mark: titles with accents are common, and this keeps their cost what it was.
 */
const DROPPED_MARKS =
  /[\u0300-\u036f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u064b-\u0652\u0670\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f\u{e0100}-\u{e01ef}]/gu;
/**
 * Latin letters that NFKD leaves whole, which other indexes write as the letters they are read as, as they write
 * "café" as "cafe": German's ß as ss ("Straße", "Strasse"), the letters with a stroke or bar (Danish and Norwegian
 * ø, Polish ł, Croatian and Vietnamese đ, Maltese ħ, Sámi ŧ) as the letter under the stroke, Icelandic ð and þ
 * as d and th, and the ligatures æ and œ as ae and oe ("Encyclopædia", "cœur"). Turkish ı is a letter of its own
 * (ılık, lukewarm, is not ilik, marrow). Lower case only: titles are lowered before these are replaced.
 */
const LETTERS_WRITTEN_OTHERWISE: Readonly<Record<string, string>> = {
  ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ħ: 'h', ŧ: 't', ð: 'd', þ: 'th', æ: 'ae', œ: 'oe',
};
const LETTER_WRITTEN_OTHERWISE = new RegExp(`[${Object.keys(LETTERS_WRITTEN_OTHERWISE).join('')}]`, 'g');
/**
 * A Greek letter standing alone in a Latin title names a thing ("α-synuclein", "TNF-α", "amyloid β"), and other
 * indexes (PubMed among them) write its name instead: "alpha-synuclein", "TNF-alpha". Only a letter with no Greek
 * letter beside it: a Greek word is left as it is.
 */
const GREEK_LETTER_NAMES: Readonly<Record<string, string>> = {
  α: 'alpha', β: 'beta', γ: 'gamma', δ: 'delta', ε: 'epsilon', ζ: 'zeta', η: 'eta', θ: 'theta', ι: 'iota', κ: 'kappa',
  λ: 'lambda', μ: 'mu', ν: 'nu', ξ: 'xi', ο: 'omicron', π: 'pi', ρ: 'rho', σ: 'sigma', ς: 'sigma', τ: 'tau',
  υ: 'upsilon', φ: 'phi', χ: 'chi', ψ: 'psi', ω: 'omega',
};
const GREEK_LETTER_ALONE = /(?<!\p{Script=Greek})[α-ω](?!\p{Script=Greek})/gu;
/**
 * What separates words: runs of characters other than letters, marks and digits, with the marks that follow one
 * (a mark on an emoji or on punctuation), and marks that open a title; a mark on a letter stays in its word.
 */
const WORD_SEPARATORS = /(?:[^\p{L}\p{M}\p{N}]\p{M}*)+|^\p{M}+/gu;

/**
 * Lower case, accents and punctuation removed, letters NFKD leaves whole written as other indexes write them (ß as
 * ss, ø as o), white space folded: what title comparison sees. Titles are normalised for every paper result, so
 * the usual ones take shorter ways: a title already normalised is given back as it is, and printable ASCII without
 * a tag (whose letters and digits are `A-Za-z0-9`) skips Unicode normalisation, property classes and the letters
 * written otherwise, none of which it holds.
 */
export function normalizeTitle(title: string): string {
  if (FOLDED_ASCII.test(title)) return title;
  const ascii = PRINTABLE_ASCII.test(title);
  if (ascii && !title.includes('<')) return title.toLowerCase().replace(ASCII_RUNS_TO_FOLD, ' ').trim();
  const folded = ascii
    ? title.toLowerCase()
    : foldedLetters(title.normalize('NFKD').replace(DROPPED_MARKS, '').normalize('NFC').toLowerCase());
  // `[^<>]`, not `[^>]`: a title of many `<` and no `>` was read to its end from each of them (quadratic time).
  return folded.replace(/<[^<>]*>/g, ' ').replace(WORD_SEPARATORS, ' ').trim();
}

/** A lower-case title with LETTERS_WRITTEN_OTHERWISE and lone Greek letters (GREEK_LETTER_NAMES) written as other indexes write them. */
function foldedLetters(lowered: string): string {
  return lowered
    .replace(LETTER_WRITTEN_OTHERWISE, (letter) => LETTERS_WRITTEN_OTHERWISE[letter]!)
    .replace(GREEK_LETTER_ALONE, (letter) => GREEK_LETTER_NAMES[letter]!);
}

/**
 * Words a title may open with that say nothing of its subject ("a survey of", "on the", "towards"): skipped
 * when a title's head block is chosen, so that the many titles opening with them do not all share one block.
 */
export const TITLE_OPENING_WORDS: ReadonlySet<string> = new Set(['a', 'an', 'the', 'on', 'of', 'in', 'for', 'to', 'towards', 'toward', 'and', 'with', 'from', 'by', 'at', 'via', 'how', 'what', 'why', 'when']);

/**
 * Blocking keys: two near-identical titles almost always share their first or their last three words, so
 * only titles in the same block are compared, instead of every pair. The first three words are counted after
 * any opening words ("a survey of deep learning …" heads as "survey of deep"), unless fewer than three would
 * be left, and are read as their spellings share them (headBlockKey); a title of three words or fewer is its own
 * block. Found by looking for spaces (a normalised title has single spaces and no space at either end), without
 * splitting the title into words.
 */
export function titleBlocks(normalized: string): { head: number; tail: string } | { whole: string } {
  const thirdSpace = nthSpace(normalized, 3);
  if (thirdSpace < 0) return { whole: normalized };
  const thirdSpaceFromEnd = normalized.lastIndexOf(' ', normalized.lastIndexOf(' ', normalized.lastIndexOf(' ') - 1) - 1);
  return { head: headBlockKey(normalized, thirdSpace), tail: normalized.slice(thirdSpaceFromEnd + 1) };
}

/** Letters of a run of Latin letters that a head block reads: past them British and American spellings and other endings differ. */
const HEAD_RUN_LETTERS = 4;

/**
 * The head block of a title: its first three words after the opening words, or its first three (ending at
 * `thirdSpace`) when too few are left, read as their spellings share them, "ae" and "oe" as "e" and each run of
 * Latin letters cut to its first four ("optimisation of randomised" and "optimization of randomized" are both "opti
 * of rand", "paediatric" and "pediatric" both "pedi"). A title spelled otherwise at both ends shares no tail block
 * with its other spelling, and would otherwise never be compared with it. A hash of those letters (FNV-1a, cut to
 * 30 bits so that it stays a small integer), not a string: the key costs no copy, and two heads that share a hash
 * only share a block, whose titles are still compared one by one.
 */
function headBlockKey(normalized: string, thirdSpace: number): number {
  let start = 0;
  for (let end = normalized.indexOf(' '); end >= 0 && TITLE_OPENING_WORDS.has(normalized.slice(start, end)); end = normalized.indexOf(' ', start)) {
    start = end + 1;
  }
  let end = thirdSpace;
  if (start > 0) {
    const restThirdSpace = nthSpace(normalized, 3, start);
    // Exactly three words after the openings are the head; fewer, and the openings count after all.
    if (restThirdSpace >= 0) end = restThirdSpace;
    else if (nthSpace(normalized, 2, start) >= 0) end = normalized.length;
    else start = 0;
  }
  let hash = 0x811c9dc5;
  let run = 0;
  for (let index = start; index < end; index += 1) {
    const code = normalized.charCodeAt(index);
    // "ae" and "oe" are "e": the "a" or "o" is skipped, the "e" read next.
    if ((code === 0x61 || code === 0x6f) && normalized.charCodeAt(index + 1) === 0x65) continue;
    if (code >= 0x61 && code <= 0x7a) {
      run += 1;
      if (run > HEAD_RUN_LETTERS) continue;
    } else run = 0;
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  return hash & 0x3fffffff;
}

/** The position of the `count`th space at or after `from`, or -1. */
function nthSpace(text: string, count: number, from = 0): number {
  let position = from - 1;
  for (let found = 0; found < count; found += 1) {
    position = text.indexOf(' ', position + 1);
    if (position < 0) return -1;
  }
  return position;
}

export function yearsCompatible(a: number | undefined, b: number | undefined): boolean {
  return a === undefined || b === undefined || Math.abs(a - b) <= YEAR_TOLERANCE;
}

/**
 * Openings of a normalised title that make it a notice about another work rather than the work: an erratum, a
 * correction, a retraction, a comment or a reply carries its own DOI and the title of the work it names, so by
 * its bigrams it is that work. An opening counts only as whole words: "commentary" is not "comment".
 */
const NOTICE_OPENINGS: readonly string[] = [
  'erratum', 'errata', 'corrigendum', 'corrigenda', 'correction', 'author correction', 'publisher correction',
  'retraction', 'retracted', 'notice of retraction', 'expression of concern', 'editorial expression of concern',
  'withdrawal', 'withdrawn', 'addendum', 'addenda', 'comments', 'comment', 'commentary', 'reply', 'replies', 'response to',
  // A statistics journal's discussion paper is followed by its author's "Rejoinder: …" (Statistical Science, JASA), and
  // a journal's note on an article of its own is an "Editor's note: …".
  'rejoinder', 'editor s note', 'editors note', 'editorial note',
  // "Author's reply" normalises to "author s reply"; "Authors' reply" to "authors reply".
  'author s reply', 'authors reply', 'author reply', 'author s response', 'authors response', 'author response',
  // The forms journals give a comment or a reply that repeats the title it answers: "In reply: …" (JAMA), "Letter: …"
  // (Alimentary Pharmacology & Therapeutics), "Discussion: …" (Plastic and Reconstructive Surgery), "Rebuttal: …".
  'in reply', 'in response', 'rebuttal', 'letter', 'discussion', 'correspondence',
];
const NOTICE_OPENING = new RegExp(`^(?:${NOTICE_OPENINGS.join('|')})(?= |$)`);
/** Each opening's kind, counted from 1: 0 is "not a notice". */
const NOTICE_KIND_OF_OPENING = new Map(NOTICE_OPENINGS.map((opening, index) => [opening, index + 1]));
/**
 * "Re: …", the comments a journal prints on another's article (The Journal of Urology, BMJ's responses), read from the
 * title as given: normalised, "Re-evaluation of …" opens with the same word, and is research.
 */
const REGARDING = /^[^\p{L}\p{N}]*re\s*:/iu;
/** The kind after the openings'. Paper grouping keeps a title's kind in a byte (kind × 2 + 1): room for 63 kinds. */
const REGARDING_KIND = NOTICE_OPENINGS.length + 1;
/**
 * Openings that begin research titles too: "Correction of scoliosis…", "Response to drought stress…", "Withdrawal
 * of antidepressants…". A title so opened is still of its kind (never one work with a title of another), but only
 * what follows the opening shows it to be a notice: "correction to", "response to comment(s)", "response to the
 * letter", or a quotation mark opening the title named.
 */
const OPENINGS_OF_RESEARCH_TOO: ReadonlySet<string> = new Set([
  'correction', 'response to', 'withdrawal', 'withdrawn',
  // "In response to drought…", "Letter recognition in…", "Discussion on the stability of…", "Correspondence analysis of…".
  'in response', 'letter', 'discussion', 'correspondence',
]);
/**
 * Notices that name their kind after the title instead of before it, as Cambridge journals do ("… – CORRIGENDUM",
 * "… – ERRATUM", "… – ADDENDUM"), each of the kind of the same opening. A research title can end with the word too
 * ("On the evolution of printing errata"), as part of its last phrase: the notice sets it apart, which is read from the
 * title as given (closingSetApart), normalised titles having lost their dashes and colons.
 */
const NOTICE_CLOSING = / (erratum|errata|corrigendum|corrigenda|addendum|addenda)$/;
/**
 * The closing word after a dash (spaced, as a hyphen joining words is not), an en or em dash, a colon, or in brackets.
 * A dash is also written as two hyphens or more (`--`, `---`: plain text's and TeX's dashes, in titles taken from them)
 * or as a spaced minus sign (U+2212, typeset titles; unspaced, it may be a hyphen typeset as one: "glosses−addenda"),
 * and a colon and brackets as their full-width forms (U+FF1A `：`, `（）`, `［］`, and the lenticular `【】`: titles set in CJK fonts).
 */
const CLOSING_SET_APART = /(?:\s[-\u2010-\u2015\u2212]|-{2}|[:\uFF1A\u2013\u2014(\[\uFF08\uFF3B\u3010])\s*(?:erratum|errata|corrigendum|corrigenda|addendum|addenda)\s*[)\]\uFF09\uFF3D\u3011]?[\s.]*$/i;
/**
 * The closing word as a sentence of its own ("… in mice. Erratum"), capitalised as a sentence opens. The full stop of
 * an abbreviation ends no sentence: "… misprints vs. errata" is a research title.
 */
const CLOSING_SENTENCE = /(?<!(?:^|[^\p{L}])(?:[Vv]s|[Cc]f|[Vv]iz|[Ee]tc|al|[Ee]\.g|[Ii]\.e))\.\s+(?:Errat(?:um|a)|Corrigend(?:um|a)|Addend(?:um|a)|ERRAT(?:UM|A)|CORRIGEND(?:UM|A)|ADDEND(?:UM|A))[\s.]*$/u;
/**
 * The closing word in capitals after a title that is not ("… in mice ERRATUM", the dash lost): the capitals set it
 * apart. A title all in capitals sets nothing apart so ("… OF PRINTING ERRATA" is research), nor does one in title case.
 * The title before the word is looked at apart (LOWER_CASE_LETTER): one pattern reading both would backtrack over the
 * whole title from each of its lower-case letters where the closing fails to match (a hostile title ending `ERRATUM )`).
 */
const CLOSING_IN_CAPITALS = /\s(?:ERRATUM|ERRATA|CORRIGENDUM|CORRIGENDA|ADDENDUM|ADDENDA)[\s.]*$/;
const LOWER_CASE_LETTER = /\p{Ll}/u;
const NOTICE_FOLLOW_UP = /^(?:correction to|response to (?:the )?(?:comments?|commentary|letter|reply))(?= |$)/;
const QUOTE_AFTER_OPENING = /^[^\p{L}\p{N}]*[\p{L}\p{N}]+(?: to)?[\s:]*["“”„«‘’']/iu;
/**
 * "Data from: …" and "… (dataset)": how Dryad and other repositories name the dataset of a paper, the paper's title
 * in it. The data and the paper are two works. Read from the title as given: normalised, "Data from the Framingham
 * study …" opens with the same words, and is research.
 */
const DATA_FROM = /^[^\p{L}\p{N}]*data from\s*:/iu;
const DATASET_CLOSING = /\(\s*data\s?set\s*\)[\s.]*$/i;
/** The last kind: a dataset, which no opening or closing word names. */
const DATASET_KIND = NOTICE_OPENINGS.length + 2;
/**
 * Notices known only by their signs, read from the title as given: "Response: …" (normalised, "Response of maize
 * to …" opens with the same word), "…: a reply" and "… [Retraction]" ("Eyelid retraction in …" ends with the same
 * word). Each is of the kind of the opening that names it.
 */
const RESPONSE = /^[^\p{L}\p{N}]*response\s*:/iu;
const A_REPLY = /:\s*a reply[\s.]*$/i;
const RETRACTION_CLOSING = /\[\s*retraction\s*\][\s.]*$/i;
/** What every one of those signs holds: a title without any (most) is read by none of them. */
const SIGN = /[:([]/;

/** A title's notice kind (0: none), and whether it is plainly a notice about another work (a comment, an erratum). */
export interface Notice {
  kind: number;
  certain: boolean;
}

/**
 * The kind of notice a title is (a number for each of NOTICE_OPENINGS, then REGARDING's, then DATASET's; 0 when it is none), read from its
 * normalised form (its opening, or a closing word: NOTICE_CLOSING) or from its signs (signedNoticeKind), and whether it is certainly a notice (OPENINGS_OF_RESEARCH_TOO), read from the title as given
 * where the normalised one has lost its quotation marks. A notice never merges by title with a title of another
 * kind, the work it names included; two certain notices of one kind merge by title only as generic titles do
 * (weak-titles.ts): two comments on one paper by different authors are two comments.
 */
export function titleNotice(title: string, normalized: string): Notice {
  const opening = NOTICE_OPENING.exec(normalized);
  if (opening === null) {
    if (REGARDING.test(title)) return { kind: REGARDING_KIND, certain: true };
    const closing = NOTICE_CLOSING.exec(normalized);
    if (closing !== null && closingSetApart(title)) return { kind: NOTICE_KIND_OF_OPENING.get(closing[1]!)!, certain: true };
    const kind = signedNoticeKind(title);
    return { kind, certain: kind !== 0 };
  }
  const kind = NOTICE_KIND_OF_OPENING.get(opening[0])!;
  if (!OPENINGS_OF_RESEARCH_TOO.has(opening[0])) return { kind, certain: true };
  return { kind, certain: NOTICE_FOLLOW_UP.test(normalized) || QUOTE_AFTER_OPENING.test(title) };
}

/** Whether a title's closing notice word (NOTICE_CLOSING) is set apart from the title, as a notice's is. */
function closingSetApart(title: string): boolean {
  if (CLOSING_SET_APART.test(title) || CLOSING_SENTENCE.test(title)) return true;
  const capitals = CLOSING_IN_CAPITALS.exec(title);
  return capitals !== null && LOWER_CASE_LETTER.test(title.slice(0, capitals.index));
}

/**
 * The kind of a notice known by its signs (DATA_FROM, DATASET_CLOSING, RESPONSE, A_REPLY, RETRACTION_CLOSING); 0 for
 * none. Each sign holds a `:`, a `(` or a `[` (SIGN): a title with none of them (most) is not read by any pattern, each
 * of which is tried for every title a merge compares.
 */
function signedNoticeKind(title: string): number {
  if (!SIGN.test(title)) return 0;
  if (title.includes(':')) {
    if (DATA_FROM.test(title)) return DATASET_KIND;
    if (RESPONSE.test(title)) return NOTICE_KIND_OF_OPENING.get('response to')!;
    if (A_REPLY.test(title)) return NOTICE_KIND_OF_OPENING.get('reply')!;
  }
  if (title.includes('(') && DATASET_CLOSING.test(title)) return DATASET_KIND;
  if (title.includes('[') && RETRACTION_CLOSING.test(title)) return NOTICE_KIND_OF_OPENING.get('retraction')!;
  return 0;
}

/**
 * The bigrams of a text without its white space, each two UTF-16 code units as one number, sorted: what the
 * Dice coefficient counts (as string-similarity's compareTwoStrings counts it), computed once per title
 * instead of once per comparison.
 */
export function titleBigrams(text: string): Uint32Array {
  const letters = text.replace(/\s+/g, '');
  const bigrams = new Uint32Array(Math.max(letters.length - 1, 0));
  for (let index = 0; index < bigrams.length; index += 1) {
    bigrams[index] = letters.charCodeAt(index) * 0x10000 + letters.charCodeAt(index + 1);
  }
  return bigrams.sort();
}

/**
 * titleBigrams of a normalised title, without making the title's copy without spaces: its only white space is
 * the single spaces between words, which are skipped (the bigram across a space joins the letters either side).
 */
export function normalizedTitleBigrams(normalized: string): Uint32Array {
  const bigrams = new Uint32Array(normalizedTitleBigramCount(normalized));
  let previous = -1;
  let count = 0;
  for (let index = 0; index < normalized.length; index += 1) {
    const code = normalized.charCodeAt(index);
    if (code === 0x20) continue;
    if (previous >= 0) bigrams[count++] = previous * 0x10000 + code;
    previous = code;
  }
  return bigrams.sort();
}

/**
 * Whether two titles name the same paper: the same normalised title, or titles of 8 characters or more whose
 * Dice coefficient (2 × shared bigrams / all bigrams) reaches the threshold. `bigramsOf` gives each title's
 * titleBigrams, so a caller comparing one title many times computes them once; a caller that knows how many
 * bigrams each title has (`countA`, `countB`) spares finding them for a pair whose counts alone rule it out.
 */
export function titlesSimilar(
  a: string,
  b: string,
  bigramsOf: (title: string) => Uint32Array = titleBigrams,
  countA?: number,
  countB?: number,
): boolean {
  if (a === b) return true;
  // Dice needs at least 2 characters on both sides; very short titles only match exactly.
  if (a.length < 8 || b.length < 8) return false;
  const firstCount = countA ?? bigramsOf(a).length;
  const secondCount = countB ?? bigramsOf(b).length;
  // Fewer than 2 characters once white space is gone: only the same characters match.
  if (firstCount === 0 || secondCount === 0) return a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
  // Shared bigrams are at most the smaller count: when even that falls short, no need to count them.
  if ((2.0 * Math.min(firstCount, secondCount)) / (firstCount + secondCount) < TITLE_SIMILARITY_THRESHOLD) return false;
  return (2.0 * sharedBigrams(bigramsOf(a), bigramsOf(b))) / (firstCount + secondCount) >= TITLE_SIMILARITY_THRESHOLD;
}

/**
 * How many bigrams titleBigrams finds in a normalised title, without finding them: its only white space is the
 * single spaces between words (letters and digits are never white space).
 */
export function normalizedTitleBigramCount(normalized: string): number {
  let spaces = 0;
  for (let index = normalized.indexOf(' '); index >= 0; index = normalized.indexOf(' ', index + 1)) spaces += 1;
  return Math.max(normalized.length - spaces - 1, 0);
}

/** The size of the multiset intersection of two sorted bigram lists, in one walk over both. */
function sharedBigrams(first: Uint32Array, second: Uint32Array): number {
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < first.length && j < second.length) {
    const a = first[i]!;
    const b = second[j]!;
    if (a === b) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (a < b) i += 1;
    else j += 1;
  }
  return shared;
}

export { MAX_COMPARISONS_PER_TITLE };
