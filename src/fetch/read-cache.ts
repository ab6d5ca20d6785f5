import { LRUCache } from 'lru-cache';

/** What a read keeps: the whole text, before it is paged, and whatever else its operation answers with it. */
export interface WholeRead {
  markdown: string;
  /**
   * The caller's timeout_ms a read was cut short by (a PDF whose reading stopped at its time): it is served only to
   * callers that wait no longer, and a caller that waits longer reads it again. Absent for a read that is whole, or
   * cut by the service's own limits (FETCH_TIMEOUT_MS, FETCH_MAX_BYTES), the most any caller gets.
   */
  readWithinMs?: number;
}

/**
 * Documents read for fetch_url, paper_read and youtube_transcript, kept whole for a few minutes. Their answers are paged
 * (offset, max_chars, "continue: fetch_url with offset N"), and an agent reads a long page or a paper in pieces: without this each
 * piece downloads and extracts all of it again, a PDF again on a reader thread, a Firecrawl scrape paid again,
 * and a page that changed in between would page through two different texts. What failed is never kept.
 *
 * One cache serves every caller: a read sends no caller's credentials, so the same URL gives anyone the same
 * document, and every address rule was applied when it was first read (the rules are fixed at start-up).
 */
export interface ReadCache {
  /**
   * The read kept under `key` if it serves a caller with this timeout_ms (readWithinMs). Each key names what stored
   * it (`page direct …`, `paper …`), so its type.
   */
  get<T extends WholeRead>(key: string, timeoutMs?: number): T | undefined;
  set(key: string, read: WholeRead): void;
}

export interface ReadCacheOptions {
  ttlMs: number;
  /** The bound of what is kept, in bytes of text (two a character: the most a JavaScript string takes). */
  maxBytes: number;
}

/** What a read takes beyond its text, at most: a title, a byline, a date, up to 100 links (the page's MAX_LINKS). */
const FIELDS_BYTES = 64 * 1024;

/** An LRU of reads bounded by size, each living ttlMs; with a TTL of 0 it keeps nothing. */
export function createReadCache(options: ReadCacheOptions): ReadCache {
  if (options.ttlMs <= 0) return { get: () => undefined, set: () => undefined };
  const reads = new LRUCache<string, WholeRead>({
    maxSize: options.maxBytes,
    // A document bigger than the whole budget is simply not kept.
    maxEntrySize: options.maxBytes,
    sizeCalculation: (read) => 2 * read.markdown.length + FIELDS_BYTES,
    ttl: options.ttlMs,
  });
  return {
    get: <T extends WholeRead>(key: string, timeoutMs?: number) => {
      const read = reads.get(key);
      return read && servesTimeout(read, timeoutMs) ? (read as T) : undefined;
    },
    set: (key, read) => {
      reads.set(key, read);
    },
  };
}

/** Whether a kept read serves a caller with this timeout_ms (undefined: the service's own time, the longest). */
function servesTimeout(read: WholeRead, timeoutMs: number | undefined): boolean {
  return read.readWithinMs === undefined || (timeoutMs !== undefined && timeoutMs <= read.readWithinMs);
}

/**
 * The caller's timeout_ms to keep with a document read within it, when it cut the reading short: see readWithinMs.
 * A timeout_ms no shorter than FETCH_TIMEOUT_MS (`serviceTimeoutMs`) allowed as much as any caller gets.
 */
export function readWithin(
  document: { outOfTime?: true },
  timeoutMs: number | undefined,
  serviceTimeoutMs: number,
): { readWithinMs: number } | Record<string, never> {
  return document.outOfTime === true && timeoutMs !== undefined && timeoutMs < serviceTimeoutMs ? { readWithinMs: timeoutMs } : {};
}

/**
 * The read kept under `key` that serves this caller's timeout_ms, else `load()`'s, kept there for the next page (none
 * is kept without a cache); a read that did not serve is replaced.
 */
export async function keptRead<T extends WholeRead>(reads: ReadCache | undefined, key: string, load: () => Promise<T>, timeoutMs?: number): Promise<T> {
  const kept = reads?.get<T>(key, timeoutMs);
  if (kept) return kept;
  const read = await load();
  reads?.set(key, read);
  return read;
}
