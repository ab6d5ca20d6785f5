import { decode } from 'html-entities';

/** How far into a feed its title is looked for: it comes before the items, near the start. */
const LOOKED_AT_CHARS = 65_536;

/** An element's name, read where its `<` ends. */
const ELEMENT_NAME = /[A-Za-z_][\w.:-]*/y;

/**
 * The root element's name, after a byte order mark, the XML declaration, comments, processing instructions and a
 * doctype (with its internal subset), or undefined. Read by one scan forward, each construct's end found once: as one
 * regular expression, a run of comments before an unclosed `<?` took it seconds to give up on 14 KB.
 */
function rootElementName(head: string): string | undefined {
  let at = head.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (at < head.length) {
    const code = head.charCodeAt(at);
    if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) {
      at += 1;
      continue;
    }
    if (code !== 0x3c) return undefined;
    let end: number;
    if (head.startsWith('<?', at)) end = endAfter(head, '?>', at + 2);
    else if (head.startsWith('<!--', at)) end = endAfter(head, '-->', at + 4);
    else if (head.startsWith('<!DOCTYPE', at)) end = doctypeEnd(head, at + 9);
    else {
      ELEMENT_NAME.lastIndex = at + 1;
      return ELEMENT_NAME.exec(head)?.[0];
    }
    if (end < 0) return undefined;
    at = end;
  }
  return undefined;
}

/** Where the text after `closing` (looked for from `from`) starts, or -1 when it never comes. */
function endAfter(head: string, closing: string, from: number): number {
  const found = head.indexOf(closing, from);
  return found < 0 ? -1 : found + closing.length;
}

/** Where a doctype ends: its `>`, after its internal subset `[…]` when it has one. */
function doctypeEnd(head: string, from: number): number {
  const close = head.indexOf('>', from);
  const subset = head.indexOf('[', from);
  if (subset < 0 || (close >= 0 && close < subset)) return close < 0 ? -1 : close + 1;
  const subsetEnd = head.indexOf(']', subset + 1);
  return subsetEnd < 0 ? -1 : endAfter(head, '>', subsetEnd + 1);
}
/** RSS 0.9x/2.0, Atom, and RSS 1.0 (RDF): the feeds whose own <title> names them. */
const FEED_ROOTS = new Set(['rss', 'feed', 'RDF']);
/** Where a feed's items start: a <title> from there on is an item's, not the feed's. */
const FIRST_ITEM = /<(?:[\w.-]+:)?(?:item|entry)\b/;
/** The feed's title element opening, its attributes kept apart from any '<' (each candidate scanned once). */
const TITLE_OPENING = /<((?:[\w.-]+:)?title)\b([^<>]*)>/;

/**
 * The title an RSS channel or Atom feed gives itself, or undefined for any other XML: a feed read as a page was
 * titled by its URL's last segment ("feed.xml", "rss") while it says its own name. An Atom title of type html or
 * xhtml holds markup, which is taken out.
 */
export function feedTitle(xml: string): string | undefined {
  const head = xml.slice(0, LOOKED_AT_CHARS);
  const root = rootElementName(head);
  if (root === undefined || !FEED_ROOTS.has(root.slice(root.indexOf(':') + 1))) return undefined;
  const itemAt = head.search(FIRST_ITEM);
  const channel = itemAt < 0 ? head : head.slice(0, itemAt);
  const opening = TITLE_OPENING.exec(channel);
  if (!opening) return undefined;
  // Its end looked for once, from the first opening only: a feed of unclosed <title>s is not searched once for each.
  const start = opening.index + opening[0].length;
  const end = channel.indexOf(`</${opening[1]}`, start);
  if (end < 0) return undefined;
  const marked = /\btype\s*=\s*["'](?:html|xhtml)["']/.test(opening[2]!);
  const text = textOf(channel.slice(start, end), marked);
  return text === '' ? undefined : text;
}

/**
 * The most of a title element read: far more than a title shows (DOCUMENT_BOUNDS cuts it after), and little enough
 * that no title can cost its reading much.
 */
const MAX_TITLE_SOURCE_CHARS = 4_096;

/** A tag, up to its '>' or the next '<': one without an end is not scanned to the end of the text again for each. */
const TAG = /<[^<>]*>/g;

/** An element's text: CDATA sections as written, entities decoded once, markup out where the title holds some. */
function textOf(content: string, marked: boolean): string {
  const source = content.slice(0, MAX_TITLE_SOURCE_CHARS);
  let text = '';
  let at = 0;
  while (at < source.length) {
    const cdata = source.indexOf('<![CDATA[', at);
    const plainEnd = cdata < 0 ? source.length : cdata;
    text += decode(source.slice(at, plainEnd).replace(TAG, ''), { level: 'xml' });
    if (cdata < 0) break;
    const close = source.indexOf(']]>', cdata + 9);
    text += source.slice(cdata + 9, close < 0 ? source.length : close);
    at = close < 0 ? source.length : close + 3;
  }
  // An html title is escaped markup: once decoded, its tags are taken out as an xhtml title's were.
  if (marked) text = decode(text.replace(TAG, ''), { level: 'html5' });
  return text.replace(/\s+/g, ' ').trim();
}
