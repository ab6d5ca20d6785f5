import { closedTextExcludedTerms } from './excluded-terms.js';

/**
 * The user's text as arXiv `search_query` clauses (https://info.arxiv.org/help/api/user-manual.html, "Details of
 * Query Construction"): every word or quoted phrase an `all:` clause, ANDed. Web-search syntax arXiv would read
 * otherwise keeps its meaning: `a OR b` stays an alternative (parenthesised, as the manual groups), and an excluded
 * term (`-word`, `-"a phrase"`, `NOT word`, the words of `NOT (a OR b)`, read as every provider's are, by
 * excluded-terms.ts) goes after ANDNOT. Read as words, `-vision` was a clause every result had to match and `a OR b`
 * asked for both: the opposite of what was typed. Characters the query parser treats as syntax (`:`, `(`, `[`, `"`,
 * …) never reach it.
 */

/** Words arXiv's query parser reads as operators, not as search terms. */
const OPERATORS = new Set(['AND', 'OR', 'ANDNOT', 'NOT', 'TO']);

/** A quoted phrase (an unclosed one runs to the end); or a run of other characters. */
const TOKEN = /"([^"]*)"?|([^\s"]+)/g;

/** The clauses of a text: alternatives (ORed) within each group, groups ANDed, excluded clauses apart. */
export interface ArxivTerms {
  groups: string[][];
  excluded: string[];
}

export function arxivTerms(text: string): ArxivTerms {
  // Read closed: a NOT that opens a group (`a (NOT x)`) excludes, where it was read as the word x to find.
  const read = closedTextExcludedTerms(text);
  const excluded: string[] = [];
  for (const term of read.excluded) {
    const clause = clauseOf(term);
    if (clause !== undefined) excluded.push(clause);
  }
  const groups: string[][] = [];
  // An OR read since the last clause: the next one is an alternative to it, not one more required clause.
  let alternative = false;
  // arXiv's own ANDNOT read since the last clause: the next one is excluded. (A NOT left in the rest is a word,
  // one that starts a text written in capitals, and left out as clauseOf leaves out every operator word.)
  let negated = false;
  for (const [, phrase, token] of read.rest.matchAll(TOKEN)) {
    if (token === 'OR') {
      alternative = groups.length > 0;
      continue;
    }
    if (token === 'ANDNOT') {
      negated = true;
      continue;
    }
    const clause = clauseOf(phrase ?? token ?? '');
    if (clause === undefined) continue;
    if (negated) excluded.push(clause);
    else if (alternative) groups.at(-1)!.push(clause);
    else groups.push([clause]);
    alternative = false;
    negated = false;
  }
  return { groups, excluded };
}

/** `all:word` or `all:"two words"`; undefined for text with no word, or one arXiv would read as an operator. */
function clauseOf(value: string): string | undefined {
  const words = value.split(/[^\p{L}\p{M}\p{N}]+/u).filter((word) => word !== '');
  if (words.length === 1) return OPERATORS.has(words[0]!) ? undefined : `all:${words[0]}`;
  return words.length > 1 ? `all:"${words.join(' ')}"` : undefined;
}

/**
 * The search_query: the groups (and `extra` clauses, such as a date range) ANDed, then `ANDNOT` the excluded
 * clauses, as the manual's `au:del_maestro ANDNOT (ti:checkerboard OR ti:Pyrochlore)`. The terms must hold a group.
 */
export function arxivSearchQuery(terms: ArxivTerms, extra: readonly string[]): string {
  const required = [...terms.groups.map((group) => (group.length === 1 ? group[0]! : `(${group.join(' OR ')})`)), ...extra];
  const all = required.join(' AND ');
  if (terms.excluded.length === 0) return all;
  const kept = required.length === 1 ? all : `(${all})`;
  const dropped = terms.excluded.length === 1 ? terms.excluded[0]! : `(${terms.excluded.join(' OR ')})`;
  return `${kept} ANDNOT ${dropped}`;
}
