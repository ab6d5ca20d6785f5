import { hasParserStableHttpHost, isParserStableHttpUrl } from '../domain/plain-url.js';
import { LOCAL_LINK_SCHEME } from '../providers/capabilities.js';
import { canonicalPlainQuery } from './plain-query.js';
import { compareParameters, isTracking } from './query-parameters.js';
import { sitePageKey } from './site-pages.js';

/** What merging needs to know of a result's URL, from one parse: its dedup key and its domain. */
export interface UrlIdentity {
  key: string;
  domain: string | undefined;
}

/**
 * The key two URLs share when they show the same page: scheme, `www.`, a mobile site's `m.` label, a host's
 * trailing dot, default port, a directory's index file (`index.html`), trailing slash, fragment (unless it is a route: `#/…`, `#!…`), host letter case,
 * parameter order and tracking parameters do not count, nor what site-pages.ts takes out (a `;jsessionid=`, a
 * YouTube video's or an arXiv paper's other links). Returns the input,
 * lower-cased, when it is not a URL, so odd values still deduplicate with themselves.
 */
export function canonicalUrl(value: string): string {
  return urlIdentity(value).key;
}

/** The canonical key and the domain of one URL, parsed once (or not at all: see plainUrlKey). */
export function urlIdentity(value: string): UrlIdentity {
  const key = plainUrlKey(value);
  return key === undefined ? parsedUrlIdentity(value) : { key, domain: plainUrlDomain(value) };
}

/** Where a plain URL's host starts: after `http://` or `https://` (the colon is the fifth character of one, the sixth of the other). */
function hostStartOf(value: string): number {
  return value.charCodeAt(4) === 58 ? 7 : 8;
}

/** Where its key and domain start: the host without `www.`. */
function keyStartOf(value: string, hostStart: number): number {
  return value.startsWith('www.', hostStart) ? hostStart + 4 : hostStart;
}

/**
 * The key of a URL the parser gives back unchanged (domain/plain-url.ts), taken apart by slicing it; undefined
 * for any other URL, and for a query the form encoding would change (`+`, `%`, a second `=`, …): the parser
 * must read those (parsedUrlIdentity).
 */
export function plainUrlKey(value: string): string | undefined {
  const key = plainKey(value);
  return key === undefined ? undefined : sitePageKey(key);
}

/** plainUrlKey before sitePageKey: the general rule, by slicing. */
function plainKey(value: string): string | undefined {
  if (!isParserStableHttpUrl(value)) return undefined;
  const hostStart = hostStartOf(value);
  const keyStart = keyStartOf(value, hostStart);
  // A plain URL has a path: the host ends at its `/`. The query (from `?`) ends where a fragment starts.
  const hostEnd = value.indexOf('/', hostStart);
  const mobile = mobileLabelStart(value, keyStart, hostEnd);
  const fragment = value.indexOf('#', hostEnd);
  const queryEnd = fragment < 0 ? value.length : fragment;
  const question = value.indexOf('?', hostEnd);
  const pathEnd = question < 0 || question > queryEnd ? queryEnd : question;
  let search = '';
  if (pathEnd < queryEnd) {
    const canonical = canonicalPlainQuery(value, pathEnd + 1, queryEnd);
    if (canonical === undefined) return undefined;
    search = canonical;
  }
  // A plain URL's fragment is as the parser's hash writes it.
  const route = fragment < 0 ? '' : routeOf(value.slice(fragment));
  const percent = value.indexOf('%', hostEnd);
  if (percent >= 0 && percent < pathEnd) {
    // The parser's pathname is the path as written: the general rule applies to it as it is.
    const host = hostKeyOf(value, keyStart, hostEnd, mobile);
    return host + wikiTitlePath(host, directoryPath(samePercentEncoding(value.slice(hostEnd, pathEnd)))) + search + route;
  }
  // A directory's index file and trailing slashes do not count (and a host alone has the path `/`).
  let keyEnd = directoryIndexStart(value, hostEnd, pathEnd);
  while (keyEnd > hostEnd && value.charCodeAt(keyEnd - 1) === 47) keyEnd -= 1;
  const path = mobile < 0 ? value.slice(keyStart, keyEnd) : hostKeyOf(value, keyStart, hostEnd, mobile) + value.slice(hostEnd, keyEnd);
  return search === '' && route === '' ? path : path + search + route;
}

/** The files a web server answers a directory's URL with: `/docs/` shows `/docs/index.html`. */
const DIRECTORY_INDEX_FILES = ['index.html', 'index.htm'];

