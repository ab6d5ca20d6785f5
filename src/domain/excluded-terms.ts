import { MAX_GROUP_DEPTH, closedQuery } from './closed-query.js';
import { OPERATOR_WORD, OPERATOR_WORDS } from './excludable-term.js';

/**
 * Terms a caller excluded, as web search writes them: `-word`, `-"a phrase"` or `-(a OR b)` where a term starts. A `-`
 * inside a word (`covid-19`) is no exclusion, nor one before a digit (`-40 °C` is a number), nor one inside a quoted
 * phrase (`"git commit -m"`: the phrase is searched for as it is). APIs without that syntax read the term as one more
 * word to match once their tokenizer drops the `-`: the opposite of what was typed.
 *
 * Matched with it (and left as they are, but closed): quoted phrases, so that a `-` inside one is passed over. An
 * upper-case AND, OR or NOT just before an excluded term goes with it: `cancer AND -mice` leaves `cancer`, not
 * `cancer AND`, an operator with nothing after it that a boolean API (PubMed, OpenAlex) would be sent inside `( )`.
 * So does an AND or OR just after one that starts the text (LEADING_OPERATOR): `-mice OR cancer` leaves `cancer`.
 * A NOT that they leave first is excluded with its term (LEADING_NOT_TERM): `-mice NOT rats` excludes both, where
 * `NOT rats` left as the words would have PubMed and OpenAlex sent `(NOT rats) NOT mice`, a NOT with nothing before it.
 */
/** A formula's group (`(x)`, `(g(x))`), nested as deep as closedQuery leaves a text, and no quote (formulaGroup). */
const FORMULA_GROUP = formulaGroup(MAX_GROUP_DEPTH);
/**
 * A word after a `-` that excludes it: one starting with a letter, read to its end, formulas glued to it (`f(x)`)
 * included. Not one glued to a `(` no formula's group reads (one with a quote inside, `-f("x")`): read to that `(`, `f`
 * alone was excluded and `("x")` a group to find; left as typed, as a `NOT` before such a formula is (FORMULA_NOT_PREFIX).
 * (Each step past the word is tried again when the next fails, and each sees the same `(` ahead: no shorter reading
 * of the word passes.)
 */
const MINUS_WORD = String.raw`\p{L}[^\s()"]*(?:${FORMULA_GROUP}[^\s()"]*)*(?![^\s()"]*\()`;
/**
 * A `-` that excludes: before a letter, a phrase, or a group whose first term starts with one (`-(mice OR rats)`, read
 * as `NOT (mice OR rats)` is), in a group of its own or not (`-((mice) OR rats)`): closing writes `-(-(NOT mice))`, mice
 * excluded three times, as `-( (mice))` (the inner `-` and NOT cancel), which, read as no exclusion, asked for mice.
 * Not before a digit or a group of them: `-(40)` is a number; nor before a group holding, outside its phrases and in
 * the groups nested in it too, a `=`, `<`, `>`, `^` or a `+` between letters or digits: `-(x+1)`, `-(a^2)`,
 * `-(a (b) x+1)` are formulas, not terms (`-(c++ OR java)` and `-(c++11 OR java)` still exclude: a language's name,
 * whose `+` follows a `+`), as excludable-term.ts reads them. Read only up to its first `)`, `-(a (b) x+1)` was
 * excluded here and sent to YouTube and Hacker News as a phrase to find, and `-(a -(b OR c) y+1)` excluded the words
 * `b OR c` as a phrase (closing, which reads the group whole, left the `-(b OR c)` inside it).
 */
const MINUS = String.raw`-(?="|${MINUS_WORD}|\((?=\s*(?:\(\s*)*["\p{L}])${formulaFreeContent(MAX_GROUP_DEPTH)}(?:\)|$))`;
const MINUS_PREFIX = String.raw`(?:(?:AND|OR|NOT)\s+)?${MINUS}`;
/**
 * Where an excluded term starts: first in the text, after a space, or first in a group (`asthma (-mice OR rats)`),
 * where an API without `-` would read `-mice` as mice to find, as after a space; not after a `(` inside a word
 * (`sin(-x)`: a formula).
 */
