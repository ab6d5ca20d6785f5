import { withDoubleNegationsWanted } from './double-negation.js';
import { excludableEnd, excludableGroupEnd } from './excludable-term.js';

/**
 * A query as a boolean API (PubMed, OpenAlex, GitHub) can be sent it whole: an unclosed phrase or group closed, a `)`
 * that closes nothing left out, and an AND, OR or NOT with nothing after it, or an AND or OR with nothing before it,
 * left out, at the ends of a group as at those of the text (`asthma (mice OR) rats` is `asthma (mice) rats`). Sent
 * as typed, `asthma NOT (mice OR rats` is unbalanced syntax that PubMed's and OpenAlex's parsers may refuse or read
 * otherwise, and an unclosed phrase or a trailing NOT could take in what is sent after the text.
 * A NOT that opens a group (`asthma (NOT mice)`) has nothing before it inside it, where these APIs' NOT is binary: it
 * is sent before its group (`asthma NOT (mice)`), where it joins what comes before, or is read as a leading NOT; when
 * the group holds more than its term (`(NOT mice asthma)`, `(NOT mice OR rats)`), the NOT excludes its term alone,
 * written as a `-` term (`(-mice asthma)`, `(-mice OR rats)`: groupOpeningNot).
 * A term excluded inside an excluded group (`a NOT (b OR NOT c)`) is asked for, moved after the group (`a NOT (b) c`:
 * double-negation.ts).
 * Operators side by side (`a AND OR b`, `NOT NOT x`) are read as one (oneOperator): these APIs would be sent an operator
 * with an operator, not a term, on one side.
 * Upper-case operators only: in lower case they are words (and a text whose NOT is a word has it in lower case first).
 * Groups nested deeper than MAX_GROUP_DEPTH have their parentheses left out (their words kept, in place): the readers of
 * excluded terms (excluded-terms.ts) read that deep, and no deeper; past it, a `NOT` or `-` group was read as words to find.
 */

/**
 * How deep groups may nest (`a NOT (b OR (c AND (d OR e)))` is three deep): as deep as any query is typed, and a bound
 * for the excluded-term readers, whose patterns hold one level for each.
 */
export const MAX_GROUP_DEPTH = 4;

/**
 * A character that is no word, nor part of one: punctuation (`?`, `!`, `.`, `…`, `-`, quotes, parentheses), spaces,
 * and the symbols of ASCII (`+`, `=`, `$`, `^`). A text of these alone (`?`, `!!!`, `:)`, `+`) is searched for as
 * nothing: the full-text indexes behind these APIs (Lucene's and Elasticsearch's standard tokenizer, PubMed's) split
 * words on them and drop them, so the search finds anything, or is refused. A letter or digit of any script (`C++`,
 * `C#`, `.NET`, `机器学习`) makes a word; so does a symbol past ASCII or an emoji (`€`, `∑`, `→`, `🦀`, `‼`), and a
 * keycap's enclosing mark (`#️⃣`), which are searched for as themselves (an encyclopedia has articles on them).
 *
 * Its two kinds share no character (a non-ASCII one that is no symbol): a space or `?` matched by both made NO_WORD_TEXT
 * try 2ⁿ ways on a text of n of them before a word (`? ? ? … x`), and hold the service for seconds at 40 characters.
 */
const NO_WORD_CHARACTER = String.raw`(?![\p{L}\p{N}\p{Me}\p{Extended_Pictographic}])(?:[\0-\x7F]|[^\0-\x7F\p{S}])`;

/**
 * A text of operators and characters that are no word alone (`(`, `"`, `AND (`, `(OR)`, `""`, `-`, `-(`, `?`, `!!!`,
 * `+`, `NOT ?`). An operator inside a phrase (`"OR"`) or after a `-` (`-OR`) is a word.
 */
const NO_WORD_TEXT = String.raw`^(?:${NO_WORD_CHARACTER}|(?<![^\s(])(?:AND|OR|NOT)(?![^\s)]))*$`;

/**
 * Whether a text may need any of it: the one test most texts get (`^` fails at once but at the start, and there reads
 * up to the first letter).
 */
