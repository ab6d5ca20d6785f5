// A link's search read as the service reads the same query-string parameters (src/operations/search-params.ts, the
// text turned into numbers and truth values by src/http/query-string.ts, the kind a route of its own): a value the
// service takes is the search's, one it refuses is kept aside to be said on its field. Read as "any" (or the default
// deadline, or a web search), as it was, the page ran another search than the link asked for, without a word
// (time_range=decade, open_access=yes, year_from=abc searched unfiltered; timeout_ms=abc with the default deadline;
// kind=Papers for the web).

/** The kinds of search, each a route of the service's (/v1/search/web, /v1/search/papers): in small letters only. */
export const KINDS = ['web', 'papers'];

const CHOICES = {
  time_range: ['day', 'week', 'month', 'year'],
  safesearch: ['off', 'moderate', 'strict'],
};
/** In any letter case: the service writes the code in its usual case itself (pt-br as pt-BR). */
const LANGUAGE = /^[A-Za-z]{2}(-[A-Za-z]{2})?$/;
/** A number as the service reads one from a query string: as JSON writes it (2020, 2020.0, 2e3; not +2020 or " 2020"). */
const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const YEARS = { min: 1000, max: 2100 };
/** timeout_ms, in milliseconds (searchParams.timeout_ms). */
const DEADLINES = { min: 100, max: 30_000 };

/** The filters whose value is a list: the service also takes each entry as a parameter of its own. */
const LIST_FILTERS = ['include_domains', 'exclude_domains'];

/** `text` as a whole number from `range.min` to `range.max`, written plainly (2e3 as 2000); undefined if it is none. */
function wholeNumberIn(text, range) {
  const number = DECIMAL.test(text) ? Number(text) : Number.NaN;
  return Number.isInteger(number) && number >= range.min && number <= range.max ? String(number) : undefined;
}

/** The value the page holds for `text`, one the service takes for filter `name`; undefined for one it refuses. */
function valueOf(name, text) {
  if (name in CHOICES) return CHOICES[name].includes(text) ? text : undefined;
  if (name === 'language') return LANGUAGE.test(text) ? text : undefined;
  // false and 0 are the same search as none (docs/api.md): the box left clear.
  if (name === 'open_access') return text === 'true' || text === '1' ? 'true' : text === 'false' || text === '0' ? '' : undefined;
  // year_from, year_to: a whole number in range, written as the year (2e3 as 2000), as the service reads it.
  return wholeNumberIn(text, YEARS);
}

/**
 * Parameter `name` of the address's `params` that takes one value, read by `read` (undefined for a text the service
 * refuses): `{ value }` (empty for none) or `{ refused }`, the texts as written. Given twice (time_range=day&
 * time_range=week) it is refused, as the service refuses it, rather than read as its first or last. An empty value is
 * none, as an empty field is.
 */
function oneValue(params, name, read) {
  const texts = params.getAll(name);
  if (texts.length === 0 || (texts.length === 1 && texts[0] === '')) return { value: '' };
  const value = texts.length === 1 ? read(texts[0]) : undefined;
  return value === undefined ? { refused: texts } : { value };
}

/**
 * Filter `name` of the address's `params`, as oneValue() reads it. A repeated list (`include_domains=a.org&
 * include_domains=b.org`) is every entry; its entries are the service's to judge, as when typed into the field.
 */
export function filterFromAddress(params, name) {
  if (LIST_FILTERS.includes(name)) {
    return {
      value: params
        .getAll(name)
        .map((text) => text.trim())
        .filter(Boolean)
        .join(','),
    };
  }
  return oneValue(params, name, (text) => valueOf(name, text));
}

/** The deadline (timeout_ms), as oneValue() reads it: whole milliseconds in the service's range (1e3 as 1000). */
export function deadlineFromAddress(params) {
  return oneValue(params, 'timeout_ms', (text) => wholeNumberIn(text, DEADLINES));
}

/** The kind, as oneValue() reads it: the service has a route for web and papers only, in that case (Papers is none). */
export function kindFromAddress(params) {
  return oneValue(params, 'kind', (text) => (KINDS.includes(text) ? text : undefined));
}
