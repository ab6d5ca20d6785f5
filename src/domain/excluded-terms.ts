/**
 * Terms a caller excluded, as web search writes them: `-word` or `-"a phrase"` where a term starts. A `-` inside a
 * word (`covid-19`) is no exclusion, nor one before a digit (`-40 °C` is a number), nor one inside a quoted phrase
 * (`"git commit -m"`: the phrase is searched for as it is). APIs without that syntax read the term as one more word
 * to match once their tokenizer drops the `-`: the opposite of what was typed.
 *
 * Matched with it (and left as they are, but closed): quoted phrases, so that a `-` inside one is passed over. An
 * upper-case AND, OR or NOT just before an excluded term goes with it: `cancer AND -mice` leaves `cancer`, not
 * `cancer AND`, an operator with nothing after it that a boolean API (PubMed, OpenAlex) would be sent inside `( )`.
 * So does an AND or OR just after one that starts the text (LEADING_OPERATOR): `-mice OR cancer` leaves `cancer`.
 * A NOT that they leave first is excluded with its term (LEADING_NOT_TERM): `-mice NOT rats` excludes both, where
 * `NOT rats` left as the words would have PubMed and OpenAlex sent `(NOT rats) NOT mice`, a NOT with nothing before it.
 */
const MINUS_PREFIX = String.raw`(?:(?:AND|OR|NOT)\s+)?-(?=["\p{L}])`;
/**
 * An upper-case `NOT` before a word or a phrase, anywhere in the text (an AND or OR just before it goes with it, as with
 * a `-` term): web search's other way to exclude, `asthma NOT rats`. Upper case only: a lower-case "not" is a word of
 * the sentence ("why does X not work"). A NOT before `(` (a group) or before a `-` (`NOT -rats`: a `-` term) is left.
 */
const NOT_PREFIX = String.raw`(?:(?:AND|OR)\s+)?NOT\s+(?=[^\s()-])`;
/** The excluded word or phrase after its prefix: the phrase's text, or the word, each one capture group. */
const EXCLUDED_VALUE = String.raw`(?:"([^"]*)"?|([^\s()"]+))`;
const PHRASE = '"[^"]*"?';

const EXCLUDED_TERM_OR_PHRASE = new RegExp(String.raw`(?<!\S)(?:${MINUS_PREFIX}|${NOT_PREFIX})${EXCLUDED_VALUE}|${PHRASE}`, 'gu');
/** The same, but with a NOT after a word kept in the rest, for an API that reads NOT itself (PubMed, OpenAlex). */
const MINUS_TERM_OR_PHRASE = new RegExp(String.raw`(?<!\S)${MINUS_PREFIX}${EXCLUDED_VALUE}|${PHRASE}`, 'gu');
/**
 * `-` terms but for a word holding a `:`: a qualifier (`-language:go`), which an API with qualifiers reads with its `-`
 * (GitHub, which reads NOT too).
 */
const MINUS_TERM_BUT_QUALIFIER_OR_PHRASE = /(?<!\S)(?:(?:AND|OR|NOT)\s+)?-(?:"([^"]*)"?|(\p{L}[^\s()":]*)(?![^\s()"]))|"[^"]*"?/gu;
/**
 * NOT terms, a NOT before a `-` term (`NOT -rats`: the NOT alone, as the `-` already excludes), and phrases (so that a
 * NOT inside one is passed over): for notAsMinus.
 */
const NOT_TERM_OR_PHRASE = new RegExp(String.raw`(?<!\S)(?:(?:AND|OR)\s+)?NOT\s+(?=-["\p{L}])|(?<!\S)${NOT_PREFIX}${EXCLUDED_VALUE}|${PHRASE}`, 'gu');

/** An AND or OR that the excluded terms before it left first in the text, with nothing to join on its left. */
const LEADING_OPERATOR = /^(?:AND|OR)(?:\s+|$)/;
/** A NOT first in the text (typed so, or left so by the excluded terms before it), and the word or phrase after it. */
const LEADING_NOT_TERM = /^NOT\s+(?:"([^"]*)"?|([^\s()"]+))(?:\s+|$)/;

