import { asciiEntry } from '../domain/domain-entry.js';
import { singleSpaced } from '../domain/query-text.js';
import type { SearchFilters, SearchQuery } from '../domain/query.js';
import type { Provider } from '../providers/provider.js';
import { domainRuleOf, hostWithin, pathUnder, type DomainRule } from './filters.js';

/**
 * `site:docs.rs` and `-site:pinterest.com` typed in a web search. Brave reads them, and SearXNG's engines do; every
 * other API took them for words (Tavily and Exa, which take domains as parameters of their own; Hacker News,
 * MediaWiki, the local index), so their results came from anywhere, and the answer showed them. Here the terms
 * become include_domains and exclude_domains entries (beside any the caller gave): Tavily and Exa get them as
 * their own parameters, the engine filters the other providers' results by them, and those providers are sent the
 * text without them. A provider that reads them (ProviderSettings.siteOperator) is sent the text with its terms written
 * as the filter reads them (siteTermsAsRead), and its results pass the same filter.
 *
 * Typed terms and the include_domains parameter are two constraints, and a result must meet both, as Brave's and
 * SearXNG's do (they read the terms, and the engine holds their results to the parameter): the search's
 * include_domains are the entries where a typed one and a given one overlap (sharedEntries). Where none does, no
 * result could pass: the search is refused (siteTermsConflict). Excluded domains of either kind add up.
 */

/** Whether a text may hold a site: term at all: the one test nearly every search gets. */
const MAY_HOLD_SITE = /site:/i;
/**
 * `site:` or `-site:` (in any letter case) where a term starts, and its value up to the next space; with an OR before
 * it, which joins it to the term before (`site:a.org OR site:b.org`) and goes with it, or else one after it, which
 * joins it to the next and goes with it too (`site:a.org OR tokio` leaves `tokio`, not `OR tokio`: an operator with
 * nothing before it). One OR, not both: `tokio OR site:a.org OR rust` leaves `tokio OR rust`. Or a quoted phrase (an
 * unclosed one runs to the end), matched so that it is passed over whole: `"site:docs.rs is down"` is words to find.
 */
const SITE_TERM_OR_PHRASE = /"[^"]*"?|(?<!\S)(?:(OR\s+)(-?)[Ss][Ii][Tt][Ee]:(\S+)|(-?)[Ss][Ii][Tt][Ee]:(\S+)(\s+OR(?!\S))?)/g;
/** What a value may start with that is no part of an entry: `site:https://docs.rs/`. */
const SCHEME = /^https?:\/\//i;

/**
 * The search each provider gets: with its terms (for those that read site: terms), each written as the filter reads it
 * (siteTermsAsRead: `SITE:https://Docs.rs/` as `site:docs.rs`), or without the terms.
 */
export interface SiteSearches {
  asTyped: SearchQuery;
  withoutTerms: SearchQuery;
}

/** A text's site: terms as entries, and the text without them (space-separated, trimmed). */
interface SiteTerms {
  included: string[];
  excluded: string[];
  rest: string;
}

/** The site: terms of a text; undefined for a text without them (nearly every one: one test of it answers). */
function siteTermsOf(text: string): SiteTerms | undefined {
  if (!MAY_HOLD_SITE.test(text)) return undefined;
  const included: string[] = [];
  const excluded: string[] = [];
  const rest = text.replace(
    SITE_TERM_OR_PHRASE,
    (term: string, _orBefore: unknown, minusAfterOr: string | undefined, valueAfterOr: string | undefined, minus: string | undefined, value: string | undefined) => {
      const typed = valueAfterOr ?? value;
      if (typed === undefined) return term;
      const entry = entryOf(typed);
      // A value that names no domain (`site:` alone, `site:localhost`) stays a word, as it was.
      if (entry === undefined) return term;
      ((minusAfterOr ?? minus) === '-' ? excluded : included).push(entry);
      return ' ';
    },
  );
  if (included.length === 0 && excluded.length === 0) return undefined;
  return { included, excluded, rest: singleSpaced(rest).trim() };
}

/** The searches for a web search whose text holds site: terms; undefined for any other search. */
export function siteSearches(query: SearchQuery): SiteSearches | undefined {
  const terms = query.kind === 'web' ? siteTermsOf(query.text) : undefined;
  if (terms === undefined) return undefined;
  const { included, excluded, rest } = terms;
  const filters: SearchFilters = { ...query.filters };
  if (included.length > 0) filters.include_domains = includedDomains(included, query.filters.include_domains);
  if (excluded.length > 0) filters.exclude_domains = [...(query.filters.exclude_domains ?? []), ...excluded];
  // Those that read the terms are sent them as the filter reads them (siteTermsAsRead), as the cache key holds them. A
  // search of site: terms alone keeps them, so written, for every provider: an empty text is no search, and the filter
  // still holds.
  const asRead = siteTermsAsRead(query.text);
  return { asTyped: { ...query, text: asRead, filters }, withoutTerms: { ...query, text: rest === '' ? asRead : rest, filters } };
}

