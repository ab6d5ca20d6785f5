/**
 * Where a term that a `-` excludes ends, as the readers of excluded terms read one (excluded-terms.ts MINUS): a word
 * starting with a letter, a phrase, or a group whose first term is one (or a `-` or NOT before one, or a group of one)
 * and that holds no formula (`-(x+1)`). What closing a text (closed-query.ts) may write as a `-` term, or read as one.
 */

/**
 * A term: a phrase (closed, or running to the end), or a word. A pattern, shared: double-negation.ts reads terms and
 * tokens with instances of its own, whose lastIndex its loop keeps while it calls into this file.
 */
export const TERM_PATTERN = String.raw`"[^"]*"?|[^\s()"]+`;
const TERM = new RegExp(TERM_PATTERN, 'y');
/** What a `-` excludes before: a letter or a phrase, not a number (`-40`). */
const EXCLUDABLE_START = /^["\p{L}]/u;
/** A word that is an operator when upper case. */
export const OPERATOR_WORD = /^(?:AND|OR|NOT)$/;
/** What follows inside a group, at its own level: spaces, a phrase, a parenthesis, or a word (shared as TERM_PATTERN is). */
export const TOKEN_PATTERN = String.raw`\s+|"[^"]*"?|[()]|[^\s()"]+`;
const GROUP_TOKEN = new RegExp(TOKEN_PATTERN, 'y');
/** An upper-case AND, OR or NOT standing as an operator (not inside a word); for replace() only, which resets lastIndex. */
export const OPERATOR_WORDS = /(?<![^\s(])(?:AND|OR|NOT)(?![^\s)])/g;
/**
 * A group's content that a `-` before it excludes: its first term a word (no operator) or a phrase, or a `-` or NOT
 * before one, or a NOT before a word a `-` cannot exclude (`-(NOT 40 bb)`, as excluded-terms.ts MINUS reads it too),
 * or a group that starts so, excluded or not (`-(-mice)`, `-((mice))`, `-(-(mice))`, `-(NOT (mice))`), and
 * no formula's characters in it. Closing leaves none of the `-` or NOT inside such a group for excluded-terms.ts MINUS
 * to read: it writes a NOT that opens a group as a `-` term, or cancels it with the `-` before the group, and moves a
 * term excluded twice out of its group, to be asked for (double-negation.ts). Read as no term, `NOT (-(-x))` asked for
 * x, excluded three times, and `aa (NOT (-aa) bb)` had its NOT moved before the whole group, which excluded bb. Its
 * start is tested first, before the group's end is looked for (`NOT (NOT (NOT (…` looks for none).
 */
const EXCLUDABLE_GROUP_START =
  /\s*(?:(?:-|NOT\s+)?\(\s*)*(?:(?:-|NOT\s+(?!(?:AND|OR|NOT)(?![^\s)]))|(?!(?:AND|OR|NOT)(?![^\s)])))["\p{L}]|NOT\s+-?[^\s()"\p{L}-])/uy;
/**
 * A formula's character, outside a phrase: `=`, `<`, `>`, `^`, or a `+` between letters or digits (`x+1`), as
 * excluded-terms.ts MINUS reads one; `c++` and `c++11` are words (`-(c++ OR java)` excludes). Any `+` read as one had
 * YouTube and Hacker News sent `"-(c++ OR java)"`, a phrase to find, where every other reader excluded both.
 */
const FORMULA_CHARACTER = /[=<>^]|(?<=[\p{L}\p{N}])\+(?=[\p{L}\p{N}])/u;

/** Where a word or phrase (from `start`) that a `-` excludes ends; -1 for a number or an operator word. */
export function excludableTermEnd(text: string, start: number): number {
  TERM.lastIndex = start;
  const term = TERM.exec(text)?.[0];
  return term === undefined || !EXCLUDABLE_START.test(term) || OPERATOR_WORD.test(term) ? -1 : start + term.length;
}

/** Where a group (from its `(`) that a `-` excludes ends, past its `)` or at the end of the text; -1 for another. */
export function excludableGroupEnd(text: string, start: number): number {
  EXCLUDABLE_GROUP_START.lastIndex = start + 1;
  if (!EXCLUDABLE_GROUP_START.test(text)) return -1;
  let depth = 0;
  let formula = false;
  GROUP_TOKEN.lastIndex = start;
  for (let token = GROUP_TOKEN.exec(text); token !== null; token = GROUP_TOKEN.exec(text)) {
    const value = token[0];
    if (value === '(') depth += 1;
    else if (value === ')') depth -= 1;
    else if (!formula && !value.startsWith('"')) formula = FORMULA_CHARACTER.test(value);
    if (depth === 0) return formula ? -1 : GROUP_TOKEN.lastIndex;
  }
  return formula ? -1 : text.length;
}

/** Where an excludable term starting at `start` (a word, a phrase, or a group) ends; -1 for none. */
export function excludableEnd(text: string, start: number): number {
  return text[start] === '(' ? excludableGroupEnd(text, start) : excludableTermEnd(text, start);
}
