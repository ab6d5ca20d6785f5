import type { ProviderItem, SearchKind } from '../domain/result.js';
import { urlIdentity } from './canonical-url.js';
import {
  MAX_COMPARISONS_PER_TITLE,
  matchingIdentifiers,
  normalizeTitle,
  titleBigrams,
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

/**
 * Web duplicates share a canonical URL; similar titles alone never merge two pages. Each URL is parsed once.
 * Two passes: the first finds each entry's group (a number) while parsing, the second makes each group's
 * array at its final size. On large inputs the first pass's short-lived strings set off young-generation
 * collections, and each copies whatever is alive by then: numbers in typed arrays instead of objects and
 * half-filled arrays keep that small.
 */
export function groupByUrl(entries: RankedItem[]): MergeGroup[] {
  const groupOfKey = new Map<string, number>();
  const groupOf = new Int32Array(entries.length);
  const domains: Array<string | undefined> = new Array<string | undefined>(entries.length);
  // At most one group per entry: sized once, never grown.
  const sizes = new Int32Array(entries.length);
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
  // Groups in the order their first member came, each member in entry order.
  const groups: MergeGroup[] = new Array<MergeGroup>(groupCount);
  const filled = new Int32Array(groupCount);
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index]!;
    const group = groupOf[index]!;
    // A literal of one shape, not a spread: this runs for every web result of every search.
    const located: RankedItem = { provider: entry.provider, rank: entry.rank, weight: entry.weight, item: entry.item, domain: domains[index] };
    const size = sizes[group]!;
    if (size === 1) groups[group] = [located];
    else {
      if (filled[group] === 0) groups[group] = new Array<RankedItem>(size);
      groups[group]![filled[group]!] = located;
      filled[group] = filled[group]! + 1;
    }
  }
  return groups;
}

/** Union-find over entry indexes: near-constant time per union, so grouping stays close to linear. */
class DisjointSets {
  private readonly parent: Int32Array;
  constructor(size: number) {
    this.parent = new Int32Array(size);
    for (let index = 0; index < size; index += 1) this.parent[index] = index;
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
  /** Joins two sets; the root of the joined set is its lowest index. */
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
  joinSharedIdentifiers(entries, sets);
  joinSimilarTitles(entries, sets);
  const groups: MergeGroup[] = [];
  // A set's root is its lowest index, so its group is made when its first entry comes: groups in first-seen order.
  const groupOfRoot: Array<MergeGroup | undefined> = new Array<MergeGroup | undefined>(entries.length);
  for (let index = 0; index < entries.length; index += 1) {
    const root = sets.find(index);
    const group = groupOfRoot[root];
    if (group) group.push(entries[index]!);
    else {
      const created = [entries[index]!];
      groupOfRoot[root] = created;
      groups.push(created);
    }
  }
  return groups;
}

/** Joins papers that share an identifier; one owner map per kind of identifier, so that no key string is built. */
function joinSharedIdentifiers(entries: RankedItem[], sets: DisjointSets): void {
  const doiOwners = new Map<string, number>();
  const arxivOwners = new Map<string, number>();
  const pmidOwners = new Map<string, number>();
  for (let index = 0; index < entries.length; index += 1) {
    const { doi, arxiv, pmid } = matchingIdentifiers(entries[index]!.item);
    if (doi !== undefined) joinOwner(doiOwners, doi, index, sets);
    if (arxiv !== undefined) joinOwner(arxivOwners, arxiv, index, sets);
    if (pmid !== undefined) joinOwner(pmidOwners, pmid, index, sets);
  }
}

/** The first entry with an identifier owns it; each later one joins the owner's set. */
function joinOwner(owners: Map<string, number>, identifier: string, index: number, sets: DisjointSets): void {
  const owner = owners.get(identifier);
  if (owner === undefined) owners.set(identifier, index);
  else sets.union(owner, index);
}

/** Joins papers without a conflicting identifier whose titles are similar and years compatible, comparing inside blocks only. */
function joinSimilarTitles(entries: RankedItem[], sets: DisjointSets): void {
  const titles = entries.map((entry) => normalizeTitle(entry.item.title));
  // A title's bigrams are counted the first time it is compared, then reused for every later comparison.
  const bigrams = new Map<string, Uint32Array>();
  const bigramsOf = (title: string): Uint32Array => {
    let counted = bigrams.get(title);
    if (counted === undefined) {
      counted = titleBigrams(title);
      bigrams.set(title, counted);
    }
    return counted;
  };
  // Head, tail and whole-title blocks apart, so that a key needs no prefix to say which it is.
  const heads = new Map<string, number[]>();
  const tails = new Map<string, number[]>();
  const wholes = new Map<string, number[]>();
  const compareInBlock = (blocks: Map<string, number[]>, blockKey: string, index: number): void => {
    let members = blocks.get(blockKey);
    if (!members) {
      members = [];
      blocks.set(blockKey, members);
    }
    const item = entries[index]!.item;
    const title = titles[index]!;
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
      if (yearsCompatible(item.year, otherItem.year) && !identifiersConflict(item, otherItem) && titlesSimilar(title, titles[other]!, bigramsOf)) {
        sets.union(other, index);
        joined = true;
      }
    }
    // A block keeps one member per work: a title that joined a work already in it adds nothing to compare.
    if (!joined) members.push(index);
  };
  for (let index = 0; index < entries.length; index += 1) {
    const title = titles[index]!;
    if (title === '') continue;
    const blocks = titleBlocks(title);
    if ('whole' in blocks) compareInBlock(wholes, blocks.whole, index);
    else {
      compareInBlock(heads, blocks.head, index);
      compareInBlock(tails, blocks.tail, index);
    }
  }
}
