import { Readability } from '@mozilla/readability';
import { decode } from 'html-entities';
import { parseHTML } from 'linkedom';
import { isoDate } from '../domain/iso-date.js';
import type { ExtractedDocument, ExtractedLink } from './extracted-document.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { withHeadAndBody, type TreeDocument } from './html-tree.js';
import { markupDepth } from './markup-depth.js';
import { readPageMetadata, titleWithoutSiteName, type PageMetadata } from './page-metadata.js';

const MAX_LINKS = 500;

/**
 * Bounds on the pages Readability reads. Its cost grows with elements × nesting depth, on the event loop every
 * other request shares: 1,200 nested elements took 11 s and 20,000 overflowed the stack, and a page of 40,000
 * elements nested 200 deep takes seconds. Real pages stay well inside these (a DOM deeper than 32 or larger than
 * 1,500 elements is already called excessive by Lighthouse); a page past them is read as plain text instead.
 */
const READABLE_MAX_DEPTH = 80;
const READABLE_MAX_ELEMENTS = 15_000;
/**
 * Past this nesting, estimated from the markup before any parsing, the page is not parsed at all: linkedom's own
 * parse grows faster than linear with depth (50,000 nested elements, 600 KB, took 1.7 s). Its text is read by
 * taking the tags out.
 */
const PARSABLE_MAX_DEPTH = 2_000;

/** The few DOM members used here; the project compiles without the DOM library. */
interface DomElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement>;
  remove(): void;
  textContent: string | null;
  innerHTML: string;
}

interface DomDocument extends DomElement {
  title: string;
  body: DomElement | null;
  documentElement: DomNode | null;
}

/** What a walk over the elements reads. */
interface DomNode {
  firstElementChild: DomNode | null;
  nextElementSibling: DomNode | null;
  parentElement: DomNode | null;
}

/**
 * An HTML page's main content as Markdown, Firefox Reader View style: Readability picks the article and its
 * metadata (title, byline, published time), Turndown writes the Markdown. linkedom stands in for a browser
 * DOM, which Readability runs on unchanged; a page Readability finds no article in falls back to its body.
 */
export function extractHtml(html: string, pageUrl: string, contentType: string): ExtractedDocument {
  if (markupDepth(html, rawTextEnd) > PARSABLE_MAX_DEPTH) {
    return { title: markupTitle(html) ?? new URL(pageUrl).hostname, markdown: textWithoutMarkup(html), links: [], content_type: contentType };
  }
  const document = prepareDocument(html, pageUrl);
  const pageTitle = document.title?.trim() || document.querySelector('h1')?.textContent?.trim() || '';
  // Read before Readability, which takes the JSON-LD scripts out of the document it reads.
  const metadata = readPageMetadata(document);
  const shape = elementShape(document);
  if (shape.depth > READABLE_MAX_DEPTH || shape.elements > READABLE_MAX_ELEMENTS) return plainTextOf(document, metadata, pageTitle, pageUrl, contentType);
  let article: ReturnType<Readability['parse']>;
  try {
    article = titleDecodedOnce(new Readability(document as never, { charThreshold: 200, maxElemsToParse: READABLE_MAX_ELEMENTS })).parse();
  } catch {
    // A page Readability cannot read (it throws past maxElemsToParse) still has its text.
    return plainTextOf(prepareDocument(html, pageUrl), metadata, pageTitle, pageUrl, contentType);
  }
  // Readability changes the document it reads, so the fallback starts from a fresh copy.
  const contentHtml = article?.content ?? prepareDocument(html, pageUrl).body?.innerHTML ?? '';
  const markdown = htmlToMarkdown(contentHtml);
  const byline = cleanText(article?.byline);
  const published = normaliseDate(article?.publishedTime) ?? metadata.date;
  return {
    title: titleWithoutSiteName(cleanText(article?.title) ?? (pageTitle || new URL(pageUrl).hostname), metadata.siteNames),
    ...(byline ? { byline } : {}),
    ...(published ? { published_at: published } : {}),
    markdown,
    links: collectLinks(parseDocument(`<!doctype html><html><body>${contentHtml}</body></html>`)),
    content_type: contentType,
  };
}