/**
 * A web search's text with each site: term written as the search reads it: `site:` in small letters, and the value as
 * its entry (entryOf: no scheme, no trailing slash, the host in small letters), so `SITE:Docs.rs`,
 * `site:https://docs.rs/` and `site:docs.rs` are one term. Providers that read site: terms themselves are sent this
 * text (siteSearches), and the cache key is made of it (cached-answer.ts cacheKey): the key then joins only searches
 * every provider is sent alike. A path keeps its case, a `www.` stays (those providers are sent it), and a term that
 * names no domain stays a word, as typed. The text itself when it holds no term (nearly every one).
 */
export function siteTermsAsRead(text: string): string {
  // Every search's key pays for this: a colon is looked for faster than the pattern is tried.
  if (!text.includes(':') || !MAY_HOLD_SITE.test(text)) return text;
  return text.replace(
    SITE_TERM_OR_PHRASE,
    (
      term: string,
      orBefore: string | undefined,
      minusAfterOr: string | undefined,
      valueAfterOr: string | undefined,
      minus: string | undefined,
      value: string | undefined,
      orAfter: string | undefined,
    ) => {
      const typed = valueAfterOr ?? value;
      const entry = typed === undefined ? undefined : entryOf(typed);
      if (entry === undefined) return term;
      return `${orBefore ?? ''}${minusAfterOr ?? minus ?? ''}site:${entry}${orAfter ?? ''}`;
    },
  );
}

/**
 * Why a web search cannot be made: its site: terms and its include_domains share no domain (`site:a.org` with
 * include_domains=b.org), so no result could meet both. Undefined for every other search.
 */
export function siteTermsConflict(kind: SearchQuery['kind'], text: string, filters: SearchFilters): string | undefined {
  const given = filters.include_domains;
  if (given === undefined || given.length === 0) return undefined;
  if (kind !== 'web') return undefined;
  const typed = siteTermsOf(text)?.included;
  if (typed === undefined || typed.length === 0 || sharedEntries(typed, given).length > 0) return undefined;
  return (
    `query: its site: terms (${typed.join(', ')}) and include_domains (${given.join(', ')}) share no domain, so no result ` +
    'could meet both; allowed: site: terms within include_domains (or the other way round), or only one of the two'
  );
}

/**
 * A text without its site: terms, for what reads its words for their meaning (providers=auto's topics): a site names
 * where to look, not what about (`site:github.com` is no code question). Of any kind of search: a papers search does
 * not read them, but they name no topic there either.
 */
export function withoutSiteTerms(text: string): string {
  return siteTermsOf(text)?.rest ?? text;
}

/**
 * The include_domains of a search with typed site: terms: those alone, or where they overlap the parameter's. A search
 * where they do not overlap at all never gets here: planSearch refuses it (siteTermsConflict).
 */
function includedDomains(typed: string[], given: string[] | undefined): string[] {
  if (given === undefined || given.length === 0) return typed;
  return sharedEntries(typed, given);
}

/**
 * The entries a result must match to meet one of `a` and one of `b`: for each pair, the narrower host (the same one,
 * or a subdomain of the other) under the longer path (the same one, or one under the other); no entry for a pair
 * that does not overlap (`a.org` and `b.org`, `a.org/x` and `a.org/y`). Entries are matched as engine/filters.ts
 * does: a host with its subdomains, a path with what lies under it, `www.`, a trailing slash and percent-encoding
 * (`/caf%C3%A9` is `/café`) making no difference.
 */
export function sharedEntries(a: readonly string[], b: readonly string[]): string[] {
  const shared = new Set<string>();
  for (const left of a) {
    for (const right of b) {
      const entry = overlap(left, right);
      if (entry !== undefined) shared.add(entry);
    }
  }
  return [...shared];
}

function overlap(left: string, right: string): string | undefined {
  const l = partsOf(left);
  const r = partsOf(right);
  const host = hostWithin(l.host, r.host) ? l : hostWithin(r.host, l.host) ? r : undefined;
  const path = pathUnder(l.path, r.path) ? l : pathUnder(r.path, l.path) ? r : undefined;
  return host === undefined || path === undefined ? undefined : `${host.spelled}${path.spelledPath}`;
}

/**
 * An entry as the filter takes it apart (domainRuleOf: a host without `www.`, `/caf%C3%A9` and `/café` one path, no
 * trailing slash), and its host and path as given, the path without a trailing slash.
 */
function partsOf(entry: string): DomainRule & { spelled: string; spelledPath: string } {
  const slash = entry.indexOf('/');
  const spelled = slash < 0 ? entry : entry.slice(0, slash);
  const spelledPath = slash < 0 ? '' : entry.slice(slash).replace(/\/+$/, '');
  return { ...domainRuleOf(entry), spelled, spelledPath };
}

/** The search a provider is sent: the text as typed when its API reads site: terms itself. */
export function siteSearchFor(provider: Provider, searches: SiteSearches): SearchQuery {
  return provider.settings.siteOperator === true ? searches.asTyped : searches.withoutTerms;
}

/**
 * `docs.rs`, `https://Docs.rs/tokio/` as the entry `docs.rs/tokio`, and `bücher.de` as `xn--bcher-kva.de`, as the
 * include_domains parameter reads it (asciiEntry); undefined for a value that names no domain.
 */
function entryOf(value: string): string | undefined {
  const entry = asciiEntry(value.replace(SCHEME, '').replace(/\/+$/, ''));
  return entry === '' ? undefined : entry;
}
