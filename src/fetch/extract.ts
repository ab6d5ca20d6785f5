import { invalidQuery } from '../domain/errors.js';
import type { DocumentKind } from './content-type.js';
import { decodeText, type SelfDeclaration } from './decode-text.js';
import { boundedDocument } from './document-bounds.js';
import { extractHtml } from './extract-html.js';
import { feedTitle } from './feed-title.js';
import { extractPdfText, type PdfReadingLimits, type PdfText } from './extract-pdf.js';
import type { ExtractedDocument } from './extracted-document.js';
import { DEFAULT_FETCH_MAX_BYTES, DEFAULT_FETCH_TIMEOUT_MS } from './safe-fetch.js';
import { leadingHeading } from './text-title.js';

export type { ExtractedDocument, ExtractedLink } from './extracted-document.js';

/** The parts of a fetched document extraction reads; safeFetch's FetchedDocument has them all. */
export interface ExtractionInput {
  finalUrl: string;
  contentType: string;
  charset?: string | undefined;
  kind: DocumentKind;
  body: Buffer;
  /**
   * The title for a PDF that names none in its metadata (many papers' PDFs do not): a paper's own, from its
   * lookup, says more than the file name that is used otherwise.
   */
  fallbackTitle?: string | undefined;
}

export interface TextPage {
  text: string;
  offset: number;
  /** Where the next page starts, or null when this page reaches the end. */
  next_offset: number | null;
  total_chars: number;
}

/** The fetch settings' defaults (FETCH_MAX_BYTES, FETCH_TIMEOUT_MS), for a document that comes with no settings. */
const DEFAULT_READING_LIMITS: PdfReadingLimits = { maxChars: DEFAULT_FETCH_MAX_BYTES, timeMs: DEFAULT_FETCH_TIMEOUT_MS };

/**
 * Turns a fetched body into Markdown and metadata by its kind: HTML, plain text, JSON, XML or PDF. Only a PDF
 * can hold more text than its bytes, so only its reading takes `limits`; one cut short says so at its end.
 */
export async function extractDocument(input: ExtractionInput, limits: PdfReadingLimits = DEFAULT_READING_LIMITS): Promise<ExtractedDocument> {
  return boundedDocument(await extractedByKind(input, limits));
}

async function extractedByKind(input: ExtractionInput, limits: PdfReadingLimits): Promise<ExtractedDocument> {
  const { finalUrl: url, contentType, kind } = input;
  if (kind === 'pdf') {
    const pdf = await extractPdfText(input.body, limits);
    return {
      title: pdf.title ?? input.fallbackTitle ?? titleFromUrl(url),
      ...(pdf.author ? { byline: pdf.author } : {}),
      ...(pdf.created ? { published_at: pdf.created } : {}),
      markdown: pdfMarkdown(pdf),
      links: [],
      content_type: contentType,
      ...(pdf.outOfTime ? { outOfTime: true as const } : {}),
    };
  }
  const text = decodeText(input.body, input.charset, selfDeclarationOf(kind, contentType));
  if (kind === 'html') return extractHtml(text, url, contentType);
  const markdown = kind === 'json' ? fenced(prettyJson(text), 'json') : kind === 'xml' ? fenced(text.trim(), 'xml') : text;
  const title = (kind === 'text' ? leadingHeading(text, contentType, url) : kind === 'xml' ? feedTitle(text) : undefined) ?? titleFromUrl(url);
  return { title, markdown, links: [], content_type: contentType };
}

/** XHTML served as XML is read by XML's rules too, so its declaration may name its encoding, as a feed's does. */
function selfDeclarationOf(kind: DocumentKind, contentType: string): SelfDeclaration {
  if (kind === 'html') return contentType === 'application/xhtml+xml' ? 'xhtml' : 'html';
  return kind === 'xml' ? 'xml' : 'none';
}

/**
 * A PDF's text, with a note at its end when reading stopped early, or in its place when every page was read and
 * none held text: a scanned paper is pages of images, and an empty success would read as an empty paper.
 */
function pdfMarkdown(pdf: PdfText): string {
  if (pdf.stopped) return `${pdf.text}\n\n[Reading stopped ${pdf.stopped}; the rest of the PDF was not read.]`;
  if (pdf.text.trim() !== '') return pdf.text;
  const pages = pdf.pages === 1 ? 'the 1 page' : `the ${pdf.pages} pages`;
  return `[No text was found in ${pages} of this PDF: it has no text layer (a scan, or pages of images) and would need OCR.]`;
}

/**
 * One page of a long text, `maxChars` UTF-16 units from `offset`, never splitting a surrogate pair, so
 * `next_offset` can be passed straight back as the next call's `offset`.
 */
export function pageText(text: string, offset: number, maxChars: number): TextPage {
  if (!Number.isInteger(offset) || offset < 0) throw invalidQuery(`offset: ${offset} is not allowed; allowed: a whole number ≥ 0`);
  if (!Number.isInteger(maxChars) || maxChars < 1) throw invalidQuery(`max_chars: ${maxChars} is not allowed; allowed: a whole number ≥ 1`);
  const total = text.length;
  const start = Math.min(offset, total);
  let end = Math.min(start + maxChars, total);
  if (end < total && end > start + 1 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return { text: text.slice(start, end), offset: start, next_offset: end < total ? end : null, total_chars: total };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * JSON indented for reading, unless indenting would multiply it: each line is indented by its depth, so 6 KB of
 * arrays nested 3,000 deep became 18 MB of spaces (kept whole for paging). Such a body is shown as written.
 */
function prettyJson(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (indentationExceeds(parsed, MAX_INDENTATION_PER_CHAR * text.length)) return text.trim();
    return JSON.stringify(parsed, null, 2);
  } catch {
    return text.trim();
  }
}

/** Indentation allowed per character of the body: a typical API answer needs about one. */
const MAX_INDENTATION_PER_CHAR = 4;

/** Whether JSON.stringify(value, null, 2) would write more than `limit` characters of line breaks and indentation. */
function indentationExceeds(value: unknown, limit: number): boolean {
  // A stack, not recursion: JSON.parse reads nesting deeper than a recursive walk could follow.
  const stack: Array<[unknown, number]> = [[value, 0]];
  let indentation = 0;
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    const children = Array.isArray(current) ? current : Object.values(current);
    if (children.length === 0) continue;
    // Each child on a line of its own one level in, and the closing bracket on a line at this level.
    indentation += children.length * (2 * depth + 3) + 2 * depth + 1;
    if (indentation > limit) return true;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return false;
}

/** A Markdown code block whose fence is longer than any backtick run inside it. */
function fenced(text: string, language: string): string {
  // A loop, not Math.max(...runs): a page of a few hundred thousand backtick runs overflowed the call stack.
  let longest = 2;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function titleFromUrl(url: string): string {
  const parsed = new URL(url);
  const last = parsed.pathname.split('/').filter((segment) => segment !== '').pop();
  if (!last) return parsed.hostname;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