/** The one Readability method patched here: how it picks a title from the page's <title> and headings. */
interface ArticleTitleReader {
  _getArticleTitle(): string;
}

/**
 * Readability decodes entities in the title it returns, since many pages escape their <meta> values twice; but
 * a title it takes from the <title> element or a heading is DOM text, decoded already, so `A &amp;amp; B` (a page
 * about entities, saying "A &amp; B") came out "A & B". That title is handed over with its `&` escaped, which the
 * decoding then undoes exactly. (Readability 0.6: a private method, so a test pins it.)
 */
function titleDecodedOnce(reader: Readability): Readability {
  const patched = reader as unknown as ArticleTitleReader;
  const articleTitle = patched._getArticleTitle;
  if (typeof articleTitle !== 'function') return reader;
  patched._getArticleTitle = () => articleTitle.call(reader).replaceAll('&', '&amp;');
  return reader;
}

/** A page too deep or too large for Readability: its body's text, white space folded, its links, and what it says of itself. */
function plainTextOf(document: DomDocument, metadata: PageMetadata, pageTitle: string, pageUrl: string, contentType: string): ExtractedDocument {
  const body = document.body ?? document;
  return {
    title: titleWithoutSiteName(pageTitle || new URL(pageUrl).hostname, metadata.siteNames),
    ...(metadata.date ? { published_at: metadata.date } : {}),
    markdown: textWithoutMarkup(body.innerHTML),
    links: collectLinks(body),
    content_type: contentType,
  };
}

/**
 * The number of elements and their deepest nesting, walked without recursion (a page may nest thousands deep),
 * stopping once past both bounds matter no more.
 */
function elementShape(document: DomDocument): { elements: number; depth: number } {
  let node: DomNode | null = document.documentElement;
  let depth = 0;
  let deepest = 0;
  let elements = 0;
  while (node && elements <= READABLE_MAX_ELEMENTS && deepest <= READABLE_MAX_DEPTH) {
    elements += 1;
    if (depth > deepest) deepest = depth;
    const child: DomNode | null = node.firstElementChild;
    if (child) {
      node = child;
      depth += 1;
      continue;
    }
    while (node && !node.nextElementSibling) {
      node = node.parentElement;
      depth -= 1;
    }
    node = node ? node.nextElementSibling : null;
  }
  return { elements, depth: deepest };
}

/** A page's text with its tags, comments, scripts and styles taken out, in one pass: for a page not parsed. */
function textWithoutMarkup(html: string): string {
  let text = '';
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) {
      text += html.slice(at);
      break;
    }
    // As HTML reads it, `<` opens a tag only before a letter, `/`, `!` or `?`: in "a < b" it is text.
    if (!opensMarkup(html.charCodeAt(open + 1))) {
      text += html.slice(at, open + 1);
      at = open + 1;
      continue;
    }
    text += html.slice(at, open);
    // A block's edge parts words as a reader sees them; an inline tag ("foo<b>bar</b>") does not.
    if (BLOCK_TAG.test(html.slice(open, open + 12))) text += ' ';
    const rawEnd = rawTextEnd(html, open);
    const close = rawEnd ?? (html.startsWith('<!--', open) ? html.indexOf('-->', open + 4) + 2 : html.indexOf('>', open + 1));
    if (close < open + 1) break;
    at = close + 1;
  }
  return cleanText(decode(text)) ?? '';
}

function opensMarkup(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x2f || code === 0x21 || code === 0x3f;
}

const BLOCK_TAG = /^<\/?(?:p|br|hr|div|li|ul|ol|dl|dt|dd|h[1-6]|tr|td|th|table|section|article|aside|header|footer|nav|main|blockquote|pre|figure|figcaption|title)\b/i;

