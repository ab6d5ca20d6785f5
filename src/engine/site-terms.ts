import { DOMAIN_ENTRY, lowerCaseHost } from '../domain/domain-entry.js';
import type { SearchFilters, SearchQuery } from '../domain/query.js';
import type { Provider } from '../providers/provider.js';

/**
 * `site:docs.rs` and `-site:pinterest.com` typed in a web search. Brave reads them, and SearXNG's engines do; every
 * other API took them for words (Tavily and Exa, which take domains as parameters of their own; Hacker News,
 * MediaWiki, the local index), so their results came from anywhere, and the answer showed them. Here the terms
 * become include_domains and exclude_domains entries (beside any the caller gave): Tavily and Exa get them as
 * their own parameters, the engine filters the other providers' results by them, and those providers are sent the
 * text without them. A provider that reads them (ProviderSettings.siteOperator) is sent the text as typed, and its
 * results pass the same filter.
 */

/** Whether a text may hold a site: term at all: the one test nearly every search gets. */
const MAY_HOLD_SITE = /site:/i;
/**
 * `site:` or `-site:` (in any letter case) where a term starts, and its value up to the next space; with an OR before
 * it, which joins it to the term before (`site:a.org OR site:b.org`) and goes with it. Or a quoted phrase (an unclosed
 * one runs to the end), matched so that it is passed over whole: `"site:docs.rs is down"` is words to find.
 */
const SITE_TERM_OR_PHRASE = /"[^"]*"?|(?<!\S)(OR\s+)?(-?)[Ss][Ii][Tt][Ee]:(\S+)/g;
/** What a value may start with that is no part of an entry: `site:https://docs.rs/`. */
const SCHEME = /^https?:\/\//i;

/** The search each provider gets: as typed (for those that read site: terms), or without the terms. */
export interface SiteSearches {
  asTyped: SearchQuery;
  withoutTerms: SearchQuery;
}

/** The searches for a web search whose text holds site: terms; undefined for any other search. */
export function siteSearches(query: SearchQuery): SiteSearches | undefined {
  if (query.kind !== 'web' || !MAY_HOLD_SITE.test(query.text)) return undefined;
  const included: string[] = [];
  const excluded: string[] = [];
  const rest = query.text.replace(SITE_TERM_OR_PHRASE, (term: string, _or: string | undefined, minus: string | undefined, value: string | undefined) => {
    if (value === undefined) return term;
    const entry = entryOf(value);
    // A value that names no domain (`site:` alone, `site:localhost`) stays a word, as it was.
    if (entry === undefined) return term;
    (minus === '-' ? excluded : included).push(entry);
    return ' ';
  });
  if (included.length === 0 && excluded.length === 0) return undefined;
  const filters: SearchFilters = { ...query.filters };
  if (included.length > 0) filters.include_domains = [...(query.filters.include_domains ?? []), ...included];
  if (excluded.length > 0) filters.exclude_domains = [...(query.filters.exclude_domains ?? []), ...excluded];
  const text = rest.replace(/\s+/g, ' ').trim();
  // A search of site: terms alone keeps them: an empty text is no search, and the filter still holds.
  return { asTyped: { ...query, filters }, withoutTerms: { ...query, text: text === '' ? query.text : text, filters } };
}

/** The search a provider is sent: the text as typed when its API reads site: terms itself. */
export function siteSearchFor(provider: Provider, searches: SiteSearches): SearchQuery {
  return provider.settings.siteOperator === true ? searches.asTyped : searches.withoutTerms;
}

/** `docs.rs`, `https://Docs.rs/tokio/` as the entry `docs.rs/tokio`; undefined for a value that names no domain. */
function entryOf(value: string): string | undefined {
  const entry = value.replace(SCHEME, '').replace(/\/+$/, '');
  return DOMAIN_ENTRY.test(entry) ? lowerCaseHost(entry) : undefined;
}
