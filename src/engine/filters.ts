import { withoutWww } from '../domain/domain-entry.js';
import { asksForNothing, type FilterName, type SearchFilters } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { isParserStableHttpUrl } from '../domain/plain-url.js';
import { timeRangeStart } from '../domain/time-range.js';
import { yearFrom } from '../providers/parse-helpers.js';
import type { ProviderSettings } from '../providers/provider.js';
import { domainOf, samePercentEncoding } from './canonical-url.js';

/** Filters the engine can apply to parsed results when the upstream could not. */
const POST_FILTERABLE: ReadonlySet<FilterName> = new Set(['include_domains', 'exclude_domains', 'time_range', 'year_from', 'year_to']);

const NO_FILTERS: readonly FilterName[] = Object.freeze([]);
const NO_ENTRIES: readonly string[] = Object.freeze([]);

/** Whether `filters` has any field at all, without building the list of its names. */
function hasFields(filters: SearchFilters): boolean {
  for (const name in filters) if (Object.hasOwn(filters, name)) return true;
  return false;
}

/** The filters a request actually sets: undefined and a value that asks for nothing (domain/query.ts asksForNothing) do not count. */
export function requestedFilters(filters: SearchFilters): readonly FilterName[] {
  // Most searches set none, and each provider of a fan-out asks twice (may it be asked, what is left to do after).
  if (!hasFields(filters)) return NO_FILTERS;
  return (Object.keys(filters) as Array<keyof SearchFilters>).filter((name): name is FilterName => {
    if (name === 'scope') return false;
    const value = filters[name];
    return value !== undefined && !asksForNothing(name, value);
  });
}

/** Requested filters the provider does not apply upstream, of those `kind` picks out; the shared empty list when none. */
function notAppliedUpstream(filters: SearchFilters, native: readonly FilterName[], kind: (name: FilterName) => boolean): readonly FilterName[] {
  const requested = requestedFilters(filters);
  if (requested.length === 0) return NO_FILTERS;
  return requested.filter((name) => !native.includes(name) && kind(name));
}

const engineApplies = (name: FilterName): boolean => POST_FILTERABLE.has(name);
const engineCannotApply = (name: FilterName): boolean => !POST_FILTERABLE.has(name);
/** For results without a publication date, a time range is as far out of the engine's reach as a language. */
const engineCannotApplyUndated = (name: FilterName): boolean => name === 'time_range' || !POST_FILTERABLE.has(name);

/**
 * Requested filters this provider can neither apply upstream nor the engine afterwards: it must be skipped. `undated`:
 * its results carry no publication date (ProviderSettings.undated), so a time range is one of them.
 */
export function unsupportedFilters(filters: SearchFilters, native: readonly FilterName[], undated = false): readonly FilterName[] {
  return notAppliedUpstream(filters, native, undated ? engineCannotApplyUndated : engineCannotApply);
}

/** Whether a domain list holds an entry with a path (`docs.example.com/guide`). */
function hasPathEntry(entries: readonly string[] | undefined): boolean {
  return entries !== undefined && entries.some((entry) => entry.includes('/'));
}

/**
 * The filters a provider applies upstream to this search: those it declares, but for include_domains and
 * exclude_domains when an entry has a path and its API takes domains only (ProviderSettings.domainPaths is not
 * set; Tavily is sent the hosts): the engine then applies the entries to its results, as for any other provider.
 */
export function upstreamFilters(filters: SearchFilters, settings: Pick<ProviderSettings, 'filters' | 'domainPaths'>): readonly FilterName[] {
  const native = settings.filters ?? NO_FILTERS;
  if (settings.domainPaths === true || !(hasPathEntry(filters.include_domains) || hasPathEntry(filters.exclude_domains))) return native;
  return native.filter((name) => name !== 'include_domains' && name !== 'exclude_domains');
}

/** Requested filters the provider does not apply upstream and the engine applies to its parsed results. */
export function postFilters(filters: SearchFilters, native: readonly FilterName[]): readonly FilterName[] {
  return notAppliedUpstream(filters, native, engineApplies);
}

/** One include_domains / exclude_domains entry taken apart: a host, and the path under it ('' for the whole host). */
export interface DomainRule {
  host: string;
  path: string;
}

/** The rules of each entry list: a search hands the same list to each of its providers, and each asks for every result. */
const rulesOfEntries = new WeakMap<readonly string[], readonly DomainRule[]>();

