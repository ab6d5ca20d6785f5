/**
 * Terms a caller excluded, as web search writes them: `-word` or `-"a phrase"` where a term starts. A `-` inside a
 * word (`covid-19`) is no exclusion, nor one before a digit (`-40 °C` is a number). APIs without that syntax read
 * the term as one more word to match once their tokenizer drops the `-`: the opposite of what was typed.
 */
const EXCLUDED_TERM = /(?<!\S)-(?:"([^"]*)"?|(\p{L}[^\s()"]*))/gu;

/** A text's excluded terms (each a word or a phrase, without its `-` and quotes) and the text left without them. */
export interface ExcludedTerms {
  rest: string;
  excluded: string[];
}

/** The excluded terms of a text; undefined when it has none (nearly every text: one `includes` answers for most). */
export function excludedTerms(text: string): ExcludedTerms | undefined {
  if (!text.includes('-')) return undefined;
  const excluded: string[] = [];
  const rest = text.replace(EXCLUDED_TERM, (_term: string, phrase: string | undefined, word: string | undefined) => {
    const value = (phrase ?? word ?? '').trim();
    if (value !== '') excluded.push(value);
    return ' ';
  });
  return excluded.length === 0 ? undefined : { rest: rest.replace(/\s+/g, ' ').trim(), excluded };
}

/** Why an API that cannot exclude (its excluded terms are left out) is not asked a text with nothing else. */
export function nothingLeftToSearch(api: string): string {
  return `the query has no words ${api} can search for (it cannot exclude words: -word terms are left out)`;
}

/** Why an API with boolean NOT is not asked a text of excluded terms alone: NOT needs something to leave results out of. */
export const ONLY_EXCLUDED_TERMS = 'the query has no word to search for besides its excluded terms (-word)';

/**
 * The text for an API with upper-case boolean NOT (PubMed, OpenAlex): as typed, or with its excluded terms after NOT;
 * undefined for a text of excluded terms alone (ONLY_EXCLUDED_TERMS).
 */
export function withBooleanExclusion(text: string): string | undefined {
  const terms = excludedTerms(text);
  if (terms === undefined) return text;
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
