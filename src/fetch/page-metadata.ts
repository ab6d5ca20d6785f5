import { isoDate } from '../domain/iso-date.js';

/** The few DOM members read here; the project compiles without the DOM library. */
export interface MetadataElement {
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<MetadataElement>;
  textContent: string | null;
}

/** What a page says about itself beyond what Readability reads: its site's names, and a date Readability misses. */
export interface PageMetadata {
  siteNames: string[];
  /** ISO 8601, read through isoDate; undefined when the page gives none that reads as a date. */
  date: string | undefined;
}

/**
 * Read from the page as served, before Readability runs: Readability takes scripts (JSON-LD) out of the document
 * it reads and trims what it judges not to be the article.
 */
export function readPageMetadata(document: MetadataElement): PageMetadata {
  return { siteNames: siteNames(document), date: fallbackDate(document) };
}

/**
 * The names a page gives its site: og:site_name, and in JSON-LD a WebSite's name or a publisher's. Readability
 * reads a publisher only from an Article's JSON-LD, and no WebSite at all.
 */
function siteNames(document: MetadataElement): string[] {
  const names = new Set<string>();
  for (const meta of document.querySelectorAll('meta[property], meta[name]')) {
    const key = (meta.getAttribute('property') ?? meta.getAttribute('name') ?? '').trim().toLowerCase();
    const name = key === 'og:site_name' ? folded(meta.getAttribute('content')) : undefined;
    if (name) names.add(name);
  }
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse((script.textContent ?? '').replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, ''));
    } catch {
      continue;
    }
    collectJsonLdSiteNames(parsed, names, 0);
  }
  return [...names];
}

/** Nodes nested deeper than this are not site names: a bound, since JSON.parse reads nesting a recursion cannot. */
const JSON_LD_MAX_DEPTH = 6;

function collectJsonLdSiteNames(node: unknown, names: Set<string>, depth: number): void {
  if (depth > JSON_LD_MAX_DEPTH || typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) collectJsonLdSiteNames(item, names, depth + 1);
    return;
  }
  const record = node as Record<string, unknown>;
  const types = ([] as unknown[]).concat(record['@type']);
  if (types.includes('WebSite')) addName(record['name'], names);
  const publisher = record['publisher'];
  if (typeof publisher === 'object' && publisher !== null && !Array.isArray(publisher)) addName((publisher as Record<string, unknown>)['name'], names);
  for (const key of ['@graph', 'isPartOf', 'mainEntityOfPage']) collectJsonLdSiteNames(record[key], names, depth + 1);
}

function addName(value: unknown, names: Set<string>): void {
  const name = typeof value === 'string' ? folded(value) : undefined;
  if (name) names.add(name);
}

/** The separators a <title> puts between a page's own title and its site's name. */
const SEPARATORS = [' - ', ' | ', ' — ', ' – ', ' · ', ' :: '];

/**
 * The title without the site's name a <title> adds before or after it ("Rates held again - Example News").
 * Readability drops a title's last part only when what is left has more than four words, and only after "-",
 * "|", "\", "/", ">" or "»"; a short headline kept its site's name. A title that would be left empty stays whole.
 */
export function titleWithoutSiteName(title: string, siteNames: readonly string[]): string {
  const lowerTitle = title.toLowerCase();
  for (const siteName of siteNames) {
    const lowerName = siteName.toLowerCase();
    for (const separator of SEPARATORS) {
      const rest = lowerTitle.endsWith(`${separator}${lowerName}`)
        ? title.slice(0, title.length - separator.length - siteName.length)
        : lowerTitle.startsWith(`${lowerName}${separator}`)
          ? title.slice(siteName.length + separator.length)
          : undefined;
      const kept = rest?.trim();
      if (kept) return kept;
    }
  }
  return title;
}

/** Meta names that hold a page's publication date (Dublin Core, Highwire Press tags that Google Scholar reads). */
const DATE_META_NAMES = ['citation_publication_date', 'citation_date', 'dc.date', 'date'];

/**
 * A date from where Readability does not look (it reads JSON-LD's datePublished, article:published_time and
 * parsely-pub-date only): microdata's datePublished, the date meta tags, a <time datetime> (one marked pubdate or
 * in the article first), and last microdata's dateModified, since a published date is the one asked for.
 */
function fallbackDate(document: MetadataElement): string | undefined {
  return (
    firstDate(document.querySelectorAll('[itemprop~="datePublished"]')) ??
    metaDate(document) ??
    firstDate(document.querySelectorAll('time[pubdate][datetime]')) ??
    firstDate(document.querySelectorAll('article time[datetime]')) ??
    firstDate(withoutModified(document.querySelectorAll('time[datetime]'))) ??
    firstDate(document.querySelectorAll('[itemprop~="dateModified"]'))
  );
}

function metaDate(document: MetadataElement): string | undefined {
  const byName = new Map<string, string>();
  for (const meta of document.querySelectorAll('meta[name][content]')) {
    const name = meta.getAttribute('name')!.trim().toLowerCase();
    const date = isoDate(meta.getAttribute('content'));
    if (date && !byName.has(name)) byName.set(name, date);
  }
  for (const name of DATE_META_NAMES) {
    const date = byName.get(name);
    if (date) return date;
  }
  return undefined;
}

/** A <time> marked as the modified date is not taken for the published one. */
function* withoutModified(elements: Iterable<MetadataElement>): Iterable<MetadataElement> {
  for (const element of elements) {
    if (!/\bdateModified\b/.test(element.getAttribute('itemprop') ?? '')) yield element;
  }
}

const MAX_DATE_LENGTH = 100;

/** The first element whose date (its content, datetime, or text, as microdata reads it) isoDate can read. */
function firstDate(elements: Iterable<MetadataElement>): string | undefined {
  for (const element of elements) {
    const value = element.getAttribute('content') ?? element.getAttribute('datetime') ?? element.textContent ?? '';
    // A date written as text is short; a long text is an element marked up around more than its date.
    const date = value.length <= MAX_DATE_LENGTH ? isoDate(value) : undefined;
    if (date) return date;
  }
  return undefined;
}

function folded(value: string | null | undefined): string | undefined {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? text : undefined;
}
