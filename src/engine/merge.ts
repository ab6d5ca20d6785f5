import type { SearchKind } from '../domain/result.js';
import { domainOf, parsedUrlIdentity, plainUrlKey } from './canonical-url.js';
import { groupArrays } from './group-arrays.js';
import { groupPapers } from './paper-grouping.js';
import type { MergeGroup, RankedItem } from './ranked-item.js';

export type { MergeGroup, RankedItem } from './ranked-item.js';

/** Groups results of one kind: papers by identifiers and similar titles, everything else by canonical URL. */
export function groupResults(kind: SearchKind, entries: RankedItem[]): MergeGroup[] {
  return kind === 'papers' ? groupPapers(entries) : groupByUrl(entries);
}

/**
 * Web duplicates share a canonical URL; similar titles alone never merge two pages. Each URL is parsed once:
 * a URL the parser would give back unchanged is keyed by slicing it (ranking slices its domain out the same
 * way), and an entry whose URL the parser had to read is copied with the domain it found, so that ranking
 * need not parse it again.
 *
 * Two passes: the first finds each entry's group (a number), the second makes the groups. On large inputs the
 * first pass's short-lived strings set off young-generation collections, each of which copies whatever is
 * alive by then: numbers in typed arrays rather than objects, and no copy of an entry that needs none, keep
 * that small.
 */
export function groupByUrl(entries: RankedItem[]): MergeGroup[] {
  const groupOfKey = new Map<string, number>();
  const groupOf = new Int32Array(entries.length);
  // At most one group per entry: sized once, never grown.
  const sizes = new Int32Array(entries.length);
  let located: Array<RankedItem | undefined> | undefined;
  let groupCount = 0;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index]!;
    let key = plainUrlKey(entry.item.url);
    let domain: string | undefined;
    if (key === undefined) {
      const identity = parsedUrlIdentity(entry.item.url);
      key = identity.key;
      domain = identity.domain;
    } else if (entry.domain !== undefined) {
      // A domain that came with the entry gives way to its URL's, as it always has.
      domain = domainOf(entry.item.url);
    }
    if (domain !== undefined || entry.domain !== undefined) {
      located ??= new Array<RankedItem | undefined>(entries.length);
      // A literal of one shape, not a spread.
      located[index] = { provider: entry.provider, rank: entry.rank, weight: entry.weight, item: entry.item, domain };
    }
    let group = groupOfKey.get(key);
    if (group === undefined) {
      group = groupCount;
      groupOfKey.set(key, group);
      groupCount += 1;
    }
    sizes[group] = sizes[group]! + 1;
    groupOf[index] = group;
  }
  return groupArrays(groupOf, sizes, groupCount, (index) => located?.[index] ?? entries[index]!);
}