const MAY_NEED_CLOSING = new RegExp(
  String.raw`["()]|(?<!\S)(?:AND|OR|NOT)\s*$|^\s*(?:AND|OR)(?!\S)|(?<![^\s(])(?:AND|OR|NOT)\s+(?:AND|OR|NOT)(?![^\s)])|${NO_WORD_TEXT}`,
  'u',
);
/** What joins nothing at the end of a text: an operator, or a group opened with nothing in it. */
const DANGLING_END = /(?:(?<![^\s(])(?:AND|OR|NOT)|\()\s*$/;
const ENDS_IN_SPACE_OR_GROUP = /[\s(]$/;
const LEADING_OPERATORS = /^\s*(?:(?:AND|OR)(?:\s+|$))+/;

/** A group (its phrases closed) with groups of its own `depth - 1` levels deep: what a closed text holds in a group. */
function termGroup(depth: number): string {
  let group = String.raw`\((?:"[^"]*"|[^()"])*\)`;
  for (let level = 1; level < depth; level += 1) group = String.raw`\((?:"[^"]*"|[^()"]|${group})*\)`;
  return group;
}

/**
 * What joins nothing inside a group (read once the phrases are closed): a group of operators alone (`(OR)`) or of
 * nothing (`rust NOT ()` is `rust`, not a NOT before an empty group), an AND or OR just after a `(`, an operator just
 * before a `)`, and a NOT just after a `(` before a term (moved before its group). A phrase is matched first, and left
 * as typed.
 */
const DANGLING_IN_GROUP = new RegExp(
  [
    '"[^"]*"',
    String.raw`\((?:\s*(?<![^\s(])(?:AND|OR|NOT)(?![^\s)]))*\s*\)`,
    String.raw`(?<=\()\s*(?:(?:AND|OR)\s+)+`,
    // From the start of a run of spaces only, so that a long run is read once, not from each of its spaces; and not
    // after an operator: a run of operators is read once from its first, not again from each of the others (`(NOT NOT
    // NOT … x` read from each of its 120 NOTs, on each pass of the loop below, took 30 ms).
    String.raw`(?<!\s|(?<![^\s(])(?:AND|OR|NOT))\s*(?:(?<![^\s(])(?:AND|OR|NOT)\s*)+(?=\))`,
    // Before a word a `-` cannot exclude (a number: `-40` is one; `.NET`, `#tag`) with more in the group after it
    // (`a (NOT 40 bb)`): the NOT and its word are moved before the group (`a NOT 40 (bb)`), where every reader
    // excludes the word alone. Moved alone, the NOT took the group whole, bb too, a word to find. The word is captured.
    // A group is such a word too where a `-` cannot exclude it (`a (NOT (40) bb)`, `(NOT (x+1) bb)`: groupPartWritten).
    String.raw`(?:(?<![^\s(])NOT\s+|(?<![^\s(])-)?\(\s*NOT\s+(-?[^\s()"\p{L}-][^\s()"]*|${termGroup(MAX_GROUP_DEPTH - 1)})\s+(?=[^\s)])`,
    // Not a NOT before a `-` term (`(NOT -mice asthma)`), which goes with it (excluded-terms.ts): moved, it would take
    // the whole group, asthma too. Before a number alone in its group (`(NOT -40)`) it is moved, as before a word.
    // Matched with the NOT or `-` that excludes its group, if any: moved before the group, it would stand beside that
    // one (see below).
    String.raw`(?:(?<![^\s(])NOT\s+|(?<![^\s(])-)?\(\s*NOT\s+(?=[^\s)-]|-\d)`,
  ].join('|'),
  'gu',
);

/**
 * Operators side by side, outside phrases (a phrase is matched first, and left as typed): `a AND OR b`, `a OR OR b`,
 * `NOT NOT x`, typed so or left so by a group of operators left out (`a OR (AND) b`).
 */
const OPERATOR_RUN_OR_PHRASE = /"[^"]*"|(?<![^\s(])(?:AND|OR|NOT)(?:\s+(?:AND|OR|NOT))+(?![^\s)])/g;
const OPERATOR_SEPARATOR = /\s+/;

/** What holds no word to search for once closed (NO_WORD_TEXT). */
const NO_WORD = new RegExp(NO_WORD_TEXT, 'u');

/**
 * The text closed as above; as typed when it needs nothing, and empty when it holds no word to search for, which sent
 * to these APIs would be refused or find anything (GitHub answers 422: "only logical operators … without any search
 * terms").
 */
export function closedQuery(text: string): string {
  if (!MAY_NEED_CLOSING.test(text)) return text;
  let closed = '';
  // Groups opened and not closed yet, outside phrases; of those past MAX_GROUP_DEPTH, left out, how many are open;
  // where the phrase now open starts (-1: none is).
  let open = 0;
  let tooDeep = 0;
  let tooDeepClosedAt = -1;
  let phraseStart = -1;
  // Whether something was left out between words: the spaces either side of it are made one.
  let leftOut = false;
  for (const character of text) {
    if (character === '"') phraseStart = phraseStart < 0 ? closed.length : -1;
    else if (phraseStart < 0 && character === '(') {
      if (open === MAX_GROUP_DEPTH) {
        tooDeep += 1;
        leftOut = true;
        // A space, so that the group's first word is not glued to a word before it; none after a `(` or a space.
        if (!ENDS_IN_SPACE_OR_GROUP.test(closed)) closed += ' ';
        continue;
      }
      open += 1;
    } else if (phraseStart < 0 && character === ')') {
      // One that closes a group left out, or that closes nothing, is left out.
      if (tooDeep > 0 || open === 0) {
        if (tooDeep > 0) {
          tooDeep -= 1;
          tooDeepClosedAt = closed.length + 1;
        }
        leftOut = true;
        closed += ' ';
        continue;
      }
      open -= 1;
      // The space left for a deeper group's `)` is none before this one: `(e AND (f OR g))` is `(e AND f OR g)`.
      if (tooDeepClosedAt === closed.length) closed = closed.trimEnd();
    }
    closed += character;
  }
  // An unclosed phrase runs to the end, as every reader here takes it; a quote with nothing after it is no phrase.
  if (phraseStart >= 0) closed = closed.slice(phraseStart + 1).trim() === '' ? closed.slice(0, phraseStart) : `${closed}"`;
  // Again while something is left out: what a group of operators alone leaves may end its own group (`(a (OR))`).
  for (let again = closed.includes('('); again; ) {
    // Operators side by side first, as outside a group (`NOT NOT x` is `NOT x`): read after the NOT that opens a group,
    // `(NOT NOT (mice) rats)` had its first NOT moved before the group as one whose term is no word (the second NOT),
    // and its second then excluded (mice) inside the excluded group, twice: mice was asked for, and rats excluded.
    const single = withOperatorRunsAsOne(closed);
    const read = withGroupsRead(single);
    again = read !== single;
    if (again || single !== closed) leftOut = true;
    closed = read;
  }
  // After the groups too: one of operators alone, left out, may leave operators side by side (`a OR (AND) AND b`).
  const single = withOperatorRunsAsOne(closed);
  if (single !== closed) leftOut = true;
  closed = single;
  // (A text that ends in a closed phrase ends in no operator.)
  for (let end = DANGLING_END.exec(closed); end !== null; end = DANGLING_END.exec(closed)) {
    if (end[0].startsWith('(')) open -= 1;
    closed = closed.slice(0, end.index);
  }
  closed = closed.replace(LEADING_OPERATORS, '').trimEnd() + ')'.repeat(open);
  if (leftOut) closed = closed.replace(/\s+/g, ' ').trim();
  // Closed again with a term excluded twice moved out as one to find: each such reading takes out a NOT or `-`.
  const wanted = withDoubleNegationsWanted(closed);
  if (wanted !== undefined) return closedQuery(wanted);
  return NO_WORD.test(closed) ? '' : closed;
}

/** A NOT or a `-` that excludes a group just after it (the `(` at lastIndex), as DANGLING_IN_GROUP matches one. */
const EXCLUDING_JUST_BEFORE = /(?<=(?<![^\s(])(?:NOT\s+|-))/y;

/** The text with what DANGLING_IN_GROUP matches read once, left to right (groupPartWritten). */
function withGroupsRead(text: string): string {
  // Where the match before ends, rewritten or left for the next reading.
  let previousEnd = -1;
  return text.replace(DANGLING_IN_GROUP, (match: string, word: string | undefined, offset: number, whole: string) => {
    const written = groupPartWritten(match, word, offset, whole, previousEnd);
    previousEnd = offset + match.length;
    return written;
  });
}

/**
 * What a match of DANGLING_IN_GROUP (from `offset`; `word`, a word a `-` cannot exclude after a NOT that opens a group)
 * is written as: a group of operators alone, or empty, leaves a space; an operator goes with the spaces between it and
 * its `(` or `)`; a NOT that opens a group goes before it, or excludes its term alone (groupOpeningNot, notOfWordMoved).
 * Left as it is, for the next reading, where the NOT or `-` that excludes its group was read with the match before,
 * whether that one was rewritten or left for the next reading too.
 */
function groupPartWritten(match: string, word: string | undefined, offset: number, whole: string, previousEnd: number): string {
  if (match.startsWith('"')) return match;
  const open = match.indexOf('(');
  if (open < 0) return '';
  if (match.endsWith(')')) return ' ';
  const excluding = match.slice(0, open);
  // The NOT or `-` that excludes this group was read with the group before it, as its NOT's term (`(NOT (NOT 40) cc)`
  // is `(-(NOT 40) cc)`): read as it is now written, on the next reading. Read as not excluded, the NOT was moved
  // beside the `-` (`(- NOT (40) cc)`). So where the match before was left as it is (`(NOT (NOT (NOT 40 bb)))`, its
  // NOT's term a group that opens with a NOT): moved out with its number, this NOT stood beside that one, the two were
  // read as one, and 40, excluded three times, was asked for.
  EXCLUDING_JUST_BEFORE.lastIndex = offset;
  if (excluding === '' && offset === previousEnd && EXCLUDING_JUST_BEFORE.test(whole)) return match;
  if (word !== undefined && !excludableGroupTerm(whole, offset, match, word)) {
    return notOfWordKept(whole, offset + open, excluding) ? match : notOfWordMoved(whole, offset + open, excluding, word);
  }
  // The NOT's term, a group a `-` excludes, was matched with it: it follows what the NOT is written as, unchanged.
  const termStart = word === undefined ? offset + match.length : offset + match.trimEnd().length - word.length;
  const term = match.slice(termStart - offset);
  if (groupOpeningNot(whole, offset, offset + open, termStart) === 'term') return `${excluding}(-${term}`;
  // Moved before a group that is excluded itself (`a NOT (NOT (NOT x))`), the NOT stood beside the one excluding it,
  // and the two were read as one (oneOperator): an odd number of NOTs became even, and x, excluded, was asked for.
  // Two NOTs take each other out: `a NOT (NOT (…))` asks for (…), as NOT of NOT does.
  return `${excluding === '' ? ' NOT (' : ' ('}${term}`;
}

/** Whether DANGLING_IN_GROUP's word (matched from `offset`) is a group that a `-` excludes, read as any other term is. */
function excludableGroupTerm(whole: string, offset: number, match: string, word: string): boolean {
  return word.startsWith('(') && excludableGroupEnd(whole, offset + match.trimEnd().length - word.length) >= 0;
}

/** The text with each run of operators side by side (outside phrases) written as the one it is read as (oneOperator). */
function withOperatorRunsAsOne(text: string): string {
  return text.replace(OPERATOR_RUN_OR_PHRASE, (match) => (match.startsWith('"') ? match : oneOperator(match.split(OPERATOR_SEPARATOR))));
}

/**
 * The one operator a run of them is read as, which no API is sent as typed (PubMed and OpenAlex would read an operator
 * with nothing on one side, GitHub may refuse it): the last, which stands before the term it joins (`a AND OR b` is
 * `a OR b`, `NOT NOT x` is `NOT x`, `a NOT AND b` is `a AND b`); but a NOT after an AND or OR keeps the one just before
 * it (`a OR AND NOT b` is `a AND NOT b`), the form that excludes its term for every API (excluded-terms.ts).
 */
function oneOperator(run: readonly string[]): string {
  const last = run.at(-1)!;
  if (last !== 'NOT') return last;
  const joining = run.findLast((operator) => operator !== 'NOT');
  return joining === undefined ? last : `${joining} NOT`;
}

/** Whether the group goes on after its NOT's term: anything but spaces and its `)` (or the end of the text). */
const MORE_IN_GROUP = /\s*[^\s)]/y;
/** A NOT or a `-` just before a group's `(`: the group is excluded. */
const EXCLUDED_GROUP_BEFORE = /(?<![^\s(])(?:NOT\s+|-)$/;

/**
 * What a NOT that opens a group (`(NOT …`, from `open`, the `(`, its term from `termStart`; the NOT or `-` that
 * excludes the group, if any, from `start`) excludes: the whole group where the term is alone in it (`(NOT mice)`),
 * and otherwise its term alone, which is sent as a `-` term
 * (`(NOT mice asthma)` is `(-mice asthma)`, `(NOT mice OR rats)` is `(-mice OR rats)`). NOT binds to the one term after
 * it, as Google, Bing, PubMed and Lucene read it (`NOT mice OR rats` is `(NOT mice) OR rats`), and as the readers of
 * excluded terms read it outside a group: moved before the group, the NOT took the other words with it (`NOT (mice
 * asthma)`: YouTube was sent `-mice -asthma`, PubMed nothing at all; `(NOT mice OR rats)` excluded rats, where `NOT mice
 * OR rats` kept it). The whole group too where its term cannot be written as a `-` term (excluded-terms.ts MINUS,
 * TERM_START): a number (`-40` is one) alone in the group (one with more after it goes out of the group with its NOT:
 * notOfWordMoved), an operator word, a group whose first term is no word or phrase (nor a `-`,
 * a NOT or a group before one: `(NOT (-aa) bb)` is `(-(-aa) bb)`, bb still to find) or that holds a formula
 * (`-(x+1)`), or one whose `(` is glued to a word before it (`f(-x)`: a formula).
 */
function groupOpeningNot(text: string, start: number, open: number, termStart: number): 'group' | 'term' {
  // Glued to a word, not to the `-` that excludes the group (from `start`): that one starts a term (`-(NOT mice rats)`,
  // read as a formula's, had the two cancel, and rats, excluded once, was asked for).
  if (start === open && open > 0 && !/[\s(]/.test(text[open - 1]!)) return 'group';
  const termEnd = excludableEnd(text, termStart);
  if (termEnd < 0) return 'group';
  // In an excluded group (`a NOT (NOT c)`) the term is excluded twice, which asks for it (double-negation.ts): moved
  // before the group, the two NOTs were read as one, which excluded it.
  if (EXCLUDED_GROUP_BEFORE.test(text.slice(0, open))) return 'term';
  MORE_IN_GROUP.lastIndex = termEnd;
  return MORE_IN_GROUP.test(text) ? 'term' : 'group';
}

/**
 * Whether a NOT that opens a group before a word a `-` cannot exclude (`NOT (NOT 40 bb)`, DANGLING_IN_GROUP's word) is
 * left where it is: in a group excluded itself, the word is excluded twice, which asks for it, and double-negation.ts
 * moves it after the group as a term to find (`NOT (bb) 40`), as it moves a word (`NOT (NOT mice bb)` is `NOT (bb)
 * mice`). Not where a `-` before the group is read as no exclusion (`-(NOT 40 x+1)`: a formula): notOfWordMoved.
 */
function notOfWordKept(text: string, open: number, excluding: string): boolean {
  return excluding.startsWith('NOT') || (excluding === '-' && excludableGroupEnd(text, open) >= 0);
}

/**
 * What a NOT that opens a group before a word a `-` cannot exclude (a number: `-40` is one) is written as, with its
 * word, when it is not kept (notOfWordKept): before the group, where NOT excludes the word alone, as it does outside a
 * group (`a (NOT 40 bb)` is `a NOT 40 (bb)`, bb still to find). Moved alone, the NOT excluded the group whole. As
 * before where the group's `(` is glued to a word (`f(NOT 40 x)`: a formula), and where a `-` that no reader takes for
 * an exclusion stands before it (the two taken out, as two NOTs are: `-(NOT 40 x+1)` is `(40 x+1)`).
 */
function notOfWordMoved(text: string, open: number, excluding: string, word: string): string {
  if (excluding !== '') return ` (${word} `;
  if (open > 0 && !/[\s(]/.test(text[open - 1]!)) return ` NOT (${word} `;
  return ` NOT ${word} (`;
}

/** Why no API is asked a text with no word at all (closedQuery's ''). */
export const NO_WORD_TO_SEARCH = 'the query has no word to search for, only operators (AND, OR, NOT), quotes, parentheses or punctuation';

/**
 * Why an API is not asked this text: it holds no word at all (`(`, `"`, `AND (`, `-`, `?`: closedQuery's ''), which
 * every API would answer with anything or nothing (GitHub with 422); undefined otherwise (nearly every text: one test).
 */
export function noWordProblem(text: string): string | undefined {
  return closedQuery(text) === '' ? NO_WORD_TO_SEARCH : undefined;
}