function domainRulesOf(entries: readonly string[]): readonly DomainRule[] {
  let rules = rulesOfEntries.get(entries);
  if (rules === undefined) {
    rules = entries.map(domainRuleOf);
    rulesOfEntries.set(entries, rules);
  }
  return rules;
}

/**
 * `docs.example.com/guide/` as host `docs.example.com` and path `/guide`. The path is read by the URL parser (on a
 * fixed host, which cannot fail) and compared as result paths are (comparablePath), so both meet however spelled.
 * The host loses a `www.` as the cache key and Tavily and Exa take it (withoutWww): `www.com` stays that one host,
 * where dropping every `www.` read it as `com`, and kept (or, excluded, dropped) every .com site.
 * Exported for what must judge entries as the filter will (site-terms.ts, where two spellings of one path are one
 * place, not two).
 */
export function domainRuleOf(entry: string): DomainRule {
  const slash = entry.indexOf('/');
  const host = withoutWww((slash < 0 ? entry : entry.slice(0, slash)).toLowerCase());
  return { host, path: slash < 0 ? '' : comparablePath(new URL(`http://host${entry.slice(slash)}`).pathname) };
}

/** Whether `host` is a rule's host (`other`) or one of its subdomains. */
export function hostWithin(host: string, other: string): boolean {
  return host === other || host.endsWith(`.${other}`);
}

/** Whether `path` is a rule's path (`other`) or lies under it, at a segment boundary: `/guide` holds `/guide/intro`, not `/guides`. */
export function pathUnder(path: string, other: string): boolean {
  return other === '' || path === other || path.startsWith(`${other}/`);
}

/** `%3A` and `:` alike (as merge keys read them), and `/guide/` as `/guide`: a trailing slash names no other place. */
function comparablePath(pathname: string): string {
  return samePercentEncoding(pathname).replace(/\/+$/, '');
}

/** The path of a URL the parser gives back unchanged: from the `/` after the host up to a query or fragment. */
const PLAIN_URL_PATH = /^https?:\/\/[^/]*(\/[^?#]*)/;

/** A result URL's path as the URL parser reads it; sliced out, without a parse, when the parser would not change it. */
function pathOf(url: string): string {
  if (isParserStableHttpUrl(url)) return PLAIN_URL_PATH.exec(url)?.[1] ?? '';
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/**
 * A result's host as rules read theirs (withoutWww). domainOf drops every `www.`, so `https://www.com/` came out as
 * `com`; a host of one label is read again, without the slicing (rare: `localhost`, `www.com`).
 */
function hostOf(url: string): string | undefined {
  const host = domainOf(url);
  if (host === undefined || host.includes('.')) return host;
  try {
    return withoutWww(new URL(url).hostname.replace(/\.$/, ''));
  } catch {
    return undefined;
  }
}

/** Whether `url` is on a rule's host or one of its subdomains and, when the rule has a path, at or under it. */
function matchesDomain(url: string, rules: readonly DomainRule[]): boolean {
  const host = hostOf(url);
  if (!host) return false;
  // Read only when a rule with a path matches the host: host-only filters (most) never need it.
  let path: string | undefined;
  return rules.some((rule) => {
    if (!hostWithin(host, rule.host)) return false;
    if (rule.path === '') return true;
    path ??= comparablePath(pathOf(url));
    return pathUnder(path, rule.path);
  });
}

/**
 * Applies, after parsing, the requested filters the provider did not apply upstream. An item that lacks the
 * data a filter needs (no date for a time range) cannot be shown to match and is left out.
 */
export function applyPostFilters(items: ProviderItem[], filters: SearchFilters, native: readonly FilterName[], now = Date.now()): ProviderItem[] {
  const pending = postFilters(filters, native);
  if (pending.length === 0) return items;
  const included = domainRulesOf(filters.include_domains ?? NO_ENTRIES);
  const excluded = domainRulesOf(filters.exclude_domains ?? NO_ENTRIES);
  return items.filter((item) =>
    pending.every((name) => {
      switch (name) {
        case 'include_domains':
          return matchesDomain(item.url, included);
        case 'exclude_domains':
          return !matchesDomain(item.url, excluded);
        case 'time_range': {
          const published = item.published_at ? Date.parse(item.published_at) : Number.NaN;
          return !Number.isNaN(published) && published >= timeRangeStart(filters.time_range!, now);
        }
        case 'year_from':
        case 'year_to': {
          const year = item.year ?? yearFrom(item.published_at);
          if (year === undefined) return false;
          return name === 'year_from' ? year >= filters.year_from! : year <= filters.year_to!;
        }
        default:
          return true;
      }
    }),
  );
}
