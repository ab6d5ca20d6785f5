/** One path segment, query or fragment character the URL parser keeps as it is, or a percent-encoded octet. */
const KEPT = String.raw`(?:[A-Za-z0-9\-._~!$&()*+,;=:@]|%[0-9A-Fa-f]{2})`;
/** Scheme and host as the parser writes them: lower case, no punycode label, the last label starting with a letter. */
const PLAIN_SCHEME_AND_HOST = String.raw`^https?://(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z][a-z0-9-]*`;

/**
 * An http(s) URL the URL parser gives back character for character: lower-case scheme and host; no user,
 * port or trailing dot; a host whose last label starts with a letter (never an IPv4 address) and no punycode
 * label (those are decoded and checked); a path that is there, with no segment starting with a dot (`.` and
 * `..` are resolved); only characters that are never percent-encoded.
 */
const PLAIN_HTTP_URL = new RegExp(
  PLAIN_SCHEME_AND_HOST + String.raw`(?:/(?!\.|%2[eE])${KEPT}*)+(?:\?(?:${KEPT}|[/?])*)?(?:#(?:${KEPT}|[/?])*)?$`,
);
/**
 * The start of PLAIN_HTTP_URL up to the path's first `/`. The parser reads the host of an http(s) URL up to
 * that `/` and never fails on what follows (a path, query or fragment is percent-encoded, never refused), so
 * such a URL's hostname is the host as written, whatever the rest holds.
 */
const PLAIN_HTTP_HOST = new RegExp(`${PLAIN_SCHEME_AND_HOST}/`);

/**
 * Whether `new URL(value).href` would be `value` itself: the shape of most URLs in API answers, which can then
 * be used (or sliced) without a parse. False only means "parse it to know".
 */
export function isParserStableHttpUrl(value: string): boolean {
  return PLAIN_HTTP_URL.test(value);
}

/** Whether `new URL(value).hostname` is the host as written in `value` (the `/` after it comes first). */
export function hasParserStableHttpHost(value: string): boolean {
  return PLAIN_HTTP_HOST.test(value);
}
