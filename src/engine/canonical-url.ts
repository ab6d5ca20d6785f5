import { hasParserStableHttpHost, isParserStableHttpUrl } from '../domain/plain-url.js';
import { canonicalPlainQuery } from './plain-query.js';
import { compareParameters, isTracking } from './query-parameters.js';

/** What merging needs to know of a result's URL, from one parse: its dedup key and its domain. */
export interface UrlIdentity {
  key: string;
  domain: string | undefined;
}

/**
 * The key two URLs share when they show the same page: scheme, `www.`, default port, trailing slash,
 * fragment, host letter case, parameter order and tracking parameters do not count. Returns the input,
 * lower-cased, when it is not a URL, so odd values still deduplicate with themselves.
 */
export function canonicalUrl(value: string): string {
  return urlIdentity(value).key;
}

/**
 * The canonical key and the domain of one URL, parsed once (merging needs both for every web result). A URL the
 * parser gives back unchanged (domain/plain-url.ts) is taken apart by slicing it, without the parser.
 */
export function urlIdentity(value: string): UrlIdentity {
  return isParserStableHttpUrl(value) ? plainUrlIdentity(value) : parsedUrlIdentity(value);
}

/** Where the parts of a plain URL end: its host, its path (before the query) and its query (before the fragment). */
interface PlainUrlBounds {
  keyStart: number;
  hostEnd: number;
  pathEnd: number;
  queryEnd: number;
}

function plainUrlBounds(value: string): PlainUrlBounds {
  // `http://` or `https://`: the colon is the fifth character of one, the sixth of the other.
  const hostStart = value.charCodeAt(4) === 58 ? 7 : 8;
  const keyStart = value.startsWith('www.', hostStart) ? hostStart + 4 : hostStart;
  const fragment = value.indexOf('#', hostStart);
  const queryEnd = fragment < 0 ? value.length : fragment;
  const question = value.indexOf('?', hostStart);
  const pathEnd = question < 0 || question > queryEnd ? queryEnd : question;
  const slash = value.indexOf('/', hostStart);
  const hostEnd = slash < 0 || slash > pathEnd ? pathEnd : slash;
  return { keyStart, hostEnd, pathEnd, queryEnd };
}

function plainUrlIdentity(value: string): UrlIdentity {
  const { keyStart, hostEnd, pathEnd, queryEnd } = plainUrlBounds(value);
  let search = '';
  if (pathEnd < queryEnd) {
    const canonical = canonicalPlainQuery(value, pathEnd + 1, queryEnd);
    // A query the form encoding would change (`+`, `%`, a second `=`, …): the parser's reading decides.
    if (canonical === undefined) return parsedUrlIdentity(value);
    search = canonical;
  }
  const domain = value.slice(keyStart, hostEnd);
  const percent = value.indexOf('%', hostEnd);
  if (percent >= 0 && percent < pathEnd) {
    // The parser's pathname is the path as written: the general rule applies to it as it is.
    return { key: domain + samePercentEncoding(value.slice(hostEnd, pathEnd)).replace(/\/+$/, '') + search, domain };
  }
  // Trailing slashes do not count (and a host alone has the path `/`).
  let keyEnd = pathEnd;
  while (keyEnd > hostEnd && value.charCodeAt(keyEnd - 1) === 47) keyEnd -= 1;
  const path = value.slice(keyStart, keyEnd);
  return { key: search === '' ? path : path + search, domain };
}

/** The general rule, through the URL parser; urlIdentity skips it for URLs the parser would not change. */
export function parsedUrlIdentity(value: string): UrlIdentity {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { key: value.trim().toLowerCase(), domain: undefined };
  }
  // URL already lower-cases the host and drops the scheme's default port.
  const host = withoutWww(url.hostname);
  const port = url.port ? `:${url.port}` : '';
  const path = samePercentEncoding(url.pathname).replace(/\/+$/, '');
  return { key: `${host}${port}${path}${canonicalSearch(url)}`, domain: withoutWww(url.hostname.toLowerCase()) || undefined };
}

function withoutWww(hostname: string): string {
  return hostname.startsWith('www.') ? hostname.slice(4) : hostname;
}

/** The query string without tracking parameters, in one order; empty when nothing is left. */
function canonicalSearch(url: URL): string {
  if (url.search === '') return '';
  const parameters = [...url.searchParams.entries()]
    .filter(([name]) => !isTracking(name))
    .sort(([nameA, valueA], [nameB, valueB]) => compareParameters(nameA, valueA, nameB, valueB));
  return parameters.length > 0 ? `?${new URLSearchParams(parameters).toString()}` : '';
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
  if (hasParserStableHttpHost(value)) {
    const { keyStart, hostEnd } = plainUrlBounds(value);
    return value.slice(keyStart, hostEnd);
  }
  try {
    return withoutWww(new URL(value).hostname.toLowerCase()) || undefined;
  } catch {
    return undefined;
  }
}
