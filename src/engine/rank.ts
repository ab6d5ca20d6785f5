import type { ProviderItem, ResultSource, ScoreContribution, SearchResult } from '../domain/result.js';
import { domainOf } from './canonical-url.js';
import type { MergeGroup, RankedItem } from './merge.js';
import { distinctPdfLinks } from './pdf-links.js';
import { rankingOrder } from './result-order.js';

/** The k of reciprocal rank fusion: larger k flattens the advantage of top positions. */
export const DEFAULT_RRF_K = 60;

export interface RankOptions {
  k?: number;
  explain?: boolean;
  /**
   * How many of the ranked results to make, from the first: a caller that shows one page and keeps nothing
   * needs no more. Every group is still scored and ranked (the first places depend on all of them); only the
   * results past this many are never made. All of them when unset.
   */
  atMost?: number;
}

/**
 * Weighted reciprocal rank fusion: score = Σ over providers of weight / (k + rank). A provider that listed
 * the same thing twice counts once, at its best rank.
 */
export function rankResults(groups: MergeGroup[], options: RankOptions = {}): SearchResult[] {
  const k = options.k ?? DEFAULT_RRF_K;
  const explain = options.explain === true;
  const count = groups.length;
  // Anything but a number below the count (unset, NaN, more than there are) makes them all.
  const made = options.atMost !== undefined && options.atMost < count ? Math.max(0, Math.floor(options.atMost)) : count;
  // Results of groups of several entries, made as they are scored (their contributions are worked out once);
  // a single entry's result is made only if it ranks among the first `made`, from its entry.
  const results: Array<SearchResult | undefined> = new Array<SearchResult | undefined>(count);
  // What ranking sorts by, in typed arrays beside the results (sized once, outside the collected heap when
  // large) rather than in a wrapper object per result.
  const sortKeys: SortKeys = { scores: new Float64Array(count), sourceCounts: new Int32Array(count), bestRanks: new Float64Array(count) };
  for (let index = 0; index < count; index += 1) {
    const group = groups[index]!;
    if (group.length === 1) scoreSingle(group[0]!, k, sortKeys, index);
    else results[index] = scoreGroup(group, k, explain, sortKeys, index);
  }
  const order = rankingOrder(sortKeys.scores, sortKeys.sourceCounts, sortKeys.bestRanks);
  const ranked: SearchResult[] = new Array<SearchResult>(made);
  for (let position = 0; position < made; position += 1) {
    const index = order[position]!;
    ranked[position] = results[index] ?? singleResult(groups[index]![0]!, k, explain, sortKeys.scores[index]!);
  }
  return ranked;
}

interface SortKeys {
  /** Each result's (rounded) score, its number of sources and its best rank: what ranking sorts by, in that order. */
  scores: Float64Array;
  sourceCounts: Int32Array;
  bestRanks: Float64Array;
}

/** Most groups hold one item: no per-provider bookkeeping, no sorting, one source. */
function scoreSingle(entry: RankedItem, k: number, sortKeys: SortKeys, index: number): void {
  sortKeys.scores[index] = round(entry.weight / (k + entry.rank));
  sortKeys.sourceCounts[index] = 1;
  sortKeys.bestRanks[index] = entry.rank;
}

/** A single entry's result, with the score scoreSingle gave it. */
function singleResult(entry: RankedItem, k: number, explain: boolean, score: number): SearchResult {
  const result = copyOf(entry.item);
  result.score = score;
  result.sources = [{ provider: entry.provider, rank: entry.rank }];
  const domain = entry.domain !== undefined && entry.item.url === result.url ? entry.domain : domainOf(result.url);
  if (domain) result.domain = domain;
  if (explain) result.explain = [{ provider: entry.provider, rank: entry.rank, weight: entry.weight, contribution: round(entry.weight / (k + entry.rank)) }];
  return result;
}

function scoreGroup(group: MergeGroup, k: number, explain: boolean, sortKeys: SortKeys, index: number): SearchResult {
  // One contribution per provider at its best rank, then best first; once rounded they are the explanation.
  const contributions = bestContributions(group, k);
  insertionSort(contributions, byContribution);
  let score = 0;
  let bestRank = Number.POSITIVE_INFINITY;
  // Arrays of the answer made at their size: one grown by push keeps 17 slots for two sources.
  const sources: ResultSource[] = new Array<ResultSource>(contributions.length);
  for (let position = 0; position < contributions.length; position += 1) {
    const part = contributions[position]!;
    score += part.contribution;
    if (part.rank < bestRank) bestRank = part.rank;
    sources[position] = { provider: part.provider, rank: part.rank };
  }
  // Members ordered best source first: fields are filled from the best source that has them.
  const members = bestSourceFirst(group, contributions);
  const result = combineFields(members) as SearchResult;
  result.score = round(score);
  result.sources = sources;
  const lead = members[0]!;
  // Merging parsed the lead's URL already (web results); anything else is parsed here.
  const domain = lead.domain !== undefined && lead.item.url === result.url ? lead.domain : domainOf(result.url);
  if (domain) result.domain = domain;
  if (explain) {
    for (const part of contributions) part.contribution = round(part.contribution);
    result.explain = contributions;
  }
  // pdf_url is the first of them: paper_read tries the others when it fails. Added last, so that results without
  // it (every web result, most papers) keep the shapes they had.
  const pdfUrls = distinctPdfLinks(members);
  if (pdfUrls !== undefined) result.pdf_urls = pdfUrls;
  sortKeys.scores[index] = result.score;
  sortKeys.sourceCounts[index] = sources.length;
  sortKeys.bestRanks[index] = bestRank;
  return result;
}

