import { closedQuery } from '../domain/closed-query.js';
import { excludedTerms, minusSyntax, notAsWord, notIsOperator, type ExcludedTerms } from '../domain/excluded-terms.js';

/**
 * How each API is sent a text's excluded terms (`-word`, `-"a phrase"`, `NOT word`, `NOT (a OR b)`, `-(a OR b)`),
 * read by domain/excluded-terms.ts: the domain layer, as providers=auto reads them too (an excluded word names no
 * topic of the search).
 */
export { closedQuery, excludedTerms, minusSyntax, notAsWord, notIsOperator, type ExcludedTerms };

/** An OR between two terms, and (matched first, so that an OR inside one is left alone) a quoted phrase. */
const OR_OR_PHRASE = /"[^"]*"?|\s+OR\s+/g;

/**
 * The text with each upper-case OR between terms, outside phrases, written `written`: for an API that reads OR its own
 * way (YouTube's `|`) or not at all (Algolia: a space). The text itself when it holds none (nearly every text: one test).
 */
export function orWrittenAs(text: string, written: string): string {
  if (!/\sOR\s/.test(text)) return text;
  return text.replace(OR_OR_PHRASE, (match) => (match.startsWith('"') ? match : written));
}

/** Why an API that cannot exclude (its excluded terms are left out) is not asked a text with nothing else. */
export function nothingLeftToSearch(api: string): string {
  return `the query has no words ${api} can search for (it cannot exclude words: -word terms are left out)`;
}

/** Why an API with boolean NOT is not asked a text of excluded terms alone: NOT needs something to leave results out of. */
export const ONLY_EXCLUDED_TERMS = 'the query has no word to search for besides its excluded terms (-word)';

/**
 * The text for an API with upper-case boolean NOT and parentheses (PubMed, OpenAlex): as typed, or with its excluded
 * terms after NOT; undefined for a text of excluded terms alone (ONLY_EXCLUDED_TERMS). In a text written in capitals
 * that starts with NOT, a word there (notIsOperator), that NOT is sent in lower case, which these APIs read as a word. An unclosed
 * group or phrase is closed, and an operator that joins nothing left out (closedQuery): unbalanced syntax these APIs'
 * parsers may refuse.
 */
export function withBooleanExclusion(text: string): string | undefined {
  const typed = closedQuery(text.includes('NOT') && !notIsOperator(text) ? notAsWord(text) : text);
  // A NOT after words (`asthma NOT (mice OR rats)` too) is the API's own operator: sent as typed.
  const terms = excludedTerms(typed, { not: 'kept' });
  if (terms === undefined) return typed;
  return terms.rest === '' ? undefined : booleanExclusion(terms);
}

/**
 * The terms as a boolean query with NOT (PubMed, OpenAlex: upper-case operators, parentheses to group), in the form
 * OpenAlex documents: `(elmo AND "sesame street") NOT (cookie OR monster)`. The rest must hold a word.
 */
function booleanExclusion({ rest, excluded }: ExcludedTerms): string {
  const terms = excluded.map((term) => (/\s/.test(term) ? `"${term}"` : term));
  return `(${rest}) NOT ${terms.length === 1 ? terms[0]! : `(${terms.join(' OR ')})`}`;
}
