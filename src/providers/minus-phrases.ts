import { excludableGroupEnd } from '../domain/excludable-term.js';
import { OPERATOR_IN_FORMULA, formulaEnd } from './query-groups.js';

/**
 * A closed text's formulas and minus numbers as phrases, for an API whose only operator is `-` (YouTube, Hacker News),
 * before minusSyntax writes its exclusions:
 * - an excluded formula (`-f(x)`, `NOT f(x)`, `-f(g(x))`) is excluded whole, as a phrase (`-"f(x)"`, `NOT "f(x)"`):
 *   left as typed, `-f(x)` excluded only `f` (the `(x)` was a word to find), and `NOT f(x)` was split into `-f x`;
 * - a `-` before what no reader excludes (`-40`, `-(-40)`, `-(x+1)`: a number or a formula, a word to find) is quoted
 *   with it (`"-40"`): both APIs read a `-` that starts a word as their exclusion (YouTube's Boolean NOT, Algolia's
 *   prohibit operator), so `aa -40` asked for no 40, as `aa NOT 40` does; inside quotes Algolia documents the `-` as
 *   no operator, and neither reads parentheses outside one.
 * A `NOT -40` is left as typed: minusSyntax leaves it out, as no `-` can exclude a minus number; so is an excluded
 * group (`NOT (…)`, `-(a OR b)`), whole, for minusSyntax to write. A formula holding a quote or an operator word
 * (`-(2024 OR 2025)`) cannot be quoted and is left as typed, for minusQueryProblem to skip the API for. The text itself when it holds no `-` or `(` (nearly every text).
 */
export function formulasAsPhrases(text: string, notRead: boolean): string {
  if (!text.includes('-') && !text.includes('(')) return text;
  let written = '';
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    if (character === '"') {
      const close = text.indexOf('"', index + 1);
      const end = close < 0 ? text.length : close + 1;
      written += text.slice(index, end);
      index = end;
    } else if (character === '(' || character === ')' || /\s/.test(character)) {
      written += character;
      index += 1;
    } else {
      const [term, end] = termAt(text, index, notRead);
      written += term;
      index = end;
    }
  }
  return written;
}

/** The term that starts at `start` (with a NOT before it), as formulasAsPhrases writes it, and where it ends. */
function termAt(text: string, start: number, notRead: boolean): [string, number] {
  if (notRead && text.startsWith('NOT', start) && /\s/.test(text[start + 3] ?? '')) {
    let after = start + 3;
    while (after < text.length && /\s/.test(text[after]!)) after += 1;
    // `NOT "a phrase"` is for minusSyntax to read, and so is `NOT (…)`, whole: a minus number in it is left out with it.
    if (text[after] === '"' || after === text.length) return [text.slice(start, after), after];
    if (text[after] === '(') {
      const end = formulaEnd(text, after);
      return [text.slice(start, end), end];
    }
    const end = wordEnd(text, after);
    // `NOT -40` stays for minusSyntax to leave out, as no `-` can exclude a minus number.
    if (text[after] === '-') return [text.slice(start, end), end];
    const word = text.slice(after, end);
    return [`${text.slice(start, after)}${isFormula(word) ? `"${word}"` : word}`, end];
  }
  if (text[start] === '-' && start + 1 < text.length) {
    const next = text[start + 1]!;
    // `-(a OR b)`: an excluded group, written by minusSyntax, whole.
    const groupEnd = next === '(' ? excludableGroupEnd(text, start + 1) : -1;
    if (groupEnd !== -1) return [text.slice(start, groupEnd), groupEnd];
    if (/["\s-]/.test(next)) return ['-', start + 1];
    const end = wordEnd(text, start + 1);
    const word = text.slice(start + 1, end);
    if (word === '') return ['-', end];
    if (/^\p{L}/u.test(word)) return [isFormula(word) ? `-"${word}"` : `-${word}`, end];
    return [quotable(word) ? `"-${word}"` : `-${word}`, end];
  }
  const end = wordEnd(text, start);
  return [text.slice(start, end), end];
}

/** Where a word from `start` ends: at a space, a quote or a `)` closing a group; a `(` glued to it runs to its `)`. */
function wordEnd(text: string, start: number): number {
  let index = start;
  while (index < text.length) {
    const character = text[index]!;
    if (character === '(') index = formulaEnd(text, index);
    else if (character === ')' || character === '"' || /\s/.test(character)) return index;
    else index += 1;
  }
  return index;
}

/** A word holding a `(` (glued to what is before it: a formula) that a phrase can hold (quotable). */
function isFormula(word: string): boolean {
  return word.includes('(') && quotable(word);
}

/**
 * Whether a word reads the same quoted: not when it holds a quote, which would end the phrase, nor an operator word
 * (`-(2024 OR 2025)`, `f(a OR b)`), a group of alternatives whose OR, inside quotes, would be a word of the phrase to find.
 */
function quotable(word: string): boolean {
  return !word.includes('"') && !OPERATOR_IN_FORMULA.test(word);
}
