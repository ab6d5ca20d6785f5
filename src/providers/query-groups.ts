/**
 * A closed query's parentheses (closedQuery: balanced, its phrases closed), left out wherever the API the text is for
 * reads the same without them: GitHub refuses a parenthesised group (422: `(Foo OR Bar) -path:vendor language:go`,
 * github/github-mcp-server#2513, on the legacy REST search fedsearch calls), Algolia ignores them, and YouTube
 * documents none. What a group holds is kept in place, word for word; only its parentheses go.
 *
 * A `(` glued to what comes before it (`f(x)`, `sin(-x)`, `-(x+1)`, `-(2024)`) is no group but part of a word, a
 * formula as excluded-terms.ts reads one: it is left as typed, to its `)`, or written as the caller's FormulaWriter
 * says (GitHub's: a phrase, as it reads no parenthesis at all outside one).
 */

/** How an API joins terms with OR and with a space (AND), which decides where a group's parentheses can go. */
export type GroupReading =
  /** GitHub: AND and OR, no order documented between them; NOT binds to the term after it (`hello NOT world`). */
  | 'unordered'
  /** YouTube: `|` binds tighter than the space (`boating|sailing -fishing` excludes fishing from both). */
  | 'or-first'
  /** Algolia: every word is required, an OR too is read as AND (it is sent as a space): no group changes anything. */
  | 'and-only';

/** What the text became, and the groups that had to keep their parentheses (as written): none for most. */
export interface Ungrouped {
  text: string;
  kept: string[];
}

/** How one term is joined to the one before it at its level. */
type Join = 'AND' | 'OR' | 'NOT';

/** A word, phrase or formula; an operator word; or a group, read. */
type Item = string | Group;
interface Group {
  items: Item[];
}

const OPERATOR = /^(?:AND|OR|NOT)$/;
const SPACE = /\s/;

/**
 * The text with the parentheses of each group it can do without; as given when it holds none (nearly every text: one
 * `includes`), or when every group it holds must keep its parentheses.
 */
export function withoutGroups(text: string, reading: GroupReading, writeFormula?: FormulaWriter): Ungrouped {
  if (!text.includes('(')) return { text, kept: [] };
  const kept: string[] = [];
  const state = { dropped: false, writeFormula };
  const items = levelItems(readGroups(text).items, reading, kept, state);
  return { text: state.dropped ? items.join(' ') : text, kept };
}

/**
 * How an API that reads no parenthesis even inside a word (GitHub) has a formula (`f(x)`) written: as it returns it, the
 * text rewritten where that differs from the formula.
 */
export type FormulaWriter = (formula: string) => string;

/**
 * An upper-case operator word inside a formula (`-(2024 OR 2025)`): a group of alternatives, not a formula's text. A
 * writer that quotes formulas as phrases leaves such a one as typed: inside quotes its OR would be a word to find.
 */
export const OPERATOR_IN_FORMULA = /(?<![^\s(])(?:AND|OR|NOT)(?![^\s)])/;

interface LevelState {
  dropped: boolean;
  writeFormula: FormulaWriter | undefined;
}

/**
 * A level's items written out, each group with its parentheses left out where the level reads the same without them
 * (its items spliced in), or written `(…)` (and added to `kept`) where not.
 */
function levelItems(items: readonly Item[], reading: GroupReading, kept: string[], state: LevelState): string[] {
  const written: string[] = [];
  items.forEach((item, index) => {
    if (typeof item === 'string') {
      const formula = state.writeFormula !== undefined && isFormula(item) ? state.writeFormula(item) : item;
      if (formula !== item) state.dropped = true;
      written.push(formula);
      return;
    }
    const inner = levelItems(item.items, reading, kept, state);
    if (inner.length === 0) {
      state.dropped = true;
      return;
    }
    if (canDrop(shapeOf(inner), joinBefore(items, index), joinAfter(items, index), reading)) {
      state.dropped = true;
      written.push(...inner);
    } else {
      const group = `(${inner.join(' ')})`;
      kept.push(group);
      written.push(group);
    }
  });
  return written;
}

/** What joins a level's terms: one term alone, only AND (a space) and NOT, only OR, or both AND and OR. */
type Shape = 'single' | 'and' | 'or' | 'mixed';

