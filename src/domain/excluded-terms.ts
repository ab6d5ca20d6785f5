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
const EXCLUDED_TERM_OR_PHRASE = /(?<!\S)(?:(?:AND|OR|NOT)\s+)?-(?:"([^"]*)"?|(\p{L}[^\s()"]*))|"[^"]*"?/gu;
/** The same, but for a word holding a `:`: a qualifier (`-language:go`), which an API with qualifiers reads with its `-`. */
const EXCLUDED_TERM_BUT_QUALIFIER_OR_PHRASE = /(?<!\S)(?:(?:AND|OR|NOT)\s+)?-(?:"([^"]*)"?|(\p{L}[^\s()":]*)(?![^\s()"]))|"[^"]*"?/gu;

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
 * The excluded terms of a text; undefined when it has none (nearly every text: one `includes` and one `startsWith`
 * answer for most). A NOT that starts the text excludes its term as one left first by a `-` term does: `NOT rats asthma`
 * has PubMed sent `(asthma) NOT rats`, and an API that cannot exclude is not sent `NOT rats` as words to find.
 * With `qualifiers: 'kept'`, a `-qualifier:value` stays in the rest, as the API's own syntax (GitHub).
 */
export function excludedTerms(text: string, { qualifiers }: { qualifiers?: 'kept' } = {}): ExcludedTerms | undefined {
  if (!text.includes('-') && !text.startsWith('NOT')) return undefined;
  const excluded: string[] = [];
  const pattern = qualifiers === 'kept' ? EXCLUDED_TERM_BUT_QUALIFIER_OR_PHRASE : EXCLUDED_TERM_OR_PHRASE;
  const rest = text.replace(pattern, (term: string, phrase: string | undefined, word: string | undefined) => {
    if (term.startsWith('"')) return keptPhrase(term);
    const value = (phrase ?? word ?? '').trim();
    if (value !== '') excluded.push(value);
    return ' ';
  });
  const left = withoutLeadingOperators(rest.replace(/\s+/g, ' ').trim(), excluded);
  return excluded.length === 0 ? undefined : { rest: left, excluded };
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
