import { NO_WORD_TO_SEARCH, closedQuery } from '../domain/closed-query.js';
import { invalidQuery } from '../domain/errors.js';
import { closedTextExcludedTerms, excludedTerms, minusSyntax, notAsWord, notIsOperator, type ExcludedTerms } from '../domain/excluded-terms.js';
import { formulasAsPhrases } from './minus-phrases.js';
import { OPERATOR_IN_FORMULA, type Ungrouped, formulaEnd, withoutGroups } from './query-groups.js';

/**
 * How each API is sent a text's excluded terms (`-word`, `-"a phrase"`, `NOT word`, `NOT (a OR b)`, `-(a OR b)`),
 * read by domain/excluded-terms.ts: the domain layer, as providers=auto reads them too (an excluded word names no
 * topic of the search).
 */
export { NO_WORD_TO_SEARCH, closedQuery, closedTextExcludedTerms, type ExcludedTerms };

/**
 * An upper-case OR outside a phrase, with the spaces either side: between two terms, or with nothing on a side
 * (`rust OR`); a run of them (`a OR OR b`) as one. A quoted phrase is matched first, so that an OR inside one is left
 * alone.
 */
const OR_OR_PHRASE = /"[^"]*"?|\s*(?<!\S)OR(?:\s+OR)*(?!\S)\s*/g;
const ANY_OR = /(?<!\S)OR(?!\S)/;

/**
 * The text with each upper-case OR outside phrases written `written` between two terms, and left out at either end,
 * where it joins nothing (sent, it was a word to match): for an API that reads OR its own way (YouTube's `|`) or not
 * at all (Algolia: a space). A text of ORs alone is sent as typed, as minusSyntax sends one of operators alone; the
 * text itself when it holds none (nearly every text: one test).
 */
function orWrittenAs(text: string, written: string): string {
  if (!ANY_OR.test(text)) return text;
  const terms = text.replace(OR_OR_PHRASE, (match: string, offset: number) => {
    if (match.startsWith('"')) return match;
    return offset > 0 && offset + match.length < text.length ? written : '';
  });
  return terms || text;
}

/**
 * The text for an API whose only operator is `-` (YouTube, Hacker News): read closed first (closedQuery), as the boolean
 * APIs' is, so that a NOT that opens a group excludes (`surfing (NOT kitesurfing)` is `surfing -kitesurfing`; inside
 * the group it was a word to find) and an operator that joins nothing is left out; its excluded formulas and its minus
 * numbers written as phrases (minus-phrases.ts: `-"f(x)"`, `"-40"`); then written with `-` (minusSyntax), without the
 * parentheses of each group that reads the same without them (query-groups.ts), and its ORs written `or`
 * (orWrittenAs). Neither API documents parentheses: Algolia reads none (sent `asthma (-mice rats)`, whether `(-mice`
 * excluded was Algolia's guess), and YouTube reads `|` before the space (`(a OR b) c` is `a|b c`); a group YouTube
 * cannot be sent without them (`(a b) OR c`) is left as typed, and minusQueryProblem skips YouTube for it. Empty for a
 * text with no word.
 */
export function minusQuery(typed: string, or: '|' | ' '): string {
  const closed = closedQuery(typed);
  return closed === '' ? '' : minusWritten(closed, or).text;
}

/**
 * A closed text (closedQuery, not empty) as minusQuery writes it, the groups that kept their parentheses, and the text
 * before its ORs are written as the API's (`|`, a space): where a formula's OR is still one (unquotedFormula).
 */
function minusWritten(closed: string, or: '|' | ' '): Ungrouped & { withOperators: string } {
  const phrased = formulasAsPhrases(closed, closed.includes('NOT') && notIsOperator(closed));
  const ungrouped = withoutGroups(minusSyntax(phrased), or === '|' ? 'or-first' : 'and-only');
  return { text: orWrittenAs(ungrouped.text, or), kept: ungrouped.kept, withOperators: ungrouped.text };
}

/**
 * Why an API whose only exclusion is `-` (YouTube, Hacker News) is not asked a text: one whose every word is one it
 * cannot exclude (`NOT -40`: `--40` is no exclusion, and `-40` a number to find), which minusQuery leaves out; or one
 * with a group only parentheses can say (`(a b) OR c`), which YouTube does not read: its `|` binds before the space, so
 * `a b|c` is a AND (b OR c); or one with a formula no phrase can hold (`-(2024 OR 2025)`, `-f("x")`: unquotedFormula),
 * which neither reads without parentheses. Undefined for every other text (one or two `includes` for nearly all: such
 * a word comes after a NOT, and such a group or formula holds a `(`).
 */
