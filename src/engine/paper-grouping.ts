import { groupArrays } from './group-arrays.js';
import type { MergeGroup, RankedItem } from './ranked-item.js';
import {
  MAX_COMPARISONS_PER_TITLE,
  matchingIdentifiers,
  normalizeTitle,
  normalizedTitleBigramCount,
  normalizedTitleBigrams,
  titleBlocks,
  titleNotice,
  titlesSimilar,
  yearsCompatible,
} from './paper-identity.js';
import { titleWordsAdded } from './added-words.js';
import { titlesOpposite } from './opposite-titles.js';
import { titlesReplaceAWord } from './replaced-words.js';
import { TitleBlocks } from './title-blocks.js';
import { maySignOppositely, signedOppositely, titleSigns } from './title-signs.js';
import { differenceOfWords } from './title-differences.js';
import { placesOf, titleWords, type TitleWords } from './title-words.js';
import { agreeBeyondTitle, EXACT_ONLY_TITLE, titleStrength, WEAK_TITLE } from './weak-titles.js';
import { wordsApart, WordReadingBudget } from './word-reading-budget.js';

/** Bits of a set's identifier kinds: which of DOI, arXiv id and PMID some member of the set has. */
const HAS_DOI = 1;
const HAS_ARXIV_ID = 2;
const HAS_PMID = 4;

/**
 * Union-find over entry indexes: near-constant time per union, so grouping stays close to linear. Each root also
 * carries its set's identifier kinds, one byte per entry, so that a title match can be refused for what the two
 * whole sets are known by, not only the two entries compared.
 */