function shapeOf(items: readonly string[]): Shape {
  const joins = new Set<Join>();
  let terms = 0;
  let pending: string[] = [];
  for (const item of items) {
    if (OPERATOR.test(item)) {
      pending.push(item);
      continue;
    }
    // A NOT first in the level excludes its term from the rest: an AND NOT.
    if (terms > 0 || pending.includes('NOT')) joins.add(joinOf(pending));
    terms += 1;
    pending = [];
  }
  if (joins.size === 0) return 'single';
  if (joins.has('OR')) return joins.size === 1 ? 'or' : 'mixed';
  return 'and';
}

/**
 * Whether a group of this shape, between these joins, reads the same without its parentheses. One alone in its level
 * (the whole query), or of one term, always; one of AND-ed terms where AND joins it on both sides (before it, not a NOT:
 * `x NOT (a b)` is no `x NOT a b`); one of alternatives among alternatives. Where YouTube reads `|` first, a group
 * joined by AND on both sides holds what it may (each of its alternatives stays one), and one of alternatives may go
 * anywhere. Algolia reads every term as required, whatever the group.
 */
function canDrop(shape: Shape, before: Join | undefined, after: Join | undefined, reading: GroupReading): boolean {
  if (reading === 'and-only' || shape === 'single' || (before === undefined && after === undefined)) return true;
  const andBefore = before === undefined || before === 'AND';
  const andAfter = after === undefined || after !== 'OR';
  if (reading === 'or-first') return shape === 'or' || (andBefore && andAfter);
  if (shape === 'and') return andBefore && andAfter;
  return shape === 'or' && before !== 'AND' && before !== 'NOT' && (after === undefined || after === 'OR');
}

/** The join before the item at `index` of a level: undefined when no term comes before it (a NOT alone first is one). */
function joinBefore(items: readonly Item[], index: number): Join | undefined {
  const operators: string[] = [];
  for (let at = index - 1; at >= 0; at -= 1) {
    const item = items[at]!;
    if (typeof item !== 'string' || !OPERATOR.test(item)) return joinOf(operators);
    operators.push(item);
  }
  return operators.includes('NOT') ? 'NOT' : undefined;
}

/** The join after the item at `index` of a level: undefined when no term comes after it. */
function joinAfter(items: readonly Item[], index: number): Join | undefined {
  const operators: string[] = [];
  for (let at = index + 1; at < items.length; at += 1) {
    const item = items[at]!;
    if (typeof item !== 'string' || !OPERATOR.test(item)) return joinOf(operators);
    operators.push(item);
  }
  return undefined;
}

/** The operators between two terms as one join: an OR among them makes alternatives, a NOT an exclusion, else AND. */
function joinOf(operators: readonly string[]): Join {
  return operators.includes('OR') ? 'OR' : operators.includes('NOT') ? 'NOT' : 'AND';
}

/** Whether a term of a level (readGroups) is a formula: one holding a `(` outside its phrases, glued to what is before it. */
function isFormula(term: string): boolean {
  return term.includes('(') && term.replace(/"[^"]*"?/g, '').includes('(');
}

/** The text's levels: words, phrases and formulas, operators, and groups within groups. */
function readGroups(text: string): Group {
  const root: Group = { items: [] };
  const open: Group[] = [root];
  let term = '';
  const endTerm = (): void => {
    if (term !== '') open.at(-1)!.items.push(term);
    term = '';
  };
  for (let index = 0; index < text.length; ) {
    const character = text[index]!;
    if (character === '"') {
      const close = text.indexOf('"', index + 1);
      const end = close < 0 ? text.length : close + 1;
      term += text.slice(index, end);
      index = end;
    } else if (character === '(' && term !== '') {
      // Glued to a word (`f(x)`): a formula, part of that word to its `)`.
      const end = formulaEnd(text, index);
      term += text.slice(index, end);
      index = end;
    } else if (character === '(') {
      const group: Group = { items: [] };
      open.at(-1)!.items.push(group);
      open.push(group);
      index += 1;
    } else if (character === ')' || SPACE.test(character)) {
      endTerm();
      // A `)` that closes nothing (closedQuery leaves none) is left out, as closedQuery leaves one out.
      if (character === ')' && open.length > 1) open.pop();
      index += 1;
    } else {
      term += character;
      index += 1;
    }
  }
  endTerm();
  return root;
}

/** Where a formula's group (from its `(`) ends: past its `)`, phrases inside it passed over, or at the end of the text. */
export function formulaEnd(text: string, start: number): number {
  let depth = 0;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (character === '"') {
      const close = text.indexOf('"', index + 1);
      if (close < 0) return text.length;
      index = close;
    } else if (character === '(') depth += 1;
    else if (character === ')' && --depth === 0) return index + 1;
  }
  return text.length;
}
