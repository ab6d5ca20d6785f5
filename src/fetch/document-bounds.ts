import { boundedText } from '../domain/cut-text.js';
import { RESULT_BOUNDS } from '../domain/result-bounds.js';
import type { ExtractedDocument, ExtractedLink } from './extracted-document.js';

/**
 * The most a fetched document's metadata may hold, in characters. max_chars pages its text; its title, byline and
 * link texts come whole with every page, and a page can make them as long as itself (a <meta> og:title or a
 * byline of 200 KB reached a caller who asked for 500 characters). Search results' titles have the same bound.
 */
export const DOCUMENT_BOUNDS = { title: RESULT_BOUNDS.title, byline: 300, linkText: 300 } as const;

/** `document` with its title, byline and link texts within DOCUMENT_BOUNDS: itself when they are (most are). */
export function boundedDocument(document: ExtractedDocument): ExtractedDocument {
  const { title, byline, links } = document;
  const linksFit = links.every((link) => link.text.length <= DOCUMENT_BOUNDS.linkText);
  if (title.length <= DOCUMENT_BOUNDS.title && (byline === undefined || byline.length <= DOCUMENT_BOUNDS.byline) && linksFit) return document;
  const bounded: ExtractedDocument = { ...document, title: boundedText(title, DOCUMENT_BOUNDS.title) };
  if (byline !== undefined) bounded.byline = boundedText(byline, DOCUMENT_BOUNDS.byline);
  if (!linksFit) bounded.links = links.map(boundedLink);
  return bounded;
}

function boundedLink(link: ExtractedLink): ExtractedLink {
  return link.text.length <= DOCUMENT_BOUNDS.linkText ? link : { ...link, text: boundedText(link.text, DOCUMENT_BOUNDS.linkText) };
}
