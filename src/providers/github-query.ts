import { mustBePhrase, notIsOperator } from '../domain/excluded-terms.js';
import { booleanQueryProblem, closedBooleanText, sentQuoted } from './excluded-terms.js';
import { type FormulaWriter, OPERATOR_IN_FORMULA, withoutGroups } from './query-groups.js';

/**
 * GitHub's search API refuses a query "longer than 256 characters (not including operators or qualifiers)" or
 * with "more than five AND, OR, or NOT operators", with 422 Validation Failed
 * (https://docs.github.com/rest/search/search#limitations-on-query-length). fedsearch takes 500 characters, so
 * such a query is found here, before a request (and a slot of GitHub's 10 or 30 a minute) is spent on it.
 */
const MAX_SEARCH_TEXT = 256;
const MAX_OPERATORS = 5;

/**
 * A qualifier (`language:go`, `-user:octo`, `stars:>10`, `in:"readme"`): what GitHub leaves out of the count. A URL
 * (`https://…`) is taken for one too, which can only count fewer characters: a query is never refused wrongly.
 */
const QUALIFIER = /(?<=^|\s)-?[A-Za-z][\w-]*:(?:"[^"]*"|\S*)/g;
/** GitHub reads `-qualifier:value` itself: no excluded term. */
const QUALIFIERS_KEPT = { qualifiers: 'kept' } as const;
/** A quoted phrase: an AND inside quotes is a word searched for, not an operator. */
const PHRASE = /"[^"]*"/g;
/** GitHub's operators are upper case; `and` and `or` are ordinary words. */
const OPERATOR = /(?<=^|\s)(?:AND|OR|NOT)(?=\s|$)/g;
/** Whether a text may hold an operator at all: the one test most queries get. */
const MAY_HOLD_OPERATOR = /\b(?:AND|OR|NOT)\b/;

/**
 * The text as GitHub's search reads it: an excluded word or phrase (`-word`, `-"a phrase"`, the words of a
 * `NOT (a OR b)`: excluded-terms.ts) after `NOT`, which GitHub documents for words (`hello NOT world`), and which it has
 * no parentheses to group; its `-` it documents for qualifiers only (`-language:go`, kept as typed). Each NOT counts
 * against the five operators GitHub takes: a text whose NOTs pass them is refused by githubQueryProblem, as one typed
 * with six operators is; sent as typed, GitHub's non-code search (no parentheses, `-` for qualifiers only) read the
 * excluded words as words to find. Undefined for a text of excluded terms alone (`-python`, `(NOT FOUND)`), as for
 * PubMed: NOT needs a word before it, and sent as typed they were words to find, or a NOT with nothing before it.
 * In a text written in capitals that starts with NOT (`NOT FOUND`), that NOT is a word (notIsOperator): sent in lower
 * case, which GitHub searches for rather than reads.
 * An unclosed phrase or group is closed, and an operator that joins nothing left out (closedQuery), so that nothing
 * typed reaches the qualifier the adapter puts before the text (`rust NOT` is `rust`, not the NOT of `is:public`).
 * Empty for a text with no word at all (`(`, `AND "`), which GitHub refuses (422: "only logical operators … without
 * any search terms"). A group is sent without its parentheses where the text reads the same without them (GITHUB_READING).
 */
export function githubSearchText(text: string): string | undefined {
  return writtenForGithub(text)?.text;
}

/**
 * What GitHub is sent for a search text, worked out once for both the check before a search (Provider.queryProblem)
 * and its request (Provider.buildRequest): the text grouping wrote, and why GitHub would refuse it, in any scope.
 */
export interface GithubSearchText {
  /** As githubSearchText writes it: undefined or empty when there is nothing to send (booleanQueryProblem). */
  readonly sent: string | undefined;
  /** Why GitHub is not sent it: nothing to send, or a rule of its own (githubQueryProblem); undefined when it is. */
  readonly problem: string | undefined;
}

export function githubSearch(text: string): GithubSearchText {
  const written = writtenForGithub(text);
  if (written === undefined || written.text === '') return { sent: written?.text, problem: booleanQueryProblem(written?.text) };
  return { sent: written.text, problem: githubQueryProblem(written) };
}

/** The text GitHub is sent, and what grouping it left that GitHub cannot be sent (groupProblem reads them). */
interface WrittenText {
  text: string;
  /** Groups that had to keep their parentheses (query-groups.ts). */
  kept: readonly string[];
  /** Formulas formulaAsPhrase left as typed, not quoted. */
  unquoted: readonly string[];
}

