import { decodeWindows1252 } from './windows-1252.js';

/**
 * Where a document may name its own encoding: an HTML page in a <meta>, an XML one (a feed) in its XML declaration,
 * XHTML in either (its declaration first, as XML's rules read it).
 */
export type SelfDeclaration = 'html' | 'xml' | 'xhtml' | 'none';

/**
 * A fetched body as text, its encoding chosen as a browser chooses it (WHATWG Encoding Standard, "decode", and
 * HTML's encoding sniffing): a byte order mark first, then the charset the Content-Type declares, then the one the
 * document names itself (an HTML <meta> charset in the first kilobyte, an XML declaration's encoding), else UTF-8.
 * The mark wins over a declared charset because it is the file's own: a UTF-8 file with a mark served as
 * windows-1252 read as "ï»¿GrÃ¼ÃŸe", and a UTF-16 one served as plain text/html read as UTF-8 was all replacement
 * characters and NULs. An XML declaration was not read at all: an ISO-8859-1 feed's "é" became "�".
 */
export function decodeText(body: Buffer, declared: string | undefined, selfDeclaration: SelfDeclaration): string {
  const encoding = byteOrderMark(body) ?? knownEncoding(declared) ?? ownEncoding(body, selfDeclaration) ?? 'utf-8';
  // The decoder takes the mark off when it names the encoding used, as it does here whenever there is one.
  return encoding === 'windows-1252' ? decodeWindows1252(body) : new TextDecoder(encoding).decode(body);
}

/** The encoding a body's byte order mark names, if it opens with one. */
export function byteOrderMark(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * The encoding a charset label names, or undefined for a label no decoder knows: that is no charset at all, and
 * the next source is asked, as a browser asks it (an unknown Content-Type charset used to skip the page's <meta>).
 */
export function knownEncoding(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** An XML declaration's encoding, which must open the document: `<?xml version="1.0" encoding="ISO-8859-1"?>`. */
const XML_DECLARATION_ENCODING = /^<\?xml\s[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/;
const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i;

/**
 * The encoding a document names in its first kilobyte. One naming UTF-16 is read as UTF-8, as browsers read it: a
 * name that could be read byte by byte as ASCII is not in UTF-16, and taken at its word it turned the whole page
 * into CJK noise.
 */
function ownEncoding(body: Buffer, selfDeclaration: SelfDeclaration): string | undefined {
  if (selfDeclaration === 'none') return undefined;
  const head = body.subarray(0, 1024).toString('latin1');
  const declared = selfDeclaration === 'html' ? undefined : XML_DECLARATION_ENCODING.exec(head)?.[1];
  const encoding = knownEncoding(declared ?? (selfDeclaration === 'xml' ? undefined : META_CHARSET.exec(head)?.[1]));
  return encoding?.startsWith('utf-16') ? 'utf-8' : encoding;
}
