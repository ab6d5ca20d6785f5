import type { SearchKind, SearchResult } from '../domain/result.js';
import type { ProviderAnswer } from './gather.js';
import { groupResults, type RankedItem } from './merge.js';
import { rankResults, type RankOptions } from './rank.js';

/** Providers' answers as one ranked list: each item at its rank in its provider's list, weighted, merged, fused. */
export function fuseAnswers(kind: SearchKind, answers: ProviderAnswer[], options: RankOptions): SearchResult[] {
  return rankResults(groupResults(kind, rankedEntries(answers)), options);
}

/** One list of every provider's items in answer order; a provider's name and weight are read once, not per item. */
function rankedEntries(answers: ProviderAnswer[]): RankedItem[] {
  const entries: RankedItem[] = [];
  for (const answer of answers) {
    const provider = answer.provider.name;
    const weight = answer.provider.config.weight;
    const items = answer.items;
    for (let index = 0; index < items.length; index += 1) entries.push({ provider, rank: index + 1, weight, item: items[index]! });
  }
  return entries;
}