const TERM_START = String.raw`(?:(?<!\S)|(?<=(?:^|[\s(])\())`;
/**
 * An upper-case `NOT` before a word, a phrase or a group, anywhere in the text (an AND or OR just before it goes with
 * it, as with a `-` term): web search's other way to exclude, `asthma NOT rats`. Upper case only: a lower-case "not"
 * is a word of the sentence ("why does X not work"); and one that starts a text written in capitals, a word too
 * (notIsOperator).
 * A NOT before a `-` term (`NOT -rats`) is left: the `-` excludes. One before a `-` that no reader takes for an
 * exclusion (`NOT -40`: a number) excludes that word (NOT_TERM_AFTER); left, no reader read it, and APIs without NOT
 * were sent the word NOT, and arXiv asked for 40.
 */
const NOT_TERM_AFTER = String.raw`(?=[^\s)-]|-[^\s"\p{L}()-])`;
const NOT_PREFIX = String.raw`(?:(?:AND|OR)\s+)?NOT\s+${NOT_TERM_AFTER}`;
/**
 * `AND NOT` or `OR NOT`: an exclusion even for an API that reads NOT (PubMed, OpenAlex, GitHub), where NOT is binary
 * and documented between words (`asthma NOT mice`), never after another operator; sent `(asthma) NOT mice`.
 */
const OPERATOR_NOT_PREFIX = String.raw`(?:AND|OR)\s+NOT\s+${NOT_TERM_AFTER}`;
/**
 * One part of a group's text: a phrase (closed, or unclosed to the end of the text), whose parentheses are characters
 * of it (`NOT ("f(x" OR y)`), or any character but a parenthesis or a quote.
 */
const GROUP_PART = String.raw`"[^"]*"|"[^"]*$|[^()"]`;
/**
 * What a group holds, groups of its own among it, down to MAX_GROUP_DEPTH in all (closedQuery leaves out the
 * parentheses of deeper ones): `NOT (mice OR (rats AND (dogs OR cats)))` is read whole. A pattern cannot count
 * parentheses, so each level is written out; read any less deep, the NOT or `-` of a deeper group was left as typed,
 * and its words searched for.
 */
const GROUP_CONTENT = nestedGroupContent(MAX_GROUP_DEPTH);
/**
 * The excluded group, phrase or word after its prefix, each a named group. A group (`NOT (mice OR rats)`,
 * `-(mice OR rats)`) may hold groups of its own (GROUP_CONTENT); an unclosed one runs to the end of the text, as an
 * unclosed phrase does.
 */
const GROUP = String.raw`\((?<group>${GROUP_CONTENT})(?:\)(?![^\s)])|$)`;
/**
 * A word with the groups glued to it (`f(x)`, `f(g(x))`, `sin(-x)`: a formula, as query-groups.ts reads one), whole:
 * read to its first `(`, `x -f(x)` excluded f alone and left `(x)`, x to find. No quote inside (a phrase could not
 * hold the formula); nested as deep as closedQuery leaves a text (FORMULA_GROUP).
 */
const FORMULA_WORD = String.raw`[^\s()"]+(?:${FORMULA_GROUP}[^\s()"]*)*`;
const EXCLUDED_VALUE = String.raw`(?:${GROUP}|"(?<phrase>[^"]*)"?|(?<word>${FORMULA_WORD}))`;
const PHRASE = '"[^"]*"?';
/**
 * GitHub's exclusions: groups after NOT or `-` (`NOT (a OR b)`, `-(a OR b)`: GitHub has no parentheses, so their words
 * are excluded each), and words or phrases after `-` or `AND NOT`; a `-qualifier:value` is no excluded term, as GitHub
 * reads qualifiers with their `-`. Without the NOT parts for a text whose NOT is a word.
 */
/**
 * An excluded word for GitHub: after a `-`, one that starts with a letter (`-40` is a number); after `AND NOT` or
 * `OR NOT`, any (`asthma AND NOT 40`, `OR NOT -40`: NOT_TERM_AFTER passed them), as the pair is no syntax GitHub
 * documents and left in place it was sent as typed. With groups glued to it (`-f(x)`, `-f(g(x))`, `-f(x)(y)`), the whole
 * formula, as FORMULA_WORD reads one: read to its `(`, the `(x)` left in the rest was sent as x to find, and only `f`
 * excluded; read to one flat group, `-f(g(x))` was sent `"g(x)" NOT f`.
 */
