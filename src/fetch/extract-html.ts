import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import type { ExtractedDocument, ExtractedLink } from './extracted-document.js';

const MAX_LINKS = 500;

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
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button', 'select', 'template']);

/**
 * An HTML page's main content as Markdown, Firefox Reader View style: Readability picks the article and its
 * metadata (title, byline, published time), Turndown writes the Markdown. linkedom stands in for a browser
 * DOM, which Readability runs on unchanged; a page Readability finds no article in falls back to its body.
 */
export function extractHtml(html: string, pageUrl: string, contentType: string): ExtractedDocument {
  const document = prepareDocument(html, pageUrl);
  const pageTitle = document.title?.trim() || document.querySelector('h1')?.textContent?.trim() || '';
  const article = new Readability(document as never, { charThreshold: 200 }).parse();
  // Readability changes the document it reads, so the fallback starts from a fresh copy.
  const contentHtml = article?.content ?? prepareDocument(html, pageUrl).body?.innerHTML ?? '';
  const markdown = turndown.turndown(contentHtml).trim();
  const byline = cleanText(article?.byline);
  const published = normaliseDate(article?.publishedTime);
  return {
    title: cleanText(article?.title) ?? (pageTitle || new URL(pageUrl).hostname),
    ...(byline ? { byline } : {}),
    ...(published ? { published_at: published } : {}),
    markdown,
    links: collectLinks(parseDocument(`<!doctype html><html><body>${contentHtml}</body></html>`)),
    content_type: contentType,
  };
}

function parseDocument(html: string): DomDocument {
  return parseHTML(html).document as unknown as DomDocument;
}

/** linkedom has no baseURI, so Readability cannot resolve relative links itself: they are made absolute first. */
function prepareDocument(html: string, pageUrl: string): DomDocument {
  const document = parseDocument(html);
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
function collectLinks(content: DomDocument): ExtractedLink[] {
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

/** A published time as ISO 8601 when it parses, as written otherwise (some sites write "March 5, 2024"). */
function normaliseDate(value: string | null | undefined): string | undefined {
  const text = cleanText(value);
  if (!text) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? text : new Date(time).toISOString();
}