function byContribution(a: ScoreContribution, b: ScoreContribution): number {
  return b.contribution - a.contribution || a.rank - b.rank;
}

/** A stable sort for the few entries of one group (one per provider), without the set-up of Array.prototype.sort. */
function insertionSort<T>(values: T[], compare: (a: T, b: T) => number): void {
  for (let index = 1; index < values.length; index += 1) {
    const value = values[index]!;
    let position = index;
    while (position > 0 && compare(values[position - 1]!, value) > 0) {
      values[position] = values[position - 1]!;
      position -= 1;
    }
    values[position] = value;
  }
}

/**
 * Each provider's contribution from its best-ranked entry of a group, in first-seen order: a provider that
 * listed a thing twice counts once.
 */
function bestContributions(group: MergeGroup, k: number): ScoreContribution[] {
  // Made at its size (the number of providers), since it becomes the answer's explanation.
  const contributions: ScoreContribution[] = new Array<ScoreContribution>(providerCount(group));
  let filled = 0;
  for (const entry of group) {
    let index = 0;
    while (index < filled && contributions[index]!.provider !== entry.provider) index += 1;
    if (index === filled) {
      contributions[index] = { provider: entry.provider, rank: entry.rank, weight: entry.weight, contribution: entry.weight / (k + entry.rank) };
      filled += 1;
    } else if (entry.rank < contributions[index]!.rank) {
      const part = contributions[index]!;
      part.rank = entry.rank;
      part.weight = entry.weight;
      part.contribution = entry.weight / (k + entry.rank);
    }
  }
  return contributions;
}

/** How many providers a group's entries come from. */
function providerCount(group: MergeGroup): number {
  let count = 0;
  for (let index = 0; index < group.length; index += 1) {
    const provider = group[index]!.provider;
    let earlier = 0;
    while (earlier < index && group[earlier]!.provider !== provider) earlier += 1;
    if (earlier === index) count += 1;
  }
  return count;
}

/** The group's entries by their provider's contribution, highest first, then by rank; ties keep their order. */
function bestSourceFirst(group: MergeGroup, contributions: ScoreContribution[]): RankedItem[] {
  const members = group.slice();
  insertionSort(members, (a, b) => contributionOf(b, contributions) - contributionOf(a, contributions) || a.rank - b.rank);
  return members;
}

function contributionOf(entry: RankedItem, contributions: ScoreContribution[]): number {
  for (const part of contributions) if (part.provider === entry.provider) return part.contribution;
  return 0;
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * A copy of an item's own fields in their order, as a spread would make it. Adding properties to an object
 * made by a spread is slow in V8 (each addition leaves the fast path), and every result gains three.
 */
function copyOf(item: ProviderItem): SearchResult {
  const copy: Record<string, unknown> = {};
  for (const field in item) copy[field] = item[field as keyof ProviderItem];
  return copy as unknown as SearchResult;
}

/**
 * One item from a group's members (best source first), as a new object: each field from the best source that
 * has it, except the citation count (the highest any source reports) and the abstract (the longest, since
 * some indexes truncate it).
 */
export function combineFields(members: RankedItem[]): ProviderItem {
  const best = members[0]?.item;
  if (!best) throw new Error('cannot combine an empty group');
  const combined: ProviderItem = copyOf(best);
  if (members.length === 1) return combined;
  const record = combined as unknown as Record<string, unknown>;
  let highestCitations: number | undefined = best.citation_count;
  let longestAbstract: string | undefined = best.abstract;
  for (let index = 1; index < members.length; index += 1) {
    const other = members[index]!.item;
    for (const field in other) {
      const value = other[field as keyof ProviderItem];
      if (value !== undefined && record[field] === undefined) record[field] = value;
    }
    if (other.extra) combined.extra = { ...other.extra, ...combined.extra };
    const citations = other.citation_count;
    if (citations !== undefined) highestCitations = highestCitations === undefined ? citations : Math.max(highestCitations, citations);
    const abstract = other.abstract;
    if (abstract !== undefined && (longestAbstract === undefined || abstract.length > longestAbstract.length)) longestAbstract = abstract;
  }
  if (highestCitations !== undefined) combined.citation_count = highestCitations;
  if (longestAbstract !== undefined) combined.abstract = longestAbstract;
  return combined;
}