/** githubSearchText's work, with what its one pass of grouping left; undefined for a text of excluded terms alone. */
function writtenForGithub(text: string): WrittenText | undefined {
  // What the terms leave is closed again, as for PubMed: `a AND NOT -b` is `a NOT b`, not `a AND NOT b`.
  const terms = closedBooleanText(negatedQualifiersWithMinus(text), QUALIFIERS_KEPT);
  if (typeof terms === 'string') return withoutGithubGroups(terms);
  if (terms.rest === '') return undefined;
  return withoutGithubGroups([terms.rest, ...terms.excluded.map((term) => (sentQuoted(terms, term) || mustBePhrase(term) ? `NOT "${term}"` : `NOT ${term}`))].join(' '));
}

const NOTHING_LEFT: readonly string[] = Object.freeze([]);

function withoutGithubGroups(text: string): WrittenText {
  // Nearly every text holds no parenthesis: withoutGroups gives it back as it is, with nothing kept.
  if (!text.includes('(')) return { text, kept: NOTHING_LEFT, unquoted: NOTHING_LEFT };
  const unquoted: string[] = [];
  const { text: written, kept } = withoutGroups(text, GITHUB_READING, (formula) => {
    const phrase = formulaAsPhrase(formula);
    if (phrase === formula) unquoted.push(formula);
    return phrase;
  });
  return { text: written, kept, unquoted };
}

/**
 * A NOT (or AND NOT) before a qualifier, outside phrases: URLs (`https://…`) are words, not qualifiers, and so is a
 * word whose colon no value follows (`std::vector`, `TODO:`): GitHub documents its `-` for qualifiers only, so such a
 * word written `-std::vector` was no longer excluded. A run of them (`NOT NOT`, `NOT AND NOT`) is matched whole, from
 * its first word, as the closed reading takes it for one NOT: its last NOT alone written `-` left the one before it
 * (`NOT -language:go`, Go excluded twice). An OR NOT (an alternative of everything but the qualifier) has no `-` form.
 * Matched with the phrases, which are left as they are.
 */
const NOT_BEFORE_QUALIFIER =
  /"[^"]*"?|(?<![^\s(])(?<!(?:^|[\s(])(?:AND|OR|NOT)\s+)(?:(?:AND|NOT)\s+)*NOT\s+(?=-?[A-Za-z][\w-]*:(?![\s:]|$|\/\/))/g;

/**
 * The text with each `NOT qualifier:value` and `AND NOT qualifier:value` written `-qualifier:value`: GitHub documents
 * its NOT for words (`hello NOT world`) and the `-` for qualifiers ("Understanding the search syntax": `-language:go`),
 * so `x AND NOT language:go` reads as `x -language:go`, as typed with the `-`; sent as typed, GitHub's reading of a NOT
 * before a qualifier was its own. A `NOT -language:go` (excluded twice) is left as typed. The text itself where NOT is
 * no operator (notIsOperator) or absent (nearly every text: one `includes`).
 */
function negatedQualifiersWithMinus(text: string): string {
  if (!text.includes('NOT') || !notIsOperator(text)) return text;
  return text.replace(NOT_BEFORE_QUALIFIER, (match: string, offset: number) => {
    if (match.startsWith('"')) return match;
    return text[offset + match.length] === '-' ? match : '-';
  });
}

/**
 * A formula (`f(x)`, `sin(-x)`, `-(x+1)`: a group glued to what is before it) as GitHub is sent it: a quoted phrase,
 * where its parentheses are characters of the phrase, not a group GitHub would answer with 422 (the parenthesis is
 * punctuation its search drops: "Searching code (legacy)" lists `( )` among the symbols it ignores, so the phrase asks
 * for the formula's words in order). As typed, so that githubQueryProblem skips the query, where a phrase would not
 * read as typed: one holding a quote (`"x"(a OR b)`), which cannot be quoted again, or an operator (`-(2024 OR
 * 2025)`), which GitHub would search for as a word inside the phrase; written `NOT 2024 NOT 2025` it would exclude
 * nothing either, as GitHub's NOT "does not work for numerals or dates" ("Understanding the search syntax").
 */
const formulaAsPhrase: FormulaWriter = (formula) =>
  formula.includes('"') || OPERATOR_IN_FORMULA.test(formula) ? formula : `"${formula}"`;