class DisjointSets {
  private readonly parent: Int32Array;
  private readonly identifierKinds: Uint8Array;
  constructor(size: number) {
    this.parent = new Int32Array(size);
    this.identifierKinds = new Uint8Array(size);
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
  /** Records an entry's identifier kinds; before the entry joins any set, while it is its own root. */
  setIdentifierKinds(index: number, kinds: number): void {
    this.identifierKinds[index] = kinds;
  }
  /**
   * Whether two roots' sets are both known by an identifier of the same kind. Every entry with a given identifier
   * is joined before titles are compared, and a union only adds sets together, so two different sets never share
   * an identifier's value: both having a DOI (or an arXiv id, or a PMID) means two different ones, two works.
   */
  rootsShareIdentifierKind(rootA: number, rootB: number): boolean {
    return (this.identifierKinds[rootA]! & this.identifierKinds[rootB]!) !== 0;
  }
  /** Joins two sets; the root of the joined set is its lowest index, and carries the identifier kinds of both. */
  union(a: number, b: number): void {
    const rootA = this.find(a);
    const rootB = this.find(b);
    if (rootA === rootB) return;
    const root = Math.min(rootA, rootB);
    this.parent[Math.max(rootA, rootB)] = root;
    this.identifierKinds[root] = this.identifierKinds[rootA]! | this.identifierKinds[rootB]!;
  }
}

/**
 * Papers are the same work when they share a DOI, an arXiv id or a PMID, or, failing identifiers, when
 * their normalised titles are similar (Dice ≥ 0.9) and their years differ by at most one; a generic or very short
 * title, or a notice (an erratum, a comment, a reply: never merged with the work it names), must also agree on an
 * author, or on venue and year (weak-titles.ts), and so must two Chinese or Japanese titles that are not the same;
 * titles that differ by a negation or an opposite word are two works (opposite-titles.ts), and so are titles that sign
 * a word oppositely ("ER+" and "ER−": title-signs.ts), titles that
 * differ by a word in place of another rather than another spelling of it (replaced-words.ts), or where one adds a
 * word of its subject (added-words.ts). Titles are only compared inside blocks (same first three words as spelled
 * alike, or same last three words), so cost grows close to linearly. A title match never joins two sets that each
 * have a different DOI, arXiv id or PMID, even through a third paper that has none: whichever of them it is
 * compared with first takes it, and the other stays a work of its own.
 */
export function groupPapers(entries: RankedItem[]): MergeGroup[] {
  const sets = new DisjointSets(entries.length);
  joinSharedIdentifiers(entries, sets);
  joinSimilarTitles(entries, sets);
  // A set's root is its lowest index, so its group is numbered when its first entry comes: groups in first-seen order.
  const groupOf = new Int32Array(entries.length);
  const groupOfRoot = new Int32Array(entries.length).fill(-1);
  const sizes = new Int32Array(entries.length);
  let groupCount = 0;
  for (let index = 0; index < entries.length; index += 1) {
    const root = sets.find(index);
    let group = groupOfRoot[root]!;
    if (group < 0) {
      group = groupCount;
      groupOfRoot[root] = group;
      groupCount += 1;
    }
    groupOf[index] = group;
    sizes[group] = sizes[group]! + 1;
  }
  return groupArrays(groupOf, sizes, groupCount, (index) => entries[index]!);
}

/**
 * Joins papers that share an identifier; one owner map per kind of identifier, so that no key string is built.
 * Sharing one identifier is taken as the same work even when another differs (same DOI, two arXiv ids): one
 * shared identifier is the rule the docs state (docs/ranking.md), and a source's second identifier is the
 * likelier mistake. Identifiers are read as matching reads them (matchingIdentifiers: an arXiv DOI is an arXiv
 * id), and each entry's kinds of identifier are recorded for the title comparisons that follow.
 */
function joinSharedIdentifiers(entries: RankedItem[], sets: DisjointSets): void {
  const doiOwners = new Map<string, number>();
  const arxivOwners = new Map<string, number>();
  const pmidOwners = new Map<string, number>();
  for (let index = 0; index < entries.length; index += 1) {
    const { doi, arxiv, pmid } = matchingIdentifiers(entries[index]!.item);
    sets.setIdentifierKinds(index, (doi === undefined ? 0 : HAS_DOI) | (arxiv === undefined ? 0 : HAS_ARXIV_ID) | (pmid === undefined ? 0 : HAS_PMID));
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

/**
 * Joins papers whose titles are similar and years compatible, unless their sets have different identifiers of
 * one kind, comparing inside blocks only. What each comparison reads first (the sets and their identifier kinds,
 * the years, the bigram counts) sits in typed arrays beside the entries: a crowded block compares a title with up
 * to 32 others, and following each one to its item object costs a cache miss once the results no longer fit the
 * cache.
 */
function joinSimilarTitles(entries: RankedItem[], sets: DisjointSets): void {
  const titles = entries.map((entry) => normalizeTitle(entry.item.title));
  // A year that is not a number is NaN here: the comparison then asks yearsCompatible about the items.
  const years = new Float64Array(entries.length);
  for (let index = 0; index < entries.length; index += 1) {
    const year = entries[index]!.item.year;
    years[index] = typeof year === 'number' ? year : Number.NaN;
  }
  // Counted the first time a title is compared (-1 until then).
  const bigramCounts = new Int32Array(entries.length).fill(-1);
  const bigramCountOf = (index: number): number => {
    let count = bigramCounts[index]!;
    if (count < 0) {
      count = normalizedTitleBigramCount(titles[index]!);
      bigramCounts[index] = count;
    }
    return count;
  };
  // A title's bigrams are counted the first time it is compared, then reused for every later comparison.
  const bigrams = new Map<string, Uint32Array>();
  const bigramsOf = (title: string): Uint32Array => {
    let counted = bigrams.get(title);
    if (counted === undefined) {
      counted = normalizedTitleBigrams(title);
      bigrams.set(title, counted);
    }
    return counted;
  };
  // What the numbers and word rules read of a title (title-words.ts), the first time a similar title is found for it.
  const readTitles: Array<TitleWords | undefined> = new Array<TitleWords | undefined>(entries.length);
  const readTitle = (index: number): TitleWords => (readTitles[index] ??= titleWords(entries[index]!.item.title, titles[index]!));
  // What the word rules (titlesDiffer) have read, for the title being placed and for every title, in every pair it was in.
  const budget = new WordReadingBudget(entries.length);
  /**
   * Whether two titles name one work: titlesSimilar, with the bigram counts of both titles, which rule most pairs
   * out before any bigram is found; then, for the few pairs that are similar, the same numbers in both
   * (sameTitleNumbers, read once per title), no negation or word turned into its opposite in one of them (titlesOpposite: "hyper…" and
   * "hypo…", "in vivo" and "in vitro") nor another word in place of one (titlesReplaceAWord: "… in adult mice" and
   * "… in adult rats", where "behaviour" and "behavior" are one word) nor a word of its subject more (titlesAddAWord:
   * "… in mice" and "… in mice and rats"), the same kind of notice (titleNotice: an erratum or a reply is never the
   * work it names, however alike their titles), and, for a generic or very short title ("Editorial", "Introduction",
   * "Deep learning"), a certain notice (two comments on one paper) or two Chinese or Japanese titles that are not the
   * same (titleStrength), agreement beyond it (agreeBeyondTitle: an author in common, or one venue in one year).
   */
  const similar = (index: number, other: number): boolean => {
    // A title being placed that has spent its share differs from every title but the same one (titlesDiffer): whether it
    // is alike to another by its bigrams, the longest test here for titles at their length bound, need not be found.
    if (budget.spent(index) && titles[index] !== titles[other]) return false;
    if (!titlesSimilar(titles[index]!, titles[other]!, bigramsOf, bigramCountOf(index), bigramCountOf(other))) return false;
    // Read from the titles as given, even where the normalised ones are the same: normalising took their signs out.
    if (signedDifferently(index, other)) return false;
    // The same normalised title holds the same numbers and words: only titles that differ are read.
    if (titles[index] !== titles[other] && (readTitle(index).numbers !== readTitle(other).numbers || titlesDiffer(index, other))) return false;
    const notice = noticeOf(index);
    const otherNotice = noticeOf(other);
    if (notice >> 1 !== otherNotice >> 1) return false;
    const needsAgreement = (notice & 1) === 1 || (otherNotice & 1) === 1 || !titleAlone(index, other);
    return !needsAgreement || agreeBeyondTitle(entries[index]!.item, entries[other]!.item);
  };
  // The words each title signs (title-signs.ts), found the first time it is in a pair that may sign one oppositely.
  let signs: Array<ReadonlyMap<string, number> | undefined> | undefined;
  const signsOf = (index: number): ReadonlyMap<string, number> => ((signs ??= new Array(entries.length))[index] ??= titleSigns(entries[index]!.item.title));
  /** Whether one title signs a word + where the other signs it − ("ER+ breast cancer" and "ER− breast cancer"): two works. */
  const signedDifferently = (index: number, other: number): boolean =>
    maySignOppositely(entries[index]!.item.title, entries[other]!.item.title) && signedOppositely(signsOf(index), signsOf(other));
  // The titles the title being placed was found to differ from (titlesDiffer) in its head block, so that its tail block,
  // which often holds the same titles, does not read each of those pairs again: made at its first such pair only.
  let placing = -1;
  let differsFrom: Set<number> | undefined;
  /**
   * Whether two titles that are not the same differ by a word turned, put in place of another or added: where they
   * differ is found once for the three rules that read it, and once per pair (a title is compared in its head block and
   * in its tail block, often with the same titles). Titles that hold the same words in another order differ in nearly
   * all of them: a hostile upstream's 500 such titles held a search for seconds when each rule found it again.
   */
  const titlesDiffer = (index: number, other: number): boolean => {
    if (placing === index && differsFrom!.has(other)) return true;
    // Past the budget, or alike to one of a crowd, two titles are taken to differ: it can keep two works apart, never join two.
    if (!budget.allows(index, other)) {
      budget.refused(index, other);
      return true;
    }
    const read = readTitle(index);
    const otherRead = readTitle(other);
    const difference = differenceOfWords(read.words, otherRead.words, placesOf(read), placesOf(otherRead));
    const differ =
      titlesOpposite(read.normalized, otherRead.normalized, difference) ||
      titlesReplaceAWord(read.normalized, otherRead.normalized, difference) ||
      titleWordsAdded(read, otherRead, difference);
    const { differingA, differingB } = difference;
    budget.spend(index, other, differingA.length + differingB.length, wordsApart(differingA, differingB), differ);
    if (!differ) return false;
    if (placing !== index) {
      placing = index;
      differsFrom = new Set();
    }
    differsFrom!.add(other);
    return true;
  };
  // Found once per title, the first time it matches another (-1 until then, then its TitleStrength).
  const strengths = new Int8Array(entries.length).fill(-1);
  const strength = (index: number): number => {
    let known = strengths[index]!;
    if (known < 0) {
      known = titleStrength(titles[index]!);
      strengths[index] = known;
    }
    return known;
  };
  /** Whether two similar titles make one work by themselves (titleStrength): neither weak, and the same when either is Chinese or Japanese. */
  const titleAlone = (index: number, other: number): boolean => {
    const own = strength(index);
    const others = strength(other);
    if (own === WEAK_TITLE || others === WEAK_TITLE) return false;
    return (own !== EXACT_ONLY_TITLE && others !== EXACT_ONLY_TITLE) || titles[index] === titles[other];
  };
  // Found once per title, the first time it matches another: -1 until then, then its kind × 2, plus 1 when certain.
  const notices = new Int8Array(entries.length).fill(-1);
  const noticeOf = (index: number): number => {
    let known = notices[index]!;
    if (known < 0) {
      const { kind, certain } = titleNotice(entries[index]!.item.title, titles[index]!);
      known = kind * 2 + (certain ? 1 : 0);
      notices[index] = known;
    }
    return known;
  };
  const yearsClose = (index: number, other: number): boolean => {
    const year = years[index]!;
    const otherYear = years[other]!;
    if (year === year && otherYear === otherYear) return yearsCompatible(year, otherYear);
    return yearsCompatible(entries[index]!.item.year, entries[other]!.item.year);
  };
  const compareInBlock = <Key extends string | number>(blocks: TitleBlocks<Key>, blockKey: Key, index: number): void => {
    const block = blocks.block(blockKey);
    let joined = false;
    // Every member looked at counts, so a crowded block costs at most MAX_COMPARISONS_PER_TITLE per title.
    let compared = 0;
    for (let other = blocks.firstMember(block); other >= 0 && compared < MAX_COMPARISONS_PER_TITLE; other = blocks.nextMember(other)) {
      compared += 1;
      const otherRoot = sets.find(other);
      const ownRoot = sets.find(index);
      if (otherRoot === ownRoot) {
        joined = true;
        continue;
      }
      if (yearsClose(index, other) && !sets.rootsShareIdentifierKind(ownRoot, otherRoot) && similar(index, other)) {
        sets.union(other, index);
        joined = true;
      }
    }
    // A block keeps one member per work: a title that joined a work already in it adds nothing to compare.
    if (!joined) blocks.append(block, index);
  };
  // Head, tail and whole-title blocks apart, so that a key needs no prefix to say which it is.
  const heads = new TitleBlocks<number>(entries.length);
  const tails = new TitleBlocks<string>(entries.length);
  const wholes = new TitleBlocks<string>(entries.length);
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
