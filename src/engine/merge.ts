import type { ProviderItem, SearchKind } from '../domain/result.js';
import { urlIdentity } from './canonical-url.js';
import {
  MAX_COMPARISONS_PER_TITLE,
  identifierKeys,
  normalizeTitle,
  titleBlocks,
  titlesSimilar,
  yearsCompatible,
} from './paper-identity.js';

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

/** Web duplicates share a canonical URL; similar titles alone never merge two pages. Each URL is parsed once. */
export function groupByUrl(entries: RankedItem[]): MergeGroup[] {
  const groups = new Map<string, MergeGroup>();
  for (const entry of entries) {
    const { key, domain } = urlIdentity(entry.item.url);
    // A literal of one shape, not a spread: this runs for every web result of every search.
    const located: RankedItem = { provider: entry.provider, rank: entry.rank, weight: entry.weight, item: entry.item, domain };
    const group = groups.get(key);
    if (group) group.push(located);
    else groups.set(key, [located]);
  }
  return [...groups.values()];
}

/** Union-find over entry indexes: near-constant time per union, so grouping stays close to linear. */
class DisjointSets {
  private readonly parent: number[];
  constructor(size: number) {
    this.parent = Array.from({ length: size }, (_, index) => index);
  }
  find(index: number): number {
    let root = index;
    while (this.parent[root] !== root) root = this.parent[root]!;
    // Path compression keeps later finds short.
    for (let node = index; this.parent[node] !== root; ) {
      const next = this.parent[node]!;
      this.parent[node] = root;
      node = next;
    }
    return root;
  }
  union(a: number, b: number): void {
    const rootA = this.find(a);
    const rootB = this.find(b);
    if (rootA !== rootB) this.parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
  }
}

/** Two papers with different values of the same identifier are different works, however alike their titles. */
function identifiersConflict(a: ProviderItem, b: ProviderItem): boolean {
  return (
    (a.doi !== undefined && b.doi !== undefined && a.doi !== b.doi) ||
    (a.arxiv_id !== undefined && b.arxiv_id !== undefined && a.arxiv_id !== b.arxiv_id) ||
    (a.pmid !== undefined && b.pmid !== undefined && a.pmid !== b.pmid)
  );
}

/**
 * Papers are the same work when they share a DOI, an arXiv id or a PMID, or, failing identifiers, when
 * their normalised titles are similar (Dice ≥ 0.9) and their years differ by at most one. Titles are only
 * compared inside blocks (same first or last three words), so cost grows close to linearly.
 */
export function groupPapers(entries: RankedItem[]): MergeGroup[] {
  const sets = new DisjointSets(entries.length);
  const identifierOwner = new Map<string, number>();
  entries.forEach((entry, index) => {
    for (const key of identifierKeys(entry.item)) {
      const owner = identifierOwner.get(key);
      if (owner === undefined) identifierOwner.set(key, index);
      else sets.union(owner, index);
    }
  });

  const blocks = new Map<string, number[]>();
  const titles = entries.map((entry) => normalizeTitle(entry.item.title));
  entries.forEach((entry, index) => {
    const title = titles[index]!;
    if (title === '') return;
    for (const blockKey of titleBlocks(title)) {
      let members = blocks.get(blockKey);
      if (!members) {
        members = [];
        blocks.set(blockKey, members);
      }
      let joined = false;
      // Every member looked at counts, so a crowded block costs at most MAX_COMPARISONS_PER_TITLE per title.
      const compared = Math.min(members.length, MAX_COMPARISONS_PER_TITLE);
      for (let position = 0; position < compared; position += 1) {
        const other = members[position]!;
        if (sets.find(other) === sets.find(index)) {
          joined = true;
          continue;
        }
        const otherItem = entries[other]!.item;
        if (
          yearsCompatible(entry.item.year, otherItem.year) &&
          !identifiersConflict(entry.item, otherItem) &&
          titlesSimilar(title, titles[other]!)
        ) {
          sets.union(other, index);
          joined = true;
        }
      }
      // A block keeps one member per work: a title that joined a work already in it adds nothing to compare.
      if (!joined) members.push(index);
    }
  });

  const groups = new Map<number, MergeGroup>();
  entries.forEach((entry, index) => {
    const root = sets.find(index);
    const group = groups.get(root);
    if (group) group.push(entry);
    else groups.set(root, [entry]);
  });
  return [...groups.values()];
}
