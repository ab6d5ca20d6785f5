import type { ProviderItem, SearchKind } from '../domain/result.js';
import { urlIdentity } from './canonical-url.js';
import { groupArrays } from './group-arrays.js';
import { groupPapers } from './paper-grouping.js';

/** One item as one provider ranked it (rank is 1-based), with that provider's weight. */
export interface RankedItem {
  provider: string;
  rank: number;
  weight: number;
  item: ProviderItem;
  /** The host of item.url without `www.`, when merging has already parsed it (ranking then need not). */
  domain?: string | undefined;
}

/** Items that name the same thing, found by one or more providers. */
export type MergeGroup = RankedItem[];

/** Groups results of one kind: papers by identifiers and similar titles, everything else by canonical URL. */
export function groupResults(kind: SearchKind, entries: RankedItem[]): MergeGroup[] {
  return kind === 'papers' ? groupPapers(entries) : groupByUrl(entries);
}

/**
 * Web duplicates share a canonical URL; similar titles alone never merge two pages. Each URL is parsed once.
 * Two passes: the first finds each entry's group (a number) while parsing, the second makes the groups. On
 * large inputs the first pass's short-lived strings set off young-generation collections, each of which copies
 * whatever is alive by then: numbers in typed arrays rather than objects and half-filled arrays keep that small.
 */
export function groupByUrl(entries: RankedItem[]): MergeGroup[] {
  const groupOfKey = new Map<string, number>();
  const groupOf = new Int32Array(entries.length);
  // At most one group per entry: sized once, never grown.
  const sizes = new Int32Array(entries.length);
  const domains: Array<string | undefined> = new Array<string | undefined>(entries.length);
  let groupCount = 0;
  for (let index = 0; index < entries.length; index += 1) {
    const { key, domain } = urlIdentity(entries[index]!.item.url);
    domains[index] = domain;
    let group = groupOfKey.get(key);
    if (group === undefined) {
      group = groupCount;
      groupOfKey.set(key, group);
      groupCount += 1;
    }
    sizes[group] = sizes[group]! + 1;
    groupOf[index] = group;
  }
  return groupArrays(groupOf, sizes, groupCount, (index): RankedItem => {
    const entry = entries[index]!;
    // A literal of one shape, not a spread: this runs for every web result of every search.
    return { provider: entry.provider, rank: entry.rank, weight: entry.weight, item: entry.item, domain: domains[index] };
  });
}