/** The page's <title>, looked for near its start only, for a page not parsed. */
function markupTitle(html: string): string | undefined {
  const head = html.slice(0, 65_536);
  // One <title> after another, each end looked for once: /<title\b[^>]*>([^<]*)<\/title/ scanned on to the next '>'
  // from every opening, and a head of 11,000 `<title ` without one took half a second.
  const opening = /<title\b/gi;
  let close = -1;
  for (let found = opening.exec(head); found !== null; found = opening.exec(head)) {
    if (close < found.index) close = head.indexOf('>', found.index);
    if (close < 0) return undefined;
    const textEnd = head.indexOf('<', close + 1);
    if (textEnd < 0) return undefined;
    if (head.slice(textEnd, textEnd + 7).toLowerCase() === '</title') return cleanText(decode(head.slice(close + 1, textEnd)));
    opening.lastIndex = Math.max(opening.lastIndex, textEnd);
  }
  return undefined;
}

/** Elements whose content is not the page's text: code, styles, and the title (read on its own). */
const RAW_TEXT_OPENING = /^<(script|style|noscript|template|title)\b/i;
/** Where each one's end tag opens; the tag ends at the next '>'. */
const RAW_TEXT_CLOSINGS: Record<string, RegExp> = {
  title: /<\/title/gi,
  script: /<\/script/gi,
  style: /<\/style/gi,
  noscript: /<\/noscript/gi,
  template: /<\/template/gi,
};

/**
 * Where a script, style, noscript or template element opened at `open` ends (the last character of its end tag),
 * or undefined when the tag there is not one. One without an end tag runs to the end of the page, as in a browser.
 */
function rawTextEnd(html: string, open: number): number | undefined {
  const name = RAW_TEXT_OPENING.exec(html.slice(open, open + 10))?.[1]?.toLowerCase();
  if (!name) return undefined;
  const closing = RAW_TEXT_CLOSINGS[name]!;
  closing.lastIndex = open;
  const found = closing.exec(html);
  // The '>' looked for once, from the first end tag: /<\/script[^>]*>/ scanned on from every `</script` when none
  // followed, and a 256 KB page of them took 5 s. With no '>' after the first, there is none after any other.
  const close = found ? html.indexOf('>', found.index + found[0].length) : -1;
  return close < 0 ? html.length - 1 : close;
}

function parseDocument(html: string): DomDocument {
  return parseHTML(html).document as unknown as DomDocument;
}

/** linkedom has no baseURI, so Readability cannot resolve relative links itself: they are made absolute first. */
function prepareDocument(html: string, pageUrl: string): DomDocument {
  const document = parseDocument(html);
  withHeadAndBody(document as unknown as TreeDocument);
  absolutizeUrls(document, baseUrl(document, pageUrl));
  return document;
}

function baseUrl(document: DomDocument, pageUrl: string): string {
  const declared = document.querySelector('base[href]')?.getAttribute('href');
  if (!declared) return pageUrl;
  try {
    return new URL(declared, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

function absolutizeUrls(document: DomDocument, base: string): void {
  for (const [selector, attribute] of [['a[href]', 'href'], ['img[src]', 'src']] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute);
      if (value === null || value.startsWith('#')) continue;
      try {
        element.setAttribute(attribute, new URL(value, base).href);
      } catch {
        // An unparsable URL stays as written; it is left out of the links list.
      }
    }
  }
}

/** The article's http(s) links, first occurrence of each URL, with the text a reader saw. */
function collectLinks(content: DomElement): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  const seen = new Set<string>();
  for (const anchor of content.querySelectorAll('a[href]')) {
    const href = anchor.getAttribute('href') ?? '';
    if (!/^https?:\/\//i.test(href) || seen.has(href)) continue;
    seen.add(href);
    links.push({ text: cleanText(anchor.textContent) ?? href, url: href });
    if (links.length >= MAX_LINKS) break;
  }
  return links;
}

function cleanText(value: string | null | undefined): string | undefined {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? text : undefined;
}

/**
 * A published time read as the providers read theirs (domain/iso-date.ts): "March 2024" stays a month and
 * "4 April 2024" that calendar day, where Date.parse made each an instant at midnight in the server's zone (a day
 * the page never gave, or the day before in UTC east of Greenwich). A date no reader knows is kept as written.
 */
function normaliseDate(value: string | null | undefined): string | undefined {
  const text = cleanText(value);
  if (!text) return undefined;
  return isoDate(text) ?? text;
}