/**
 * Where the path value[start, end) ends once a directory index file closing it is dropped (after its directory's
 * `/`), or `end`: a few character comparisons, no copy, as a plain URL's key is made.
 */
function directoryIndexStart(value: string, start: number, end: number): number {
  for (const file of DIRECTORY_INDEX_FILES) {
    const fileStart = end - file.length;
    if (fileStart > start && value.charCodeAt(fileStart - 1) === 47 && value.startsWith(file, fileStart)) return fileStart;
  }
  return end;
}

/** A path as a key has it: without a directory index file closing it, and without trailing slashes. */
function directoryPath(path: string): string {
  let end = directoryIndexStart(path, 0, path.length);
  // Counted back, not matched by /\/+$/: that tried every slash of a run as its start, and a result's URL (up to
  // RESULT_BOUNDS.url) of 8,000 slashes before a letter took 50 ms, a provider page of them seconds.
  while (end > 0 && path.charCodeAt(end - 1) === 47) end -= 1;
  return path.slice(0, end);
}

/**
 * Where the `m.` label of a mobile site's host starts (`m.youtube.com`, Wikipedia's `en.m.wikipedia.org`), or -1:
 * it serves the pages of the host without it. Only as the first or second label, with two labels left after it
 * (`m.me` is a site of its own). `mobile.` is left alone: sites name whole other sites by it (`mobile.de`, SDK docs).
 */
function mobileLabelStart(host: string, start: number, end: number): number {
  let label = start;
  if (!host.startsWith('m.', label)) {
    const firstDot = host.indexOf('.', start);
    if (firstDot < 0 || firstDot >= end || !host.startsWith('m.', firstDot + 1)) return -1;
    label = firstDot + 1;
  }
  const nextDot = host.indexOf('.', label + 2);
  return nextDot >= 0 && nextDot < end ? label : -1;
}

/** The host part of a key: host[start, end) without the `m.` label at `mobile` (when that is not -1). */
function hostKeyOf(host: string, start: number, end: number, mobile: number): string {
  return mobile < 0 ? host.slice(start, end) : host.slice(start, mobile) + host.slice(mobile + 2, end);
}

/** The sites of the Wikimedia projects, whose article paths are MediaWiki titles. */
const WIKIMEDIA_HOST = /(?:^|\.)(?:wikipedia|wiktionary|wikibooks|wikiquote|wikisource|wikinews|wikiversity|wikivoyage|wikimedia|wikidata|mediawiki)\.org$/;

/**
 * A Wikimedia article path with its spaces written as MediaWiki writes them, `_`: `/wiki/Ada%20Lovelace` is
 * `/wiki/Ada_Lovelace`. Any other site's `%20` and `_` stay two characters. `path` is percent-encoded one way
 * (samePercentEncoding), so a space is always `%20` in it.
 */
function wikiTitlePath(host: string, path: string): string {
  return path.startsWith('/wiki/') && path.includes('%20') && WIKIMEDIA_HOST.test(host) ? path.replaceAll('%20', '_') : path;
}

/**
 * The part of a fragment (`#…`, as the parser writes it) that names a page: a single-page app routes by `#/docs/a`
 * or `#!/profile/42`, and each route is a page of its own (two results), where `#section` is a place on one page.
 */
function routeOf(hash: string): string {
  return hash.startsWith('#/') || hash.startsWith('#!') ? hash : '';
}

/** The domain of a URL whose host the parser keeps as written (and ends at a `/`): sliced out, without `www.`. */
function plainUrlDomain(value: string): string {
  const hostStart = hostStartOf(value);
  return value.slice(keyStartOf(value, hostStart), value.indexOf('/', hostStart));
}

/**
 * The key two links share when they fetch the same file: canonicalUrl's without site-pages.ts's rules, under
 * which an arXiv paper's abstract page and its PDF are one page, but only one of them is a PDF.
 */
export function canonicalFileUrl(value: string): string {
  return plainKey(value) ?? parsedGeneralIdentity(value).key;
}

/** The general rule, through the URL parser; urlIdentity skips it for URLs the parser would not change. */
export function parsedUrlIdentity(value: string): UrlIdentity {
  const identity = parsedGeneralIdentity(value);
  identity.key = sitePageKey(identity.key);
  return identity;
}