const GITHUB_WORD = String.raw`(?<word>(?:(?<=-)\p{L}|(?<!-)[^\s()":])[^\s()":]*(?:${FORMULA_GROUP}[^\s()":]*)*)(?![^\s()"]|\()`;
/** OPERATOR_NOT_PREFIX, and before a formula's `-(` too (`AND NOT -(2024)`), which GITHUB_WORD reads whole. */
const GITHUB_OPERATOR_NOT_PREFIX = String.raw`(?:AND|OR)\s+NOT\s+(?=[^\s)-]|-[^\s"\p{L}-])`;
const GITHUB_EXCLUDED_TERM = String.raw`${TERM_START}(?:(?:(?:AND|OR)\s+)?(?:NOT\s+(?:${MINUS})?|${MINUS})(?=\()${GROUP}|(?:(?:(?:AND|OR|NOT)\s+)?-|${GITHUB_OPERATOR_NOT_PREFIX})(?:"(?<phrase>[^"]*)"?|${GITHUB_WORD}))`;
const GITHUB_MINUS_TERM = String.raw`${TERM_START}(?:(?:(?:AND|OR|NOT)\s+)?${MINUS}(?=\()${GROUP}|(?:(?:AND|OR|NOT)\s+)?-(?:"(?<phrase>[^"]*)"?|${GITHUB_WORD}))`;

const EXCLUDED_TERM_OR_PHRASE = new RegExp(String.raw`${TERM_START}(?:${MINUS_PREFIX}|${NOT_PREFIX})${EXCLUDED_VALUE}|${PHRASE}`, 'gu');
/** `-` terms alone: for a text whose NOT is a word. */
const MINUS_TERM_OR_PHRASE = new RegExp(String.raw`${TERM_START}${MINUS_PREFIX}${EXCLUDED_VALUE}|${PHRASE}`, 'gu');
/**
 * A NOT before a formula (`x NOT f(x)`), which these APIs would read as `NOT f` and `(x)`, a group to find: excluded as a
 * term, sent quoted (`(x) NOT "f(x)"`, mustBeQuoted). Only before a formula FORMULA_WORD reads whole, to where the term
 * ends: one with a quote inside (`NOT f(x"y)`) is left as typed, where taking it for one excluded `f`, and the rest a
 * group to find, read it wrong.
 */
const FORMULA_NOT_PREFIX = String.raw`NOT\s+(?=[^\s()"-][^\s()"]*(?:${FORMULA_GROUP}[^\s()"]*)+(?![^\s)]))`;
/** For an API that reads NOT itself (PubMed, OpenAlex): `-` terms, NOTs after another operator, and NOTs before a formula. */
const MINUS_OR_OPERATOR_NOT_TERM_OR_PHRASE = new RegExp(
  String.raw`${TERM_START}(?:${MINUS_PREFIX}|${OPERATOR_NOT_PREFIX}|${FORMULA_NOT_PREFIX})${EXCLUDED_VALUE}|${PHRASE}`,
  'gu',
);
const GITHUB_EXCLUDED_TERM_OR_PHRASE = new RegExp(`${GITHUB_EXCLUDED_TERM}|${PHRASE}`, 'gu');
const GITHUB_MINUS_TERM_OR_PHRASE = new RegExp(`${GITHUB_MINUS_TERM}|${PHRASE}`, 'gu');

/**
 * For an API whose only operator is `-` (YouTube, Hacker News), which reads AND, and NOT, as words to find: a NOT before
 * a `-` term (`NOT -rats`: the NOT alone, as the `-` already excludes); excluded terms, NOT and `-` alike (groups written
 * `-` each), with an AND or OR just before, and an OR just after, which go with them (an excluded term is no
 * alternative: YouTube's `-b|a` would make it one); any other AND (all words are required anyway); and phrases (so
 * that an operator inside one is passed over). Without the NOT parts for a text whose NOT is a word.
 */
