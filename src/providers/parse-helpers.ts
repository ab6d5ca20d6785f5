import { decode } from 'html-entities';
import { XMLParser } from 'fast-xml-parser';
import { cutText } from '../domain/cut-text.js';
import { parseError } from '../domain/errors.js';
import { isParserStableHttpUrl } from '../domain/plain-url.js';
import type { ProviderItem } from '../domain/result.js';
import type { UpstreamResponse } from './provider.js';

// Dates are read the same way for provider results and fetched pages: the parser lives in domain/.
export { isoDate } from '../domain/iso-date.js';

/** Body starts like an HTML page: an error page or a captcha where an API body was expected. */
function looksLikeHtml(body: string): boolean {
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(body);
}

const OPENING_BRACE = 0x7b;
const OPENING_BRACKET = 0x5b;

/**
 * Each response's parsed body, for as long as the response lives: an adapter's nextPageRequest reads the page
 * its parseResponse already parsed (Brave's `more_results_available`, a continuation token) without parsing
 * the whole body again. The parsed value is only read, never changed, by the adapters.
 */
const parsedBodies = new WeakMap<UpstreamResponse, unknown>();

/** Parses a JSON body, turning HTML pages and truncated JSON into clear parse errors. */
export function parseJsonBody(response: UpstreamResponse): unknown {
  if (parsedBodies.has(response)) return parsedBodies.get(response);
  const parsed = parseJsonText(response.body);
  parsedBodies.set(response, parsed);
  return parsed;
}

function parseJsonText(body: string): unknown {
  // A body that opens with a brace or a bracket is neither an HTML page nor blank: no need to look for either.
  const first = body.charCodeAt(0);
  if (first !== OPENING_BRACE && first !== OPENING_BRACKET) {
    if (looksLikeHtml(body)) throw parseError('expected JSON but the upstream sent an HTML page');
    // A search for the first non-blank character, not trim(): that would copy the whole body.
    if (!/\S/.test(body)) throw parseError('expected JSON but the body was empty');
  }
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    throw parseError('the JSON body could not be parsed (truncated or malformed)', withoutQuotedBody(error));
  }
}

/**
 * JSON.parse's error without the text it quotes: V8 writes about ten characters of the body either side of the fault
 * (`Unexpected token 'k', "key=abcdef"... is not valid JSON`), which may be the start of a key the upstream echoed,
 * and a failed capability call is logged with its cause. Redaction knows only whole keys, so the quote goes; the kind
 * of fault and where it was thrown stay.
 */
function withoutQuotedBody(error: unknown): unknown {
  if (!(error instanceof SyntaxError) || !error.message.includes('"')) return error;
  const kind = error.message.slice(0, error.message.indexOf('"')).replace(/[\s,.]+$/, '') || 'Unexpected input';
  const copy = new SyntaxError(`${kind}: the body is not valid JSON (its text is not quoted)`);
  const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  copy.stack = [`SyntaxError: ${copy.message}`, ...frames].join('\n');
  return copy;
}

/** Parses a JSON body that must be an object, as every JSON API answer read here is. */
export function parseJsonObject(response: UpstreamResponse): Record<string, unknown> {
  const body = parseJsonBody(response);
  if (!isRecord(body)) throw parseError('expected a JSON object');
  return body;
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  // Keep text as text: ids such as "0123" and years must not turn into numbers.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
});

/** Parses an XML body (namespaces removed), turning HTML pages and broken XML into clear parse errors. */
export function parseXmlBody(response: UpstreamResponse): Record<string, unknown> {
  if (looksLikeHtml(response.body)) throw parseError('expected XML but the upstream sent an HTML page');
  const body = response.body.trim();
  if (!body.startsWith('<')) throw parseError('expected XML but the body is not XML');
  let parsed: unknown;
  try {
    parsed = xmlParser.parse(body, true);
  } catch (error) {
    throw parseError('the XML body is malformed', error);
  }
  if (!isRecord(parsed)) throw parseError('the XML body has no document element');
  return parsed;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A list that may arrive as one item (XML with a single child) or not at all. */
export function asArray<T = unknown>(value: unknown): T[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]) as T[];
}