/** A text's excluded terms (each a word or a phrase, without its `-` and quotes) and the text left without them. */
export interface ExcludedTerms {
  rest: string;
  excluded: string[];
}

/**
 * The excluded terms of a text; undefined when it has none (nearly every text: one `includes` or two answer for most).
 * A `NOT word` or `NOT "a phrase"` excludes its term wherever it is, as a `-` term does: an API without NOT is not sent
 * `rats` to find for `asthma NOT rats`. With `not: 'kept'`, for an API that reads NOT (PubMed, OpenAlex), a NOT after
 * other words stays in the rest as typed; one that starts the text (or that the excluded terms before it leave first)
 * is still excluded, as it has nothing before it to join: `NOT rats asthma` has PubMed sent `(asthma) NOT rats`.
 * With `qualifiers: 'kept'` (GitHub, whose NOT is kept too), a `-qualifier:value` stays in the rest, as the API's own syntax.
 */
export function excludedTerms(text: string, { qualifiers, not }: { qualifiers?: 'kept'; not?: 'kept' } = {}): ExcludedTerms | undefined {
  const notRead = qualifiers !== 'kept' && not !== 'kept';
  if (!text.includes('-') && !(notRead ? text.includes('NOT') : text.startsWith('NOT'))) return undefined;
  const excluded: string[] = [];
  const pattern = notRead ? EXCLUDED_TERM_OR_PHRASE : qualifiers === 'kept' ? MINUS_TERM_BUT_QUALIFIER_OR_PHRASE : MINUS_TERM_OR_PHRASE;
  const rest = text.replace(pattern, (term: string, phrase: string | undefined, word: string | undefined) => {
    if (term.startsWith('"')) return keptPhrase(term);
    const value = (phrase ?? word ?? '').trim();
    if (value !== '') excluded.push(value);
    return ' ';
  });
  const left = withoutLeadingOperators(rest.replace(/\s+/g, ' ').trim(), excluded);
  return excluded.length === 0 ? undefined : { rest: left, excluded };
}

/**
 * The text with each `NOT word` or `NOT "a phrase"` (as excludedTerms reads them) written `-word` or `-"a phrase"`, in
 * place, the rest as typed: for an API whose exclusion is `-` and that would read NOT as a word to find (YouTube,
 * Hacker News). The text itself when it has no NOT (nearly every text: one `includes`).
 */
export function notAsMinus(text: string): string {
  if (!text.includes('NOT')) return text;
  return text.replace(NOT_TERM_OR_PHRASE, (term: string, phrase: string | undefined, word: string | undefined) => {
    if (term.startsWith('"')) return term;
    if (phrase !== undefined) return `-"${phrase}"`;
    return word === undefined ? '' : `-${word}`;
  });
}

/** The rest without an AND or OR first, and with a NOT first excluded with its term (into `excluded`), as often as they come. */
function withoutLeadingOperators(rest: string, excluded: string[]): string {
  let left = rest.replace(LEADING_OPERATOR, '');
  for (let not = LEADING_NOT_TERM.exec(left); not !== null; not = LEADING_NOT_TERM.exec(left)) {
    const value = (not[1] ?? not[2] ?? '').trim();
    if (value !== '') excluded.push(value);
    left = left.slice(not[0].length).replace(LEADING_OPERATOR, '');
  }
  return left;
}

/**
 * A phrase of the rest as a boolean API can be sent it inside `( )`: closed (an unclosed one runs to the end of the
 * text, and would take the `)` and what follows it into the phrase), and a stray quote with nothing after it dropped.
 */
function keptPhrase(phrase: string): string {
  if (phrase === '"') return ' ';
  return phrase.length > 1 && phrase.endsWith('"') ? phrase : `${phrase}"`;
}