export function minusQueryProblem(text: string, or: '|' | ' ', api: string): string | undefined {
  const mayHoldNot = text.includes('NOT');
  if (!mayHoldNot && !text.includes('(')) return undefined;
  // Read closed once: a text with no word at all is skipped for that (noWordProblem), not here.
  const closed = closedQuery(text);
  if (closed === '') return undefined;
  const written = minusWritten(closed, or);
  if (written.kept.length > 0) {
    return `reads no parentheses, and its OR (|) binds before the space (a b|c is a AND (b OR c)), so ${written.kept.join(', ')} would mean something else without them: search for each alternative on its own`;
  }
  const formula = unquotedFormula(written.withOperators);
  if (formula !== undefined) {
    return `reads no parentheses, so a formula holding a quote or an AND, OR or NOT (here ${formula}) is no one term to it, and quoted as a phrase, as other formulas are, its quotes or operators would no longer be read: search without it, or for each alternative on its own`;
  }
  if (!mayHoldNot || written.text !== '') return undefined;
  return `the query has no words ${api} can search for, and its excluded ones ${api} cannot exclude (a number after NOT: -40 is a number to it, not an exclusion): they are left out`;
}

/**
 * The first formula minusWritten left as typed, parentheses and all (formulasAsPhrases quotes every other one): one
 * holding a quote or an operator word (`-(2024 OR 2025)`, `-f("x")`), which neither YouTube nor Algolia would read as
 * one term. Undefined when the text holds no `(` outside its phrases (every group's parentheses are gone by then).
 */