/**
 * How many entries a page's list holds, unreadable ones included: 0 when it is no list. Not asArray's length, which
 * counts a lone object as one: a JSON API's missing or mangled list listed nothing, and a full page is judged by it.
 */
export function listedCount(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}

/** The text of an XML node that may be a string or `{ '#text': … }` with attributes. */
export function xmlText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (isRecord(value) && '#text' in value) return xmlText(value['#text']);
  return undefined;
}

/**
 * XML text with white space folded, or undefined. The XML parser has already decoded entities, so `text()`
 * (which decodes again and strips anything between `<` and `>`) would eat abstracts such as "p < 0.05 … q > 1".
 */
export function plainXmlText(value: unknown): string | undefined {
  const folded = xmlText(value)?.replace(/\s+/g, ' ').trim();
  return folded ? folded : undefined;
}

/**
 * How entities are read: as in an HTML attribute value, where a reference without its `;` (`&copy 2024`) is
 * read only when no letter, digit or `=` follows. Many fields are plain text or markdown rather than HTML (Exa's
 * highlights, Tavily's content) and quote links with raw `&`: read as HTML body text, `?a=1&section=2` would
 * become `?a=1§ion=2`.
 */
export const ENTITY_DECODING = { scope: 'attribute' } as const;

/** HTML fragment to plain text: tags dropped, entities decoded, white space folded. */
export function htmlToText(value: string): string {
  if (isPlainText(value)) return value;
  // Most other titles and snippets hold no tag and no entity: only their white space needs folding.
  if (!value.includes('<') && !value.includes('&')) return foldWhiteSpace(value);
  // Only things shaped like tags or comments go: "a < b and c > d" in plain text survives. Block tags
  // become spaces so paragraphs do not run together; inline tags vanish so "foo<b>bar</b>" stays one word.
  return decode(
    withoutComments(value)
      .replace(/<\/?(p|br|div|li|ul|ol|h[1-6]|tr|td|th|table|section|article|blockquote|jats:p|jats:sec|jats:title)\b[^<>]*>/gi, ' ')
      .replace(/<\/?[A-Za-z][\w:-]*(\s[^<>]*)?\/?>/g, ''),
    ENTITY_DECODING,
  )
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * `value` without its `<!-- … -->` comments. Not `/<!--[\s\S]*?-->/g`: from each `<!--` with no `-->` after it, that
 * regex reads on to the end of the string, so an upstream title of `<!--` repeated took time by the square of its
 * length (200 KB held the event loop, and every other provider's search, for seconds). Once one comment has no end,
 * no later one has: the rest is kept as it is.
 */
function withoutComments(value: string): string {
  let start = value.indexOf('<!--');
  if (start === -1) return value;
  let kept = '';
  let from = 0;
  while (start !== -1) {
    const end = value.indexOf('-->', start + 4);
    if (end === -1) break;
    kept += value.slice(from, start);
    from = end + 3;
    start = value.indexOf('<!--', from);
  }
  return from === 0 ? value : kept + value.slice(from);
}

/**
 * Anything `htmlToText` would change inside a string: a tag or entity opener, white space other than a
 * plain space, or two spaces in a row (any other run of two white spaces holds one of the former).
 */
const NOT_PLAIN = /[<&]|[^\S ]|  /;
const SPACE = 0x20;

/** True when `htmlToText` would give the string back as it is: most titles and snippets, tested in one pass. */
function isPlainText(value: string): boolean {
  return value.charCodeAt(0) !== SPACE && value.charCodeAt(value.length - 1) !== SPACE && !NOT_PLAIN.test(value);
}

const UNFOLDED_WHITE_SPACE = /^\s|\s$|\s\s|[^\S ]/;

/** White space runs become one space, ends trimmed; a string that needs neither is returned as it is. */
function foldWhiteSpace(value: string): string {
  return UNFOLDED_WHITE_SPACE.test(value) ? value.replace(/\s+/g, ' ').trim() : value;
}

/**
 * A JSON string that is plain text, not HTML (GitHub's names and code, YouTube's videos.list snippet): white space
 * folded, nothing else. `text()` would strip `<…>` as markup and decode `&…;` as entities, turning a title such as
 * `std::vector<int>` into `std::vector`. Not `plainXmlText`: that also reads numbers and XML nodes, and a JSON
 * field that is not a string is dropped here.
 */
export function plainText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const folded = value.replace(/\s+/g, ' ').trim();
  return folded === '' ? undefined : folded;
}

/** A non-empty, trimmed string (HTML-stripped), or undefined: missing values are absent, never "". */
export function text(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const cleaned = htmlToText(String(value));
  return cleaned === '' ? undefined : cleaned;
}

const SNIPPET_CHARS = 300;

/** An abstract shortened for a snippet: cut at the last word break in its first 300 characters, marked with "…". */
export function snippetOf(abstract: string): string {
  return abstract.length <= SNIPPET_CHARS ? abstract : cutText(abstract, SNIPPET_CHARS);
}

/** A finite number from a number or numeric string, or undefined. */
export function numberOrUndefined(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** A plausible publication year (1000–2100) from a number or any date-like string. */
export function yearFrom(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value >= 1000 && value <= 2100 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /\b(1\d{3}|20\d{2}|2100)\b/.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** An id as a URL path: each `/`-separated part percent-encoded, the slashes kept (`10.1000/a#1` → `10.1000/a%231`). */
export function encodePathSegments(id: string): string {
  return id.split('/').map(encodeURIComponent).join('/');
}

/** An absolute http(s) URL string, or undefined. */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Most URLs in API answers are already what the parser would give back: no parse for those.
  if (isParserStableHttpUrl(value)) return value;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** Drops undefined fields so results never carry `key: undefined` into JSON or comparisons. */
export function compact<T extends object>(value: T): T {
  const kept: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) if (field !== undefined) kept[name] = field;
  return kept as T;
}

/**
 * A web result: title and URL, then the snippet and date when present. The fields `compact` would keep, in
 * the same order, without building the object twice.
 */
export function webItem(title: string, url: string, snippet: string | undefined, publishedAt: string | undefined): ProviderItem {
  const item: ProviderItem = { title, url };
  if (snippet !== undefined) item.snippet = snippet;
  if (publishedAt !== undefined) item.published_at = publishedAt;
  return item;
}

/** The items made of a list's objects, in order; anything else in the list, and objects `toItem` refuses, are skipped. */
export function itemsOf(values: readonly unknown[], toItem: (value: Record<string, unknown>) => ProviderItem | undefined, into: ProviderItem[] = []): ProviderItem[] {
  for (const value of values) {
    if (!isRecord(value)) continue;
    const item = toItem(value);
    if (item !== undefined) into.push(item);
  }
  return into;
}

/**
 * The items read from an answer that listed `listed` entries. One entry that cannot be a result (no URL and nothing to
 * make one from) is skipped so the rest still count, but when every entry of a non-empty answer was skipped the
 * upstream has changed its shape: a parse error, not an empty answer that would read as "nothing found".
 */
export function answerItems(listed: number, items: ProviderItem[]): ProviderItem[] {
  if (items.length === 0 && listed > 0) throw parseError(`none of the ${listed} listed results could be read (no URL or identifier in any)`);
  return items;
}

/** Provider extras without the missing ones; undefined when none is left. */
export function extraFields(fields: Record<string, string | number | boolean | undefined>): ProviderItem['extra'] {
  const present = Object.entries(fields).filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined);
  return present.length > 0 ? Object.fromEntries(present) : undefined;
}

/** Parse a Retry-After header (seconds or HTTP date) into milliseconds. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Where the JSON object that opens at `start` ends (the index after its closing brace), found by matching
 * braces outside strings; undefined when it is cut short. For objects embedded in pages and notes.
 */
export function jsonObjectEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{') depth += 1;
    else if (character === '}' && --depth === 0) return index + 1;
  }
  return undefined;
}
