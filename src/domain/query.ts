import type { SearchKind } from './result.js';
import type { TimeRange } from './time-range.js';

/** The filters a search may carry; each adapter passes on what its API supports. */
export interface SearchFilters {
  time_range?: TimeRange;
  language?: string;
  include_domains?: string[];
  exclude_domains?: string[];
  safesearch?: 'off' | 'moderate' | 'strict';
  year_from?: number;
  year_to?: number;
  /** Only open-access papers; never false (operations/search-operations.ts filtersOf: false asks for no filter). */
  open_access?: true;
  /** A provider's sub-index, where it has several (github: `repositories` or `code`). */
  scope?: string;
}

/** Filters a provider can be asked to apply upstream; declared per adapter in its settings. */
export type FilterName = Exclude<keyof SearchFilters, 'scope'>;

/**
 * Filter values that ask for no filtering: no provider is skipped for lacking the filter (engine/filters.ts
 * requestedFilters). One without it never filters (Hacker News, Wikipedia: no adult-content filter), or may by its
 * own default, which at worst leaves out a few results, no reason to leave out all. `sent`: an API that filters by
 * default unless told not to (Brave and YouTube: moderate) is still sent the value, so a search with it is another
 * search than one without and keeps its own cached answer; a value no adapter sends is the same search as none and
 * is dropped at the input (operations/search-operations.ts filtersOf).
 */
const NO_FILTERING: { readonly [Name in FilterName]?: { value: SearchFilters[Name] | false; sent: boolean } } = {
  safesearch: { value: 'off', sent: true },
  open_access: { value: false, sent: false },
};

/** Whether a filter's value asks for no filtering: `safesearch=off`, `open_access=false`, an empty domain list. */
export function asksForNothing(name: FilterName, value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  const nothing = NO_FILTERING[name];
  return nothing !== undefined && nothing.value === value;
}

/** Whether a filter's value is the same search as leaving the filter out: it asks for nothing and no adapter sends it. */
export function sameAsUnset(name: FilterName, value: unknown): boolean {
  return asksForNothing(name, value) && NO_FILTERING[name]?.sent !== true;
}

/** A validated search as the engine sees it, whichever surface (REST, MCP) it came from. */
export interface SearchQuery {
  kind: SearchKind;
  text: string;
  /**
   * How many results to ask each provider for, from its first: the caller's limit × page, plus one to tell
   * whether another page exists. Adapters ask their upstream for this many, in further pages where one
   * request allows fewer (Provider.nextPageRequest), and give at most this many.
   */
  limit: number;
  filters: SearchFilters;
}

/** What `providers=` takes instead of names: choose the providers by the query (no instance may take the name). */
export const AUTO_SELECTION = 'auto';

/** Pages a caller may ask for (page × limit results in all): deeper pages cost every provider a bigger request. */
export const MAX_PAGE = 10;

/** Results asked for beyond the page, only to tell whether another page exists (engine/paging.ts). */
export const PAGE_LOOK_AHEAD = 1;

/** The most results one page may hold (max_results). */
export const MAX_LIMIT = 50;

/**
 * The most results a provider is ever asked for: the deepest page a caller may ask for, with its look-ahead
 * (engine/paging.ts resultsWanted). No answer this service keeps is deeper, nor holds more per provider asked.
 */
export const MAX_DEPTH = MAX_LIMIT * MAX_PAGE + PAGE_LOOK_AHEAD;
