import { boundedText } from './cut-text.js';
import type { ProviderItem } from './result.js';

/**
 * The most each field of a result may hold, in characters (UTF-16 units). An upstream may answer a title or a
 * snippet of megabytes (up to the body cap); passed on whole it would fill a REST answer, the search page, the
 * stream and an agent's context window, and cost merging and ranking (which compare titles) by its length. Text
 * past its bound is cut with `…`; a field whose value cannot be cut and stay true (a URL, an identifier, a date)
 * is left out, and a result whose own URL is past its bound is dropped (RESULT_URL_CHARS).
 */
export const RESULT_BOUNDS = {
  title: 300,
  snippet: 1_000,
  /** The longest abstracts journals print are a few thousand characters. */
  abstract: 10_000,
  venue: 300,
  /** Each author's name. */
  author: 200,
  /** Authors listed, the first ones kept: collaborations list thousands, and every page shows only the first few. */
  authors: 100,
  /** A DOI, arXiv id or PMID: real ones are far shorter; a longer one is no identifier. */
  identifier: 300,
  /** An ISO 8601 date, its time and zone included, is at most about 35. */
  publishedAt: 64,
  /** A provider extra that is text (a channel, a language); one that is a link is bounded as a URL. */
  extraText: 300,
  /**
   * A URL: browsers, proxies and servers refuse longer ones (8 KB is the common request-line limit), so a link past
   * it cannot be followed, and cut it would lead elsewhere. A result with one is dropped; a pdf_url or a link in the
   * extras is left out.
   */
  url: 8_192,
} as const;

/**
 * `item` with every field within RESULT_BOUNDS: the item itself when it already is (most are: one length test per
 * field, nothing allocated), a bounded copy otherwise, or undefined when its URL is too long to be followed.
 */
export function boundedItem(item: ProviderItem): ProviderItem | undefined {
  if (item.url.length > RESULT_BOUNDS.url) return undefined;
  return withinBounds(item) ? item : boundedCopy(item);
}

/** `items` each bounded (boundedItem), those with a URL too long left out; the same array when none changed. */
export function boundedItems(items: ProviderItem[]): ProviderItem[] {
  let bounded: ProviderItem[] | undefined;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index]!;
    const kept = boundedItem(item);
    if (kept === item && bounded === undefined) continue;
    bounded ??= items.slice(0, index);
    if (kept !== undefined) bounded.push(kept);
  }
  return bounded ?? items;
}

function withinBounds(item: ProviderItem): boolean {
  return (
    item.title.length <= RESULT_BOUNDS.title &&
    fits(item.snippet, RESULT_BOUNDS.snippet) &&
    fits(item.published_at, RESULT_BOUNDS.publishedAt) &&
    fits(item.abstract, RESULT_BOUNDS.abstract) &&
    fits(item.venue, RESULT_BOUNDS.venue) &&
    fits(item.doi, RESULT_BOUNDS.identifier) &&
    fits(item.arxiv_id, RESULT_BOUNDS.identifier) &&
    fits(item.pmid, RESULT_BOUNDS.identifier) &&
    fits(item.pdf_url, RESULT_BOUNDS.url) &&
    (item.authors === undefined || authorsWithinBounds(item.authors)) &&
    (item.extra === undefined || extraWithinBounds(item.extra))
  );
}

function fits(value: string | undefined, max: number): boolean {
  return value === undefined || value.length <= max;
}

function authorsWithinBounds(authors: readonly string[]): boolean {
  if (authors.length > RESULT_BOUNDS.authors) return false;
  for (const author of authors) if (author.length > RESULT_BOUNDS.author) return false;
  return true;
}

function extraWithinBounds(extra: NonNullable<ProviderItem['extra']>): boolean {
  for (const name in extra) {
    const value = extra[name];
    if (typeof value === 'string' && value.length > RESULT_BOUNDS.extraText) return false;
  }
  return true;
}

/** A copy of an item with some field past its bound: text cut, what cannot be cut left out. */
function boundedCopy(item: ProviderItem): ProviderItem {
  const copy: ProviderItem = { ...item, title: boundedText(item.title, RESULT_BOUNDS.title) };
  if (item.snippet !== undefined) copy.snippet = boundedText(item.snippet, RESULT_BOUNDS.snippet);
  if (item.abstract !== undefined) copy.abstract = boundedText(item.abstract, RESULT_BOUNDS.abstract);
  if (item.venue !== undefined) copy.venue = boundedText(item.venue, RESULT_BOUNDS.venue);
  if (item.authors !== undefined) copy.authors = item.authors.slice(0, RESULT_BOUNDS.authors).map((author) => boundedText(author, RESULT_BOUNDS.author));
  if (!fits(item.published_at, RESULT_BOUNDS.publishedAt)) delete copy.published_at;
  if (!fits(item.doi, RESULT_BOUNDS.identifier)) delete copy.doi;
  if (!fits(item.arxiv_id, RESULT_BOUNDS.identifier)) delete copy.arxiv_id;
  if (!fits(item.pmid, RESULT_BOUNDS.identifier)) delete copy.pmid;
  if (!fits(item.pdf_url, RESULT_BOUNDS.url)) delete copy.pdf_url;
  if (item.extra !== undefined) {
    const extra = boundedExtra(item.extra);
    if (extra === undefined) delete copy.extra;
    else copy.extra = extra;
  }
  return copy;
}

/** Extras with text cut and links past RESULT_BOUNDS.url left out; undefined when none is left. */
function boundedExtra(extra: NonNullable<ProviderItem['extra']>): ProviderItem['extra'] {
  const bounded: NonNullable<ProviderItem['extra']> = {};
  let kept = 0;
  for (const [name, value] of Object.entries(extra)) {
    if (typeof value !== 'string' || value.length <= RESULT_BOUNDS.extraText) bounded[name] = value;
    else if (!isLink(value)) bounded[name] = boundedText(value, RESULT_BOUNDS.extraText);
    else if (value.length <= RESULT_BOUNDS.url) bounded[name] = value;
    else continue;
    kept += 1;
  }
  return kept > 0 ? bounded : undefined;
}

/** An extra that is a link (HN's hn_url, Firecrawl's image_url): cut, it would lead elsewhere. */
function isLink(value: string): boolean {
  return value.startsWith('https://') || value.startsWith('http://');
}
