import type { ProviderItem } from '../domain/result.js';
import { normalizeTitle } from './paper-identity.js';

/**
 * Titles of three words or more that front matter, back matter and chapters carry in every journal and book
 * (normalised); shorter ones, "Editorial", "Introduction", "Book reviews", are weak by their length alone
 * (SHORT_TITLE_WORDS). Crossref, OpenAlex and Semantic Scholar return thousands of works so titled, so two of them
 * alike by title are not thereby one work.
 */
const GENERIC_TITLES: ReadonlySet<string> = new Set([
  'in this issue', 'table of contents', 'list of reviewers',
  'thank you to our reviewers', 'acknowledgement of reviewers', 'acknowledgment of reviewers', 'notes on contributors',
  'about the authors', 'call for papers', 'from the editor', 'from the editors', 'editor s note', 'a note from the editor',
  'introduction to the special issue', 'introduction to this special issue', 'guest editors introduction',
  'guest editor s introduction', 'concluding remarks and outlook',
  // Front and back matter of three words or more (shorter ones, "Masthead", "Cover image", are short already).
  'news in brief', 'instructions for authors', 'instructions to authors', 'information for authors', 'guide for authors',
  'inside front cover', 'inside back cover', 'outside front cover', 'outside back cover',
]);

/** Openings of titles that many works share whatever follows: reviews of one book, letters about one article. */
const GENERIC_OPENINGS = ['book review', 'book reviews', 'letter to the editor', 'letters to the editor'];
const GENERIC_OPENING = new RegExp(`^(?:${GENERIC_OPENINGS.join('|')})(?= |$)`);
/** Their first letters: a long title that opens otherwise is not matched against GENERIC_OPENING. */
const GENERIC_OPENING_LETTERS = [...new Set(GENERIC_OPENINGS.map((opening) => opening.charCodeAt(0)))];

/** Words that, before a number, number a part of a journal or book ("Chapter 3", "Volume 12 Issue 4"): they make a title no less generic. */
const NUMBERING_WORDS: readonly string[] = ['chapter', 'part', 'section', 'volume', 'vol', 'issue', 'no', 'number'];
/** Titles of this many words or fewer (once numbering is gone) name many works: "Deep learning", "Transformers". */
const SHORT_TITLE_WORDS = 2;
/** Past this many words other than numbering, a title is neither short nor one of GENERIC_TITLES. */
const LONGEST_GENERIC_WORDS = Math.max(SHORT_TITLE_WORDS, ...[...GENERIC_TITLES].map((title) => title.split(' ').length));
/**
 * Past this many characters a title is taken as neither short nor generic, and its words are not read: the
 * longest of GENERIC_TITLES has 34, which leaves room for numbering ("volume 12 issue 3 thank you to our
 * reviewers" has 44), and two words are seldom so long. Most titles are longer, and cost one comparison.
 */
const LONGEST_WEAK_TITLE = 48;

/** What a title match alone says of two papers (titleStrength). */
export const STRONG_TITLE = 0;
export const WEAK_TITLE = 1;
export const EXACT_ONLY_TITLE = 2;
export type TitleStrength = typeof STRONG_TITLE | typeof WEAK_TITLE | typeof EXACT_ONLY_TITLE;

/**
 * Chinese, Japanese, Thai, Lao, Khmer and Burmese: scripts written without spaces between words (Thai and its
 * neighbours space phrases, not words). Such a title is one "word" to isWeakTitle, or a few, and one word more or
 * less ("…研究" and "…研究综述", a study and a survey of it) changes few of its bigrams, yet names another work.
 */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** An unspaced title shorter than this is short ("目录", "编者按", "投稿须知", "巻頭言"), as titlesSimilar's shortest. */
const SHORTEST_UNSPACED_TITLE = 8;

/**
 * Whether a normalised title alone makes two papers one work: a strong title does when it is similar to the other
 * (Dice), a weak one (isWeakTitle, or an unspaced title of fewer than SHORTEST_UNSPACED_TITLE characters) never
 * does, and any other title in Chinese or Japanese does only when the two titles are the same.
 */
