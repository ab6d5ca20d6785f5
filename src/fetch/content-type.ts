import { byteOrderMark, knownEncoding } from './decode-text.js';

/** The kinds of document fetch_url and paper_read can turn into text. */
export type DocumentKind = 'html' | 'text' | 'json' | 'xml' | 'pdf';

export interface MediaType {
  /** Lower-case type/subtype without parameters, e.g. "text/html". */
  essence: string;
  charset: string | undefined;
}

const KIND_BY_ESSENCE: Record<string, DocumentKind> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'text/markdown': 'text',
  'application/json': 'json',
  'text/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
};

/**
 * Types servers send when they do not know (PDF repositories often do), or to make a browser save the file rather
 * than show it (PHP's and DSpace's download links): the body decides.
 */
const SNIFFED_ESSENCES = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'application/unknown',
  'application/force-download',
  'application/x-download',
  'application/download',
]);

export const ALLOWED_CONTENT_TYPES = 'HTML, XHTML, plain text, JSON, XML and PDF';

export function parseContentType(header: string | undefined): MediaType | undefined {
  if (!header) return undefined;
  const [essence = '', ...parameters] = header.split(';');
  const trimmed = essence.trim().toLowerCase();
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(trimmed)) return undefined;
  let charset: string | undefined;
  for (const parameter of parameters) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(parameter);
    if (match?.[1]) charset = match[1].toLowerCase();
  }
  return { essence: trimmed, charset };
}

/**
 * The document kind of a declared media type: a known type, or a +json / +xml suffix (feeds, JSON-LD).
 * "sniff" means the type says nothing and the body's first bytes decide; undefined means refused.
 */
export function kindOfMediaType(essence: string): DocumentKind | 'sniff' | undefined {
  const known = KIND_BY_ESSENCE[essence];
  if (known) return known;
  if (essence.endsWith('+json')) return 'json';
  if (essence.endsWith('+xml')) return 'xml';
  if (SNIFFED_ESSENCES.has(essence)) return 'sniff';
  return undefined;
}

/** Guesses the kind of an undeclared body from its first bytes, the way browsers sniff the common cases. */
export function sniffKind(body: Buffer): { kind: DocumentKind; essence: string } | undefined {
  const head = body.subarray(0, 512).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
  if (head.startsWith('%PDF-')) return { kind: 'pdf', essence: 'application/pdf' };
  if (/^<!doctype html|^<html|^<head|^<body/i.test(head)) return { kind: 'html', essence: 'text/html' };
  if (head.startsWith('<?xml')) return { kind: 'xml', essence: 'application/xml' };
  if (/^[{[]/.test(head)) return { kind: 'json', essence: 'application/json' };
  if (!/[\x00-\x08\x0E-\x1F]/.test(head)) return { kind: 'text', essence: 'text/plain' };
  return undefined;
}

/** Bytes no text holds (WHATWG MIME Sniffing's "binary data bytes"): ESC and form feed are not among them. */
const BINARY_BYTE = /[\x00-\x08\x0B\x0E-\x1A\x1C-\x1F]/;

/**
 * What a body declared as text (HTML, plain text, JSON or XML) shows itself to be when its first bytes say otherwise:
 * a PDF (servers send PDFs as text/html or text/plain), or binary (an image, an archive); undefined when it may be
 * the text it says. Taken at their word, both were read as pages of PDF syntax or of control characters. Text in
 * UTF-16 holds NUL bytes: a body with its mark, or declared in it, is not judged by its bytes.
 */
export function textBodyMismatch(body: Buffer, charset: string | undefined): 'pdf' | 'binary' | undefined {
  if (sniffKind(body)?.kind === 'pdf') return 'pdf';
  const utf16 = isUtf16(byteOrderMark(body)) || isUtf16(knownEncoding(charset));
  return !utf16 && BINARY_BYTE.test(body.subarray(0, 512).toString('latin1')) ? 'binary' : undefined;
}

function isUtf16(encoding: string | undefined): boolean {
  return encoding?.startsWith('utf-16') === true;
}
