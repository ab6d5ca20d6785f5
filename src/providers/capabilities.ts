import type { ProviderItem } from '../domain/result.js';

/**
 * What an operation may ask one provider for besides a search or a paper lookup, each with its input and
 * output. An adapter serves a capability by implementing the method of that name (declared, optional, on
 * Provider); operations ask for it through the engine (SearchService.call), which runs it through the same
 * pipeline as every search: breaker, rate limit, concurrency limit, deadline, outcome, metrics.
 */
export interface CapabilityTypes {
  /** Details of videos by id (YouTube videos.list). */
  videoDetails: { input: VideoDetailsInput; output: ProviderItem[] };
  /** A video's captions in the language asked for when it has them; undefined when it has none. */
  captions: { input: CaptionsInput; output: Captions | undefined };
  /** One page's main content as Markdown (Firecrawl /scrape). */
  scrape: { input: ScrapeInput; output: ScrapedPage };
  /** A document of the embedded index by its local:/// link; undefined when the index has none by that link. */
  readDocument: { input: ReadDocumentInput; output: LocalSource | undefined };
}

export type Capability = keyof CapabilityTypes;
export type CapabilityInput<C extends Capability> = CapabilityTypes[C]['input'];
export type CapabilityOutput<C extends Capability> = CapabilityTypes[C]['output'];

export interface VideoDetailsInput {
  /** 1 to 50 video ids. */
  ids: string[];
}

export interface CaptionsInput {
  videoId: string;
  /** A language code (en, pt-BR): its written captions are preferred, then its automatic ones, then English. */
  language: string;
}

export interface CaptionTrack {
  url: string;
  language: string;
  name: string;
  /** Speech recognition ("asr") rather than captions someone wrote. */
  automatic: boolean;
}

export interface TranscriptLine {
  start: number;
  duration?: number;
  text: string;
}

export interface Captions {
  /** Every caption track the video has. */
  tracks: CaptionTrack[];
  /** The track chosen for the language asked for. */
  track: CaptionTrack;
  lines: TranscriptLine[];
}

export interface ScrapeInput {
  /** The page, already checked against the address policy: the scraper fetches from wherever it runs. */
  url: string;
}

/** One scraped page. */
export interface ScrapedPage {
  markdown: string;
  /** Where the scraper says it landed, after its redirects; absent when it does not say (never the address asked). */
  url?: string;
  title?: string;
  description?: string;
  language?: string;
  published?: string;
}

export interface ReadDocumentInput {
  link: string;
}

/** One indexed document as fetch_url serves it: its source, not the whitespace-flattened text that was indexed. */
export interface LocalSource {
  url: string;
  title: string;
  published_at?: string;
  mediaType: string;
  body: string;
}

/** The scheme of the links the embedded index gives its documents (readDocument reads them). */
export const LOCAL_LINK_SCHEME = 'local:';