export function titleStrength(normalized: string): TitleStrength {
  if (UNSPACED_SCRIPT.test(normalized)) return normalized.length < SHORTEST_UNSPACED_TITLE ? WEAK_TITLE : EXACT_ONLY_TITLE;
  return isWeakTitle(normalized) ? WEAK_TITLE : STRONG_TITLE;
}

/**
 * Whether a normalised title is too generic or too short for a title match alone to make two papers one work:
 * a GENERIC_OPENING, or once numbering words are gone, one of GENERIC_TITLES or at most SHORT_TITLE_WORDS words.
 * Asked of every title that matches another, so the usual one is settled by its length or by its first words.
 */
export function isWeakTitle(normalized: string): boolean {
  if (normalized.length > LONGEST_WEAK_TITLE) return GENERIC_OPENING_LETTERS.includes(normalized.charCodeAt(0)) && GENERIC_OPENING.test(normalized);
  if (GENERIC_OPENING.test(normalized)) return true;
  let words = 0;
  let numbered = false;
  for (let start = 0; start < normalized.length; ) {
    const end = wordEnd(normalized, start);
    if (isNumbering(normalized, start, end)) numbered = true;
    else if (++words > LONGEST_GENERIC_WORDS) return false;
    start = end + 1;
  }
  if (words <= SHORT_TITLE_WORDS) return true;
  return GENERIC_TITLES.has(numbered ? withoutNumbering(normalized) : normalized);
}

/** A normalised title without its numbering words; only a numbered title is copied. */
function withoutNumbering(normalized: string): string {
  const words: string[] = [];
  for (let start = 0; start < normalized.length; ) {
    const end = wordEnd(normalized, start);
    if (!isNumbering(normalized, start, end)) words.push(normalized.slice(start, end));
    start = end + 1;
  }
  return words.join(' ');
}

/** Where the word starting at `start` ends: the next space, or the end of the title. */
function wordEnd(title: string, start: number): number {
  const space = title.indexOf(' ', start);
  return space < 0 ? title.length : space;
}

/**
 * Whether the word from `start` to `end` numbers a part: a number, or one of NUMBERING_WORDS followed by a number
 * ("issue 3", not the "issue" of "in this issue"). Read in place: the title is not cut into words.
 */
function isNumbering(title: string, start: number, end: number): boolean {
  if (isNumber(title, start, end)) return true;
  if (end >= title.length) return false;
  const length = end - start;
  if (!NUMBERING_WORDS.some((word) => word.length === length && title.startsWith(word, start))) return false;
  return isNumber(title, end + 1, wordEnd(title, end + 1));
}

/** ASCII digits, or a roman numeral as sameTitleNumbers reads one (i, v and x). */
function isNumber(title: string, start: number, end: number): boolean {
  let digits = true;
  let roman = true;
  for (let index = start; index < end && (digits || roman); index += 1) {
    const code = title.charCodeAt(index);
    if (code < 0x30 || code > 0x39) digits = false;
    if (code !== 0x69 && code !== 0x76 && code !== 0x78) roman = false;
  }
  return digits || roman;
}

/**
 * Whether two papers whose weak titles match agree on more than the title. Authors, when both list them, decide:
 * one family name in common, or two works (two editorials of one journal by different editors). Otherwise the
 * same venue in the same year does: a venue alone is shared by every issue's "Editorial", and neither alone is
 * agreement at all.
 */
export function agreeBeyondTitle(a: ProviderItem, b: ProviderItem): boolean {
  if (a.authors !== undefined && a.authors.length > 0 && b.authors !== undefined && b.authors.length > 0) return shareFamilyName(a.authors, b.authors);
  if (a.year === undefined || a.year !== b.year || a.venue === undefined || b.venue === undefined) return false;
  const venue = normalizeTitle(a.venue);
  return venue !== '' && venue === normalizeTitle(b.venue);
}

/** Names are given "given family" by every paper adapter; the family name is what indexes spell alike. */
function shareFamilyName(first: string[], second: string[]): boolean {
  const families = new Set(first.map(familyName));
  families.delete('');
  return second.some((name) => families.has(familyName(name)));
}

function familyName(name: string): string {
  const normalized = normalizeTitle(name);
  return normalized.slice(normalized.lastIndexOf(' ') + 1);
}