/**
 * GitHub's search answers a parenthesised group with 422 (`(Foo OR Bar) -path:vendor language:go`, tried on the live
 * legacy /search/code by github/github-mcp-server#2513), and documents none for any search; nothing shows its
 * repository search takes them either. githubSearchText leaves them out where the text reads the same without them
 * (query-groups.ts); and as GitHub documents no order between AND and OR, a group that they would leave to it
 * (`(a OR b) c`, `a OR (b c)`, `(a OR b) NOT c`) keeps them, and the query is not sent (githubQueryProblem).
 */
const GITHUB_READING = 'unordered';

/** Why GitHub is not sent a text (as githubSearchText writes it) for its parentheses; undefined when it holds none. */
function groupProblem({ kept, unquoted }: WrittenText): string | undefined {
  const group = kept[0];
  if (group !== undefined) {
    return `accepts no parentheses (its search API answers a group with 422), and without them ${group} would mean something else beside the rest of the query, as GitHub documents no order between AND and OR: search for each alternative on its own`;
  }
  // githubSearchText quoted every other formula: one left outside a phrase is one it could not.
  const formula = unquoted.find((written) => written.replace(PHRASE, '').includes('('));
  if (formula === undefined) return undefined;
  return `accepts no parentheses (its search API answers a group with 422), and ${formula} cannot be sent without them: quoted as a phrase, as other formulas are, its quotes or its AND, OR or NOT would no longer be read (and GitHub's NOT does not exclude numbers): search without it, or for each alternative on its own`;
}

/** The AND, OR and NOT operators of a text, not counting those inside a quoted phrase (words searched for). */
function operatorsIn(text: string): number {
  return text.replace(PHRASE, ' ').match(OPERATOR)?.length ?? 0;
}

/**
 * Why GitHub would refuse this query text (as sent: githubSearchText); undefined when it would take it. Operators past
 * its five refuse the whole text: leaving out the NOTs past them would return what the caller excluded.
 */
function githubQueryProblem(written: WrittenText): string | undefined {
  const { text } = written;
  // Nearly every query is this short: the work below is for the few that are not, or hold an operator.
  // A group keeps its parentheses only beside an operator (githubSearchText): such a text holds one; a formula left
  // unquoted (a quote in it) may hold none, and is one with a `(`.
  if (text.length <= MAX_SEARCH_TEXT && !MAY_HOLD_OPERATOR.test(text) && !text.includes('(')) return undefined;
  const grouped = groupProblem(written);
  if (grouped !== undefined) return grouped;
  const operators = operatorsIn(text);
  if (operators > MAX_OPERATORS) {
    return `accepts at most ${MAX_OPERATORS} AND, OR or NOT operators in a query; this one has ${operators} (each excluded term, -word or NOT word, is sent after a NOT of its own)`;
  }
  const characters = searchTextLength(text);
  if (characters > MAX_SEARCH_TEXT) {
    return `accepts queries of at most ${MAX_SEARCH_TEXT} characters, not counting qualifiers (language:go) or AND, OR, NOT; this one has ${characters}`;
  }
  return undefined;
}

/** Characters (code points) of the words GitHub counts, one space between each: never more than it counts itself. */
function searchTextLength(text: string): number {
  const words = text.replace(QUALIFIER, ' ').replace(OPERATOR, ' ').match(/\S+/g) ?? [];
  let characters = Math.max(0, words.length - 1);
  for (const word of words) characters += [...word].length;
  return characters;
}

/** An upper-case OR outside phrases (phrases are left out first, as operatorsIn leaves them). */
const OR_OPERATOR = /(?<=^|\s)OR(?=\s|$)/;

/**
 * Why GitHub's code search (`/search/code`, the legacy code search syntax) is not sent this text (as githubSearchText
 * writes it): an OR, which that search does not read. GitHub staff answered community discussion #125409 ("Code search
 * OR condition not working as expected") that the search API still uses the old code search syntax, "which doesn't
 * support Boolean operators", and its documentation ("Searching code (legacy)") names none; sent, `rust OR zig` is no
 * alternative (the question's OR found fewer files than either word alone). Undefined for every other text (one test).
 * Its NOT is sent still: GitHub documents none for this search either, but the legacy syntax negates single terms.
 */
export function githubCodeQueryProblem(sent: string): string | undefined {
  if (!OR_OPERATOR.test(sent.replace(PHRASE, ' '))) return undefined;
  return 'code search reads no OR (GitHub\'s search API uses the legacy code search syntax, without boolean operators): search for each alternative on its own';
}