const NOT_BEFORE_MINUS = String.raw`${TERM_START}(?:(?:AND|OR)\s+)?NOT\s+(?=${MINUS})`;
const OR_AFTER = String.raw`(?:\s+OR(?!\S))?`;
const AND = String.raw`(?<!\S)AND(?:\s+|$)`;
const MINUS_SYNTAX = new RegExp(
  `${PHRASE}|${NOT_BEFORE_MINUS}|${TERM_START}(?:${NOT_PREFIX}|${MINUS_PREFIX})${EXCLUDED_VALUE}${OR_AFTER}|${AND}`,
  'gu',
);
const MINUS_SYNTAX_NOT_A_WORD = new RegExp(`${PHRASE}|${TERM_START}${MINUS_PREFIX}${EXCLUDED_VALUE}${OR_AFTER}|${AND}`, 'gu');
/** Whether a text may hold what MINUS_SYNTAX rewrites: the one test most texts get. */
const MAY_NEED_MINUS_SYNTAX = /AND|NOT|-\(|(?<!\S)OR(?!\S)/;

/** An AND or OR that the excluded terms before it left first in the text, with nothing to join on its left. */
const LEADING_OPERATOR = /^(?:AND|OR)(?:\s+|$)/;
/**
 * A NOT first in the text (typed so, or left so by the excluded terms before it), and the group, phrase or word after
 * it. A phrase is closed or runs to the end of the text (as EXCLUDED_VALUE reads one), and what follows its closing
 * quote is the rest (`NOT "a b"c` excludes `a b`, not `a` with the rest `b"c`, a quote left open). A word with a group
 * glued to it (`NOT f(x)`) is one formula: read to its `(`, the NOT was left first, with nothing before it.
 */
const LEADING_NOT_TERM = new RegExp(String.raw`^NOT\s+(?:\((${GROUP_CONTENT})(?:\)|$)|"([^"]*)(?:"|$)|(${FORMULA_WORD}))(?:\s+|$|(?<="))`);

/** A word of a group that starts with a `-` no reader takes for an exclusion: a number's (`-40`). */
const MINUS_NUMBER = /^-[^"\p{L}-]/u;

/**
 * The words and phrases of a NOT group, without its operators, parentheses (or a `-` typed inside it): each is excluded.
 * A formula among them (`NOT (b OR f(x))`) is one term, as outside a group.
 */
const GROUP_TERM = new RegExp(String.raw`"([^"]*)"?|${FORMULA_WORD}`, 'gu');

const LOWER_CASE_LETTER = /\p{Ll}/u;
const UPPER_CASE_LETTER = /\p{Lu}/u;
/** A NOT that starts the text, before a word or a group. */
const LEADING_NOT = /^\s*NOT(?![^\s(])/;
/**
 * A NOT written as a word (outside a phrase), to be sent in lower case where it is no operator; NOTs side by side as one
 * (`NOT NOT FOUND` is `not FOUND`), as closedQuery reads them as one operator for every other provider.
 */
const NOT_OR_PHRASE = /"[^"]*"?|(?<![^\s(])NOT(?:\s+NOT)*(?![^\s)])/g;

/**
 * What a group that a `-` excludes holds (MINUS), groups of its own among it (`depth` levels in all, each closed or
 * running to the end of the text): phrases, and no formula's character outside them, a `+` only where no letter or
 * digit is on both sides of it (`c++`, `c++11`, not `x+1`).
 */
function formulaFreeContent(depth: number): string {
  const part = String.raw`"[^"]*"?|[^()"+=<>^]|\+(?!(?<=[\p{L}\p{N}]\+)[\p{L}\p{N}])`;
  let content = `(?:${part})*`;
  for (let level = 1; level < depth; level += 1) content = String.raw`(?:${part}|\(${content}(?:\)|$))*`;
  return content;
}

/** A formula's group (`(x)`, `(g(x))`), with groups of its own `depth - 1` levels deep, and no quote. */
function formulaGroup(depth: number): string {
  let group = String.raw`\([^()"]*\)`;
  for (let level = 1; level < depth; level += 1) group = String.raw`\((?:[^()"]|${group})*\)`;
  return group;
}

/** The content of a group with groups of its own `depth - 1` levels deep: GROUP_PARTs and closed groups. */
function nestedGroupContent(depth: number): string {
  let content = `(?:${GROUP_PART})*`;
  for (let level = 1; level < depth; level += 1) content = String.raw`(?:${GROUP_PART}|\(${content}\))*`;
  return content;
}

/** A text's excluded terms (each a word or a phrase, without its `-` and quotes) and the text left without them. */
export interface ExcludedTerms {
  rest: string;
  excluded: string[];
  /**
   * The excluded terms typed as phrases (`-"a+b"`, `-("a+b" OR c)`), when any (closedExcludedTerms, for the APIs that
   * read quotes: PubMed, OpenAlex, GitHub): sent quoted again, as the rest's phrases are; bare, `a+b` was read as the
   * API tokenizes it.
   */
  quoted?: string[];
}

/**
 * Whether the text's upper-case NOT is an operator. In a text with a lower-case letter (`asthma NOT rats`) or with no
 * other cased word (`机器学习 NOT 深度学习`) its case sets it apart. In a text written in capitals nothing does, and
 * the text's own shape decides: a NOT between words is the operator (`HIV NOT AIDS`, `COVID NOT SARS`: acronyms, as
 * the searches that PubMed and arXiv are asked are typed), and one that starts the text is a word (`NOT INVENTED
 * HERE`, `NOT FOUND`), as reading it there would exclude the very words searched for (`-word` still excludes).
 */
export function notIsOperator(text: string): boolean {
  return LOWER_CASE_LETTER.test(text) || !LEADING_NOT.test(text) || !UPPER_CASE_LETTER.test(text.replace(OPERATOR_WORDS, ' '));
}

/** No excluded term: shared, as nearly every text has none. */
const NONE_EXCLUDED: readonly string[] = Object.freeze([]);

/**
 * A text's excluded terms as every reader without a boolean NOT of its own reads them (arXiv, Semantic Scholar,
 * Crossref, the local index, auto routing): in the text closed first (closedQuery), where a NOT that opens a group
 * excludes, and a group nested past the depth the patterns read has lost its parentheses; read as typed, both were
 * words to find. The rest is the closed text itself when it has none, and closed again when it has some.
 */
export function closedTextExcludedTerms(text: string): { rest: string; excluded: readonly string[] } {
  const closed = closedQuery(text);
  const terms = excludedTerms(closed);
  if (terms === undefined) return { rest: closed, excluded: NONE_EXCLUDED };
  // Closed again: an OR that joined an excluded term joins nothing now (`(-mice OR rats)` leaves `( OR rats)`).
  terms.rest = closedQuery(terms.rest);
  return terms;
}

/**
 * The excluded terms of a text; undefined when it has none (nearly every text: one `includes` or two answer for most).
 * A `NOT word`, `NOT "a phrase"` or `NOT (a OR b)` excludes its terms wherever it is, as `-` terms do: an API without
 * NOT is not sent `rats` to find for `asthma NOT rats`. With `not: 'kept'`, for an API that reads NOT and parentheses
 * (PubMed, OpenAlex), a NOT after other words stays in the rest as typed; one that starts the text (or that the excluded
 * terms before it leave first) is still excluded, as it has nothing before it to join: `NOT rats asthma` has PubMed sent
 * `(asthma) NOT rats`; so is one after an AND or OR (`asthma AND NOT rats`), as NOT is binary to these APIs and
 * documented between words only. With `qualifiers: 'kept'` (GitHub, whose NOT is kept too but which has no
 * parentheses), a `-qualifier:value` stays in the rest, as the API's own syntax, and a `NOT (a OR b)` or `-(a OR b)` is
 * excluded wherever it is, as is an `AND NOT word`.
 * In a text where NOT is a word (notIsOperator), only `-` terms are excluded. With `upperCaseNot: 'operator'`, for a
 * text whose NOTs that are words are in lower case already (notAsWord, chosen on the text as typed), each upper-case NOT
 * is an operator, not read again from the text's shape: closing a text (closedQuery) can put first a NOT that was not
 * (`(NOT MICE) ASTHMA` is `NOT (MICE) ASTHMA`), which read again in a text in capitals would be a word.
 */
export function excludedTerms(
  text: string,
  { qualifiers, not, upperCaseNot }: { qualifiers?: 'kept'; not?: 'kept'; upperCaseNot?: 'operator' } = {},
): ExcludedTerms | undefined {
  const mayHoldNot = text.includes('NOT');
  if (!text.includes('-') && !mayHoldNot) return undefined;
  const notRead = mayHoldNot && (upperCaseNot === 'operator' || notIsOperator(text));
  const excluded: string[] = [];
  const rest = text.replace(excludedTermPattern(notRead, qualifiers === 'kept', not === 'kept'), (term: string, ...captures: unknown[]) => {
    if (term.startsWith('"')) return keptPhrase(term);
    const { group, phrase, word } = captures.at(-1) as Partial<Record<'group' | 'phrase' | 'word', string>>;
    if (group !== undefined) excluded.push(...groupTerms(group));
    else addTerm(excluded, phrase ?? word);
    return ' ';
  });
  const spaced = rest.replace(/\s+/g, ' ').trim();
  const left = notRead ? withoutLeadingOperators(spaced, excluded) : spaced.replace(LEADING_OPERATOR, '');
  return excluded.length === 0 ? undefined : { rest: left, excluded };
}

function excludedTermPattern(notRead: boolean, qualifiersKept: boolean, notKept: boolean): RegExp {
  if (qualifiersKept) return notRead ? GITHUB_EXCLUDED_TERM_OR_PHRASE : GITHUB_MINUS_TERM_OR_PHRASE;
  if (!notRead) return MINUS_TERM_OR_PHRASE;
  return notKept ? MINUS_OR_OPERATOR_NOT_TERM_OR_PHRASE : EXCLUDED_TERM_OR_PHRASE;
}

/**
 * Where minusSyntax wrote an excluded term, while the ORs about it are read: a control character, which no search text
 * holds (query-text.ts refuses them), then the term's index.
 */
const TERM_MARK = /\u0001(\d+)\u0002/g;
/** Excluded terms side by side (marked), with the ORs before, between and after them. */
const EXCLUDED_RUN = /(?:(?<!\S)OR\s+)*\u0001\d+\u0002(?:\s+(?:OR\s+)*\u0001\d+\u0002)*(?:\s+OR(?!\S))*/g;
const STARTS_WITH_OR = /^OR\s/;
const ENDS_WITH_OR = /\sOR$/;

/**
 * The text as an API whose only operator is `-` reads it (YouTube, Hacker News): each `NOT word`, `NOT "a phrase"`
 * (as excludedTerms reads them) written `-word` or `-"a phrase"` in place, a `NOT (a OR b)` or `-(a OR b)` written
 * `-a -b`, and the upper-case ANDs (`a AND -b` is `a -b`) left out, as these APIs would search for NOT and AND as words.
 * An AND or OR just before an excluded term, and an OR just after one, go with it (`-b OR a` is `-b a`): an excluded
 * term is no alternative. Where excluded terms stand between two alternatives (`a OR -b OR c`), their ORs make one OR
 * between those, and the terms go after the text (`a OR c -b`): the alternative is kept, and `-b` excludes from the
 * whole search, as it does wherever it stands. The rest as typed; the text itself when it has none of these (nearly
 * every text: one test).
 */
export function minusSyntax(text: string): string {
  if (!MAY_NEED_MINUS_SYNTAX.test(text)) return text;
  const pattern = text.includes('NOT') && notIsOperator(text) ? MINUS_SYNTAX : MINUS_SYNTAX_NOT_A_WORD;
  const written: string[] = [];
  let leftOut = false;
  const rewritten = text.replace(pattern, (term: string, ...captures: unknown[]) => {
    if (term.startsWith('"')) return term;
    const { group, phrase, word } = captures.at(-1) as Partial<Record<'group' | 'phrase' | 'word', string>>;
    // An OR before or after stays, for now, beside the term's mark: what it joins is read below, once every term is.
    const orBefore = STARTS_WITH_OR.test(term) ? 'OR ' : '';
    if (group === undefined && phrase === undefined && word === undefined) return orBefore; // An operator.
    // A NOT's word that a `-` cannot exclude (`NOT -40`, `NOT (-40)`: `--40` is no exclusion, `-40` a number to find)
    // is left out, with its NOT, as an API without `-` leaves out every excluded term. Its ORs go with it, as a written
    // term's do, but one OR stays between two alternatives (`a OR NOT -40 OR c` is `a OR c`).
    const minusTerms = group !== undefined ? groupTerms(group, 'minus numbers left out').map(minusTerm).join(' ') : phrase !== undefined ? `-"${phrase}"` : `-${word}`;
    if (minusTerms === '' || word?.startsWith('-') === true) {
      leftOut = true;
      return orBefore !== '' && ENDS_WITH_OR.test(term) ? ' OR ' : ' ';
    }
    written.push(minusTerms);
    return ` ${orBefore}\u0001${written.length - 1}\u0002${ENDS_WITH_OR.test(term) ? ' OR' : ''} `;
  });
  const moved: string[] = [];
  const placed =
    written.length === 0
      ? rewritten
      : rewritten.replace(EXCLUDED_RUN, (run: string, offset: number, whole: string) => {
          const terms = Array.from(run.matchAll(TERM_MARK), ([, index]) => written[Number(index)]!);
          const between = STARTS_WITH_OR.test(run) && ENDS_WITH_OR.test(run) && whole.slice(0, offset).trim() !== '' && whole.slice(offset + run.length).trim() !== '';
          if (!between) return ` ${terms.join(' ')} `;
          moved.push(...terms);
          return ' OR ';
        });
  // A text of operators alone (`AND`) is sent as typed: an empty query would find everything. One of terms left out
  // alone is empty: it has nothing to search for (its providers skip it).
  return [placed, ...moved].join(' ').replace(/\s+/g, ' ').trim() || (leftOut ? '' : text);
}

/** A space, a parenthesis, or a formula's character (a `+` between letters or digits: `x+1`, not `c++` or `c++11`; `=`, `<`, `>`, `^`). */
const MUST_BE_PHRASE = /[\s()=<>^]|(?<=[\p{L}\p{N}])\+(?=[\p{L}\p{N}])/u;

/**
 * A group's term with its `-`: a phrase again where it holds a space (groupTerms keeps no quotes), and a formula as one
 * (`-(b OR f(x))` is `-b -"f(x)"`, `NOT (x+1)` is `-"x+1"`), as minus-phrases.ts writes one outside a group: written
 * bare, `-f(x)` excluded f alone, and `-x+1` was no term either API documents.
 */
function minusTerm(term: string): string {
  return mustBePhrase(term) ? `-"${term}"` : `-${term}`;
}

/**
 * Whether an excluded group's term (without quotes) is sent as a phrase to an API with no parentheses (YouTube, Hacker
 * News, GitHub): one with a space, a parenthesis or a formula's character (MUST_BE_PHRASE). Bare, `NOT (x+1)` was
 * GitHub's `NOT x+1`, and `-x+1` no term any of them documents.
 */
export function mustBePhrase(term: string): boolean {
  return MUST_BE_PHRASE.test(term);
}

/** The text with each NOT outside a phrase in lower case: for a boolean API, where it is a word (notIsOperator). */
export function notAsWord(text: string): string {
  return text.replace(NOT_OR_PHRASE, (term) => (term.startsWith('"') ? term : 'not'));
}

/**
 * A group's words and phrases (`NOT (mice OR "case report")`: mice, case report), each excluded: what an API without
 * grouping can be sent of it. A group of alternatives (its usual form) means just that; one whose words are ANDed
 * (`NOT (a b)`) is read the same way, excluding more than typed, as no `-word` syntax can say "not both".
 */
function groupTerms(group: string, minusNumbers?: 'minus numbers left out'): string[] {
  const terms: string[] = [];
  for (const [token, phrase] of group.matchAll(GROUP_TERM)) {
    if (phrase === undefined && OPERATOR_WORD.test(token)) continue;
    // For minusSyntax: a `-` before a number is part of it (`-40`), which no `-` can exclude, as NOT_TERM_AFTER reads it.
    if (phrase === undefined && minusNumbers !== undefined && MINUS_NUMBER.test(token)) continue;
    addTerm(terms, phrase ?? token.replace(/^-+/, ''));
  }
  return terms;
}

function addTerm(terms: string[], value: string | undefined): void {
  const term = (value ?? '').trim();
  if (term !== '') terms.push(term);
}

/** The rest without an AND or OR first, and with a NOT first excluded with its terms (into `excluded`), as often as they come. */
function withoutLeadingOperators(rest: string, excluded: string[]): string {
  let left = rest.replace(LEADING_OPERATOR, '');
  for (let not = LEADING_NOT_TERM.exec(left); not !== null; not = LEADING_NOT_TERM.exec(left)) {
    if (not[1] !== undefined) excluded.push(...groupTerms(not[1]));
    else addTerm(excluded, not[2] ?? not[3]);
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