/** parsedUrlIdentity before sitePageKey. */
function parsedGeneralIdentity(value: string): UrlIdentity {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { key: value.trim().toLowerCase(), domain: undefined };
  }
  // URL already lower-cases the host and drops the scheme's default port.
  const site = siteOf(url.hostname);
  const host = hostKeyOf(site, 0, site.length, mobileLabelStart(site, 0, site.length));
  const port = url.port ? `:${url.port}` : '';
  const path = wikiTitlePath(host, directoryPath(samePercentEncoding(url.pathname)));
  // A web page's fragment is a place on the page; a local index link's names a record of its file (`#2` of a
  // .jsonl or a JSON array): two records are two results.
  const record = url.protocol === LOCAL_LINK_SCHEME ? url.hash : routeOf(url.hash);
  return { key: `${host}${port}${path}${canonicalSearch(url)}${record}`, domain: siteOf(url.hostname.toLowerCase()) || undefined };
}

/** A parsed hostname without `www.` and without the trailing dot of a fully qualified name (`example.com.` is `example.com`). */
function siteOf(hostname: string): string {
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** The query string without tracking parameters, in one order; empty when nothing is left. */
function canonicalSearch(url: URL): string {
  if (url.search === '') return '';
  if (url.search.includes('%') && !decodesAsUtf8(url.search)) return canonicalUndecodedSearch(url.search);
  const parameters = [...url.searchParams.entries()]
    .filter(([name]) => !isTracking(name))
    .sort(([nameA, valueA], [nameB, valueB]) => compareParameters(nameA, valueA, nameB, valueB));
  return parameters.length > 0 ? `?${new URLSearchParams(parameters).toString()}` : '';
}

/** Whether every percent escape of a text decodes as UTF-8 (and none is malformed, as `%zz` is). */
function decodesAsUtf8(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * canonicalSearch of a query whose escapes are not all UTF-8: a legacy site's Latin-1 or Shift_JIS query
 * (`?q=M%FCller`). URLSearchParams reads every such byte as U+FFFD, so `?q=M%FCller` and `?q=M%F6ller`, two
 * searches, would make one key and one result. Its parameters are kept as written instead (escapes in upper
 * case, so `%fc` is `%FC`), tracking ones left out and the rest in one order: two spellings of one such query
 * may then stay two keys, two different queries never become one.
 */
function canonicalUndecodedSearch(search: string): string {
  const parameters: Array<[string, string]> = [];
  for (const piece of search.slice(1).split('&')) {
    if (piece === '') continue;
    const equals = piece.indexOf('=');
    const name = upperCaseEscapes(equals < 0 ? piece : piece.slice(0, equals));
    if (isTracking(formDecodedName(name))) continue;
    parameters.push([name, equals < 0 ? '' : upperCaseEscapes(piece.slice(equals + 1))]);
  }
  parameters.sort(([nameA, valueA], [nameB, valueB]) => compareParameters(nameA, valueA, nameB, valueB));
  return parameters.length > 0 ? `?${parameters.map(([name, value]) => `${name}=${value}`).join('&')}` : '';
}

function upperCaseEscapes(text: string): string {
  return text.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}

/** A parameter name as the form encoding reads it, for the tracking check (`utm%5Fsource` is `utm_source`); as written when it does not decode. */
function formDecodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/**
 * Characters samePercentEncoding leaves as they are: what encodeURIComponent keeps, plus the sub-delimiters
 * it puts back. A path made only of these (most are) needs no decoding and encoding at all.
 */
const ALREADY_CANONICAL_PATH = /^[A-Za-z0-9\-_.!~*'():@$&+,;=/]*$/;

/** `%3A` and `:`, `%27` and `'`, `%C3%A9` and `é` name the same path: decode, then encode one way. */
export function samePercentEncoding(pathname: string): string {
  return ALREADY_CANONICAL_PATH.test(pathname) ? pathname : reencodePath(pathname);
}

/** The general rule, segment by segment; samePercentEncoding skips it for paths it would not change. */
export function reencodePath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        // Sub-delimiters are legal raw in a path segment; keep them raw so both spellings meet.
        return encodeURIComponent(decodeURIComponent(segment)).replace(/%(3A|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/gi, (escape) =>
          decodeURIComponent(escape),
        );
      } catch {
        return segment;
      }
    })
    .join('/');
}

/**
 * The host a result lives on, without `www.`, for display and domain filters. A host the parser would give back
 * as written is sliced out, however the rest of the URL is spelled (paper links are full of `%20`).
 */
export function domainOf(value: string): string | undefined {
  if (hasParserStableHttpHost(value)) return plainUrlDomain(value);
  try {
    return siteOf(new URL(value).hostname) || undefined;
  } catch {
    return undefined;
  }
}
