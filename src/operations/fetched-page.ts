import { z } from 'zod';
import { RESULT_BOUNDS } from '../domain/result-bounds.js';
import type { ExtractedLink, TextPage } from '../fetch/extract.js';

/** Links returned with a page at most: enough to navigate, not enough to drown a model. */
export const MAX_LINKS = 100;

/** fetch_url's parameters. */
export const fetchInput = z.strictObject({
  // As long as a result's URL may be (domain/result-bounds.ts): any link a search gave can be read.
  url: z.string().trim().url().max(RESULT_BOUNDS.url).describe('The http(s) page to read, or a local:/// link from a search result (a document in the embedded index).'),
  max_chars: z.number().int().min(500).max(100_000).default(20_000).describe('Characters of Markdown to return (500–100000, default 20000).'),
  offset: z.number().int().min(0).default(0).describe('Character offset to start from (for paging).'),
  engine: z
    .enum(['auto', 'direct', 'firecrawl'])
    .default('auto')
    .describe('direct: fetch here; firecrawl: scrape through Firecrawl (needs FIRECRAWL_API_KEY); auto: direct, then Firecrawl if that fails and it is configured.'),
  timeout_ms: z.number().int().min(100).max(30_000).optional().describe('Deadline in milliseconds (100–30000).'),
});

export type FetchInput = z.output<typeof fetchInput>;

/** A page as fetch_url answers it, whichever engine read it (fetched here, scraped by Firecrawl, or a local document). */
export interface FetchedPage extends TextPage {
  url: string;
  final_url: string;
  engine: 'direct' | 'firecrawl' | 'local';
  title?: string;
  byline?: string;
  published_at?: string;
  content_type: string;
  links: ExtractedLink[];
}
