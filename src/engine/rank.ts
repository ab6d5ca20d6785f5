import type { ProviderItem, ResultSource, ScoreContribution, SearchResult } from '../domain/result.js';
import { domainOf } from './canonical-url.js';
import type { MergeGroup, RankedItem } from './merge.js';

/** The k of reciprocal rank fusion: larger k flattens the advantage of top positions. */
export const DEFAULT_RRF_K = 60;

export interface RankOptions {
  k?: number;
  explain?: boolean;
}

/**
 * Weighted reciprocal rank fusion: score = Σ over providers of weight / (k + rank). A provider that listed
 * the same thing twice counts once, at its best rank.
 */
export function rankResults(groups: MergeGroup[], options: RankOptions = {}): SearchResult[] {
  const k = options.k ?? DEFAULT_RRF_K;
  const ranked = groups.map((group, order) => scoreGroup(group, k, options.explain === true, order));
  // The keys are read from the wrapper, whose shape never varies, not from results shaped by their providers.
  ranked.sort((a, b) => b.score - a.score || b.sourceCount - a.sourceCount || a.bestRank - b.bestRank || a.order - b.order);
  return ranked.map((entry) => entry.result);
}

interface ScoredGroup {
  result: SearchResult;
  /** The result's (rounded) score and its number of sources: what ranking sorts by first. */
  score: number;
  sourceCount: number;
  order: number;
  bestRank: number;
}

// Runs once per group of every search: loops over small arrays rather than Maps, spreads and sorts of one.
function scoreGroup(group: MergeGroup, k: number, explain: boolean, order: number): ScoredGroup {
  const contributions: ScoreContribution[] = bestPerProvider(group).map((entry) => ({
    provider: entry.provider,
    rank: entry.rank,
    weight: entry.weight,
    contribution: entry.weight / (k + entry.rank),
  }));
  if (contributions.length > 1) contributions.sort((a, b) => b.contribution - a.contribution || a.rank - b.rank);
  let score = 0;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const part of contributions) {
    score += part.contribution;
    if (part.rank < bestRank) bestRank = part.rank;
  }
  // Members ordered best source first: fields are filled from the best source that has them.
  const members = group.length === 1 ? group : bestSourceFirst(group, contributions);
  const sources: ResultSource[] = contributions.map(({ provider, rank }) => ({ provider, rank }));
  const fields = combineFields(members.map((member) => member.item));
  // combineFields returns a new object: completing it costs less than copying it once more.
  const result = fields as SearchResult;
  result.score = round(score);
  result.sources = sources;
  const lead = members[0]!;
  // Merging parsed the lead's URL already (web results); anything else is parsed here.
  const domain = lead.domain !== undefined && lead.item.url === fields.url ? lead.domain : domainOf(fields.url);
  if (domain) result.domain = domain;
  if (explain) {
    result.explain = contributions.map((part) => ({ provider: part.provider, rank: part.rank, weight: part.weight, contribution: round(part.contribution) }));
  }
  return { result, score: result.score, sourceCount: sources.length, order, bestRank };
}

/** Each provider's best-ranked entry of a group, in first-seen order: a provider that listed a thing twice counts once. */
function bestPerProvider(group: MergeGroup): RankedItem[] {
  if (group.length === 1) return group;
  const best: RankedItem[] = [];
  for (const entry of group) {
    const index = best.findIndex((candidate) => candidate.provider === entry.provider);
    if (index < 0) best.push(entry);
    else if (entry.rank < best[index]!.rank) best[index] = entry;
  }
  return best;
}

function bestSourceFirst(group: MergeGroup, contributions: ScoreContribution[]): RankedItem[] {
  const contributionOf = (provider: string): number => contributions.find((part) => part.provider === provider)?.contribution ?? 0;
  return [...group].sort((a, b) => contributionOf(b.provider) - contributionOf(a.provider) || a.rank - b.rank);
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * One item from several, as a new object: each field from the best source that has it, except the citation count (the
 * highest any source reports) and the abstract (the longest, since some indexes truncate it).
 */
export function combineFields(items: ProviderItem[]): ProviderItem {
  const [best, ...others] = items;
  if (!best) throw new Error('cannot combine an empty group');
  const combined: ProviderItem = { ...best };
  if (others.length === 0) return combined;
  const record = combined as unknown as Record<string, unknown>;
  for (const other of others) {
    for (const [field, value] of Object.entries(other)) {
      if (value !== undefined && record[field] === undefined) record[field] = value;
    }
    if (other.extra) combined.extra = { ...other.extra, ...combined.extra };
  }
  const citationCounts = items.map((item) => item.citation_count).filter((count): count is number => count !== undefined);
  if (citationCounts.length > 0) combined.citation_count = citationCounts.reduce((highest, count) => Math.max(highest, count));
  const abstracts = items.map((item) => item.abstract).filter((abstract): abstract is string => abstract !== undefined);
  if (abstracts.length > 0) combined.abstract = abstracts.reduce((longest, abstract) => (abstract.length > longest.length ? abstract : longest));
  return combined;
}
