import type { ProviderItem } from '../domain/result.js';

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