function unquotedFormula(written: string): string | undefined {
  if (!written.includes('(')) return undefined;
  for (let index = 0; index < written.length; index += 1) {
    const character = written[index]!;
    if (character === '"') {
      const close = written.indexOf('"', index + 1);
      if (close < 0) return undefined;
      index = close;
    } else if (character === '(') {
      const end = formulaEnd(written, index);
      const formula = written.slice(written.slice(0, index).search(/[^\s"]*$/), end);
      // A formula a phrase could not hold; any other (`f(x) solver`, `e-mail(s)`) is a word to find, sent as typed.
      if (formula.includes('"') || OPERATOR_IN_FORMULA.test(formula)) return formula;
      index = end - 1;
    }
  }
  return undefined;
}

/** Why an API that cannot exclude (its excluded terms are left out) is not asked a text with nothing else. */
export function nothingLeftToSearch(api: string): string {
  return `the query has no words ${api} can search for (it cannot exclude words: -word terms are left out)`;
}

/** Why an API with boolean NOT is not asked a text of excluded terms alone: NOT needs something to leave results out of. */
export const ONLY_EXCLUDED_TERMS = 'the query has no word to search for besides its excluded terms (-word)';

/** Why a boolean API is not sent a text, from what withBooleanExclusion made of it; undefined when it is sent. */
export function booleanQueryProblem(sent: string | undefined): string | undefined {
  if (sent === undefined) return ONLY_EXCLUDED_TERMS;
  return sent === '' ? NO_WORD_TO_SEARCH : undefined;
}

/**
 * The text with a NOT that is a word (one starting a text written in capitals: notIsOperator) in lower case, which an
 * API with upper-case operators (PubMed, OpenAlex, GitHub, CirrusSearch, Brave) searches for rather than reads; the
 * text itself otherwise (nearly every text: one `includes`).
 */
export function notWordsInLowerCase(text: string): string {
  return text.includes('NOT') && !notIsOperator(text) ? notAsWord(text) : text;
}

/**
 * The text for an API with upper-case boolean NOT and parentheses (PubMed, OpenAlex): as typed, or with its excluded
 * terms after NOT; undefined for a text of excluded terms alone (ONLY_EXCLUDED_TERMS), and empty for one with no word
 * at all (NO_WORD_TO_SEARCH: booleanQueryProblem says which). In a text written in capitals that starts with NOT, a
 * word there (notIsOperator), that NOT is sent in lower case, which these APIs read as a word. An unclosed group or
 * phrase is closed, and an operator that joins nothing left out (closedQuery): unbalanced syntax these APIs' parsers
 * may refuse.
 */
export function withBooleanExclusion(text: string): string | undefined {
  const read = closedBooleanText(text);
  return typeof read === 'string' ? read : read.rest === '' ? undefined : booleanExclusion(read);
}

/**
 * A text as an API with upper-case boolean NOT reads it (PubMed, OpenAlex, GitHub): a NOT that is a word in lower case
 * (notWordsInLowerCase), closed (closedQuery), and its excluded terms read (closedExcludedTerms); the closed text itself
 * when it has none (a NOT after words, `asthma NOT (mice OR rats)` too, is the API's own operator: sent as typed), or
 * no word at all ('').
 */
export function closedBooleanText(text: string, options?: { qualifiers?: 'kept' }): string | ExcludedTerms {
  const typed = closedQuery(notWordsInLowerCase(text));
  if (typed === '') return typed;
  return closedExcludedTerms(typed, options) ?? typed;
}

/**
 * The excluded terms of a text closedQuery closed, for an API with boolean NOT (PubMed, OpenAlex, GitHub), with the
 * rest closed again: an operator that joined a term (`asthma AND NOT -mice` leaves `asthma AND`), or a group a term was
 * alone in (`( -mice)`), joins nothing now; and what closing leaves is read again, as often as it holds more: a NOT it
 * puts first (`( -mice NOT rats)` leaves `( NOT rats)`, closed `NOT (rats)`) is excluded with its terms, as a leading
 * NOT is, and so is one it leaves after an AND or OR (`asthma OR (-mice) NOT (rats)` leaves `asthma OR NOT (rats)`,
 * which sent as it is had two operators side by side), and so is a `-` term closing writes (`(-mice NOT rats asthma)`
 * leaves `( NOT rats asthma)`, closed `(-rats asthma)`). An upper-case NOT is an operator wherever closing put it
 * (`OR NOT HIV AIDS` is `NOT HIV AIDS`): read as typed, not again (notWordsInLowerCase left only such NOTs).
 */
export function closedExcludedTerms(typed: string, { qualifiers }: { qualifiers?: 'kept' } = {}): ExcludedTerms | undefined {
  const options = { qualifiers, not: 'kept', upperCaseNot: 'operator' } as const;
  const terms = excludedTerms(typed, options);
  if (terms === undefined) return undefined;
  const excluded = [...terms.excluded];
  let rest = closedQuery(terms.rest);
  // Each reading takes out at least one term, so this ends; nearly every rest holds no NOT and no `-` (two `includes`).
  // A `-` too: closing writes a group's opening NOT as a `-` term (`( NOT rats asthma)` is `(-rats asthma)`).
  const mayHoldMore = (text: string): boolean => text.includes('NOT') || text.includes('-');
  for (let more = mayHoldMore(rest) ? excludedTerms(rest, options) : undefined; more !== undefined; ) {
    excluded.push(...more.excluded);
    rest = closedQuery(more.rest);
    more = mayHoldMore(rest) ? excludedTerms(rest, options) : undefined;
  }
  // A term typed as a phrase is one the closed text holds in quotes (excludedTerms keeps no quotes): the closed text
  // holds nearly every term as typed, and one whose phrase was trimmed (`-(" a+b" OR c)`) is sent bare, as before.
  const quoted = excluded.filter((term) => typed.includes(`"${term}"`));
  return quoted.length === 0 ? { rest, excluded } : { rest, excluded, quoted };
}

/** withBooleanExclusion's text for a request; one it would not send is refused (QUERY_INVALID) with booleanQueryProblem's reason. */
export function booleanQueryText(text: string): string {
  const sent = withBooleanExclusion(text);
  const problem = booleanQueryProblem(sent);
  if (problem !== undefined || sent === undefined) throw invalidQuery(problem ?? ONLY_EXCLUDED_TERMS);
  return sent;
}

/**
 * The terms as a boolean query with NOT (PubMed, OpenAlex: upper-case operators, parentheses to group), in the form
 * OpenAlex documents: `(elmo AND "sesame street") NOT (cookie OR monster)`. The rest must hold a word.
 */
function booleanExclusion(read: ExcludedTerms): string {
  const { rest, excluded } = read;
  const terms = excluded.map((term) => (sentQuoted(read, term) ? `"${term}"` : term));
  return `(${rest}) NOT ${terms.length === 1 ? terms[0]! : `(${terms.join(' OR ')})`}`;
}

/**
 * Whether an excluded term is sent inside quotes: a phrase of several words, one holding a parenthesis (`-"f(x"`),
 * which unquoted would open or close a group of the query it is sent in, or an operator excluded as a word (`-OR`),
 * which unquoted would be read as the operator, after NOT (`NOT OR`). A term holds no quote (excludedTerms).
 */
export function mustBeQuoted(term: string): boolean {
  return /[\s()]|^(?:AND|OR|NOT)$/.test(term);
}

/** Whether an excluded term is sent quoted: typed as a phrase (`-"a+b"`), or one that must be (mustBeQuoted). */
export function sentQuoted(read: ExcludedTerms, term: string): boolean {
  return mustBeQuoted(term) || (read.quoted?.includes(term) ?? false);
}
