import { OPERATOR_WORDS, TERM_PATTERN, TOKEN_PATTERN, excludableEnd } from './excludable-term.js';

/**
 * A term excluded inside an excluded group (`a NOT (b OR NOT c)`, `a -(b OR -c)`, `a NOT (NOT c)`) is excluded twice:
 * NOT of NOT c asks for c, as De Morgan reads it (`a NOT (b OR NOT c)` is `a AND NOT b AND c`). Every reader of excluded
 * terms takes the words of an excluded group for excluded each, and PubMed's and OpenAlex's is sent its inner `OR NOT c`
 * as one more exclusion: each excluded c, the very word the caller asked for. Such a term is moved after its group, as
 * a term to find (`a NOT (b) c`); a group it leaves with no term goes with its NOT (`a NOT (NOT c)` is `a c`). A term
 * excluded three times (inside two excluded groups) is excluded, once moved out of the outer one: `a NOT (b OR NOT (c OR
 * NOT d))` is `a NOT (b) (c OR NOT d)`.
 */

/** Whether a text may hold an excluded group: the one test most texts get. */
const MAY_HOLD_EXCLUDED_GROUP = /(?:NOT\s+|-)\(/;
/** Spaces, a phrase, a parenthesis, or a word (its own instance: its lastIndex is this reader's alone). */
const TOKEN = new RegExp(TOKEN_PATTERN, 'y');
/** A term after a NOT: a phrase, or a word. */
const TERM = new RegExp(TERM_PATTERN, 'y');
const TERM_CHARACTER = /[^\s()]/;

/** The outermost excluded group open: where its NOT or `-` starts, where its `(` is, and what is moved out of it. */
interface ExcludedGroup {
  start: number;
  open: number;
  removed: Array<[number, number]>;
  moved: string[];
}

/**
 * The text (closed: balanced, its phrases closed) with each term excluded inside an excluded group moved after that
 * group as a term to find; undefined when it has none (nearly every text: one test).
 */
export function withDoubleNegationsWanted(text: string): string | undefined {
  if (!MAY_HOLD_EXCLUDED_GROUP.test(text)) return undefined;
  const edits: Array<[number, number, string]> = [];
  // Each open group, whether it is excluded; how many of them are; where the NOT or `-` of a group to open starts.
  const groups: boolean[] = [];
  let excludedDepth = 0;
  let outer: ExcludedGroup | undefined;
  let notAt = -1;
  let excludedGroupAt = -1;
  let excludedGroupStart = -1;
  TOKEN.lastIndex = 0;
  for (let token = TOKEN.exec(text); token !== null; token = TOKEN.exec(text)) {
    const value = token[0];
    const at = token.index;
    if (/^\s/.test(value)) continue;
    if (value === 'NOT' && /\s/.test(text[at + 3] ?? '')) {
      notAt = at;
      continue;
    }
    const start = notAt >= 0 ? notAt : value.startsWith('-') && (at === 0 || /[\s(]/.test(text[at - 1]!)) ? at : -1;
    notAt = -1;
    if (start >= 0) {
      const termStart = start === at ? at + 1 : at;
      const termEnd = start === at ? excludableEnd(text, termStart) : notTermEnd(text, termStart);
      if (termEnd > termStart && excludedDepth === 1 && outer !== undefined) {
        outer.removed.push([start, termEnd]);
        outer.moved.push(text.slice(termStart, termEnd));
        TOKEN.lastIndex = termEnd;
        continue;
      }
      if (termEnd > termStart && text[termStart] === '(') {
        excludedGroupAt = termStart;
        excludedGroupStart = start;
      }
    }
    if (value === '(') {
      const excluded = at === excludedGroupAt;
      groups.push(excluded);
      if (excluded && excludedDepth++ === 0) outer = { start: excludedGroupStart, open: at, removed: [], moved: [] };
    } else if (value === ')' && groups.pop() === true && --excludedDepth === 0 && outer !== undefined) {
      if (outer.moved.length > 0) edits.push(...groupEdits(text, outer, at));
      outer = undefined;
    }
  }
  return edits.length === 0 ? undefined : edited(text, edits);
}

/** Where the term of a NOT (from `start`) ends: a group past its `)`, a phrase or a word. */
function notTermEnd(text: string, start: number): number {
  if (text[start] !== '(') {
    TERM.lastIndex = start;
    return TERM.test(text) ? TERM.lastIndex : -1;
  }
  let depth = 0;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (character === '"') index = text.indexOf('"', index + 1) < 0 ? text.length : text.indexOf('"', index + 1);
    else if (character === '(') depth += 1;
    else if (character === ')' && --depth === 0) return index + 1;
  }
  return text.length;
}

/** The edits for an excluded group (closed at `close`): its terms moved after it, or, where none is left, in its place. */
function groupEdits(text: string, group: ExcludedGroup, close: number): Array<[number, number, string]> {
  let left = '';
  let from = group.open + 1;
  for (const [start, end] of group.removed) {
    left += text.slice(from, start);
    from = end;
  }
  left += text.slice(from, close);
  const wanted = group.moved.join(' ');
  // Spaced from a word glued to the group's `)` (`a NOT (NOT x)y`, `a -(b -x)y`): the term joined it (`a xy`).
  const after = close + 1 < text.length && !/[\s)]/.test(text[close + 1]!) ? ' ' : '';
  if (!TERM_CHARACTER.test(left.replace(OPERATOR_WORDS, ' '))) {
    const before = group.start > 0 && !/[\s(]/.test(text[group.start - 1]!) ? ' ' : '';
    return [[group.start, close + 1, `${before}${wanted}${after}`]];
  }
  return [...group.removed.map(([start, end]): [number, number, string] => [start, end, '']), [close + 1, close + 1, ` ${wanted}${after}`]];
}

/** The text with each edit (in order, none overlapping) made. */
function edited(text: string, edits: ReadonlyArray<[number, number, string]>): string {
  let written = '';
  let from = 0;
  for (const [start, end, replacement] of edits) {
    written += text.slice(from, start) + replacement;
    from = end;
  }
  return written + text.slice(from);
}
