/** The kinds of search a provider can serve; a search request asks for exactly one. */
export const SEARCH_KINDS = ['web', 'papers', 'code', 'video', 'content'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Where a merged result was found: the provider and its 1-based position in that provider's list. */
export interface ResultSource {
  provider: string;
  rank: number;
}

/**
 * What an adapter hands back for one upstream item. Optional fields are left out (never empty strings)
 * when the upstream does not send them.
 */
export interface ProviderItem {
  title: string;
  url: string;
  snippet?: string;
  published_at?: string;
  // Papers
  authors?: string[];
  year?: number;
  venue?: string;
  abstract?: string;
  doi?: string;
  arxiv_id?: string;
  pmid?: string;
  pdf_url?: string;
  citation_count?: number;
  /** Provider-specific extras worth keeping (e.g. stars, views, channel); small scalars only. */
  extra?: Record<string, string | number | boolean | null>;
}

/** One entry of the unified answer: an item after merging, with every source that found it. */
export interface SearchResult extends ProviderItem {
  score: number;
  sources: ResultSource[];
  /** Every distinct PDF link its sources gave, pdf_url first; only when they gave more than one. */
  pdf_urls?: string[];
  domain?: string;
  explain?: ScoreContribution[];
}

/** One provider's part of a result's score, shown with `explain=true`. */
export interface ScoreContribution {
  provider: string;
  rank: number;
  weight: number;
  contribution: number;
}

/** The paper fields that identify a work across providers. */
export const PAPER_ID_FIELDS = ['doi', 'arxiv_id', 'pmid'] as const;
