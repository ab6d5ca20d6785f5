import type { SearchKind, SearchResult } from '../domain/result.js';
import type { ProviderAnswer } from './gather.js';
import { groupResults, type RankedItem } from './merge.js';
import { rankResults, type RankOptions } from './rank.js';

/** Providers' answers as one ranked list: each item at its rank in its provider's list, weighted, merged, fused. */
export function fuseAnswers(kind: SearchKind, answers: ProviderAnswer[], options: RankOptions): SearchResult[] {
  return rankResults(groupResults(kind, rankedEntries(answers)), options);
}

function rankedEntries(answers: ProviderAnswer[]): RankedItem[] {
  return answers.flatMap((answer) =>
    answer.items.map((item, index) => ({ provider: answer.provider.name, rank: index + 1, weight: answer.provider.config.weight, item })),
  );
}
