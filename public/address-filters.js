// A link's filters read as the service reads the same query-string parameters (src/operations/search-params.ts, the
// text turned into numbers and truth values by src/http/query-string.ts): a value the service takes is the search's,
// one it refuses is kept aside to be said on its field. Read as "any", as it was, the page ran another search than
// the link asked for, without a word (time_range=decade, open_access=yes, year_from=abc searched unfiltered).

const CHOICES = {
  time_range: ['day', 'week', 'month', 'year'],
  safesearch: ['off', 'moderate', 'strict'],
};
/** In any letter case: the service writes the code in its usual case itself (pt-br as pt-BR). */
const LANGUAGE = /^[A-Za-z]{2}(-[A-Za-z]{2})?$/;
/** A number as the service reads one from a query string: as JSON writes it (2020, 2020.0, 2e3; not +2020 or " 2020"). */
const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const YEARS = { min: 1000, max: 2100 };

/** The filters whose value is a list: the service also takes each entry as a parameter of its own. */
const LIST_FILTERS = ['include_domains', 'exclude_domains'];

/** The value the page holds for `text`, one the service takes for filter `name`; undefined for one it refuses. */
function valueOf(name, text) {
  if (name in CHOICES) return CHOICES[name].includes(text) ? text : undefined;
  if (name === 'language') return LANGUAGE.test(text) ? text : undefined;
  // false and 0 are the same search as none (docs/api.md): the box left clear.
  if (name === 'open_access') return text === 'true' || text === '1' ? 'true' : text === 'false' || text === '0' ? '' : undefined;
  // year_from, year_to: a whole number in range, written as the year (2e3 as 2000), as the service reads it.
  const year = DECIMAL.test(text) ? Number(text) : Number.NaN;
  return Number.isInteger(year) && year >= YEARS.min && year <= YEARS.max ? String(year) : undefined;
}

/**
 * Filter `name` of the address's `params`: `{ value }` (empty for none) or, for texts the service would refuse,
 * `{ refused }`, those texts as written. A repeated one-value filter (time_range=day&time_range=week) is refused, as
 * the service refuses it, rather than read as its first or last. A repeated list (`include_domains=a.org&
 * include_domains=b.org`) is every entry; its entries are the service's to judge, as when typed into the field. An
 * empty value is none, as an empty field is.
 */
export function filterFromAddress(params, name) {
  const texts = params.getAll(name);
  if (LIST_FILTERS.includes(name)) {
    return {
      value: texts
        .map((text) => text.trim())
        .filter(Boolean)
        .join(','),
    };
  }
  if (texts.length === 0 || (texts.length === 1 && texts[0] === '')) return { value: '' };
  const value = texts.length === 1 ? valueOf(name, texts[0]) : undefined;
  return value === undefined ? { refused: texts } : { value };
}
