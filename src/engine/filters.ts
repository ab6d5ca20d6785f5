import type { FilterName, SearchFilters } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { timeRangeStart } from '../domain/time-range.js';
import { yearFrom } from '../providers/parse-helpers.js';
import { domainOf } from './canonical-url.js';

/** Filters the engine can apply to parsed results when the upstream could not. */
const POST_FILTERABLE: ReadonlySet<FilterName> = new Set(['include_domains', 'exclude_domains', 'time_range', 'year_from', 'year_to']);

const NO_FILTERS: readonly FilterName[] = Object.freeze([]);

/** Whether `filters` has any field at all, without building the list of its names. */
function hasFields(filters: SearchFilters): boolean {
  for (const name in filters) if (Object.hasOwn(filters, name)) return true;
  return false;
}

/** The filters a request actually sets (empty lists and undefined do not count). */
export function requestedFilters(filters: SearchFilters): readonly FilterName[] {
  // Most searches set none, and each provider of a fan-out asks twice (may it be asked, what is left to do after).
  if (!hasFields(filters)) return NO_FILTERS;
  return (Object.keys(filters) as Array<keyof SearchFilters>).filter((name): name is FilterName => {
    if (name === 'scope') return false;
    const value = filters[name];
    return value !== undefined && !(Array.isArray(value) && value.length === 0);
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

/** Requested filters this provider can neither apply upstream nor the engine afterwards: it must be skipped. */
export function unsupportedFilters(filters: SearchFilters, native: readonly FilterName[]): readonly FilterName[] {
  return notAppliedUpstream(filters, native, engineCannotApply);
}

/** Requested filters the provider does not apply upstream and the engine applies to its parsed results. */
export function postFilters(filters: SearchFilters, native: readonly FilterName[]): readonly FilterName[] {
  return notAppliedUpstream(filters, native, engineApplies);
}

function matchesDomain(url: string, domains: string[]): boolean {
  const host = domainOf(url);
  if (!host) return false;
  return domains.some((domain) => {
    const wanted = domain.toLowerCase().replace(/^www\./, '');
    return host === wanted || host.endsWith(`.${wanted}`);
  });
}

/**
 * Applies, after parsing, the requested filters the provider did not apply upstream. An item that lacks the
 * data a filter needs (no date for a time range) cannot be shown to match and is left out.
 */
export function applyPostFilters(items: ProviderItem[], filters: SearchFilters, native: readonly FilterName[], now = Date.now()): ProviderItem[] {
  const pending = postFilters(filters, native);
  if (pending.length === 0) return items;
  return items.filter((item) =>
    pending.every((name) => {
      switch (name) {
        case 'include_domains':
          return matchesDomain(item.url, filters.include_domains ?? []);
        case 'exclude_domains':
          return !matchesDomain(item.url, filters.exclude_domains ?? []);
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
