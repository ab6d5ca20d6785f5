import { hideUrlUserinfo } from './url-userinfo.js';

/**
 * Query parameters whose values are credentials, by name lower-cased without `-` and `_` (`api_key`, `api-key` and
 * `apiKey` are one name). fedsearch reads its own key only from a header, but a client may put it in the URL all the
 * same; and a URL a caller asks fedsearch to fetch (fetch_url's url, /v1/papers/download?url=) may carry the caller's
 * credentials for that other site: a token, or a signed URL's signature (S3's X-Amz-*, GCS's X-Goog-*, Azure's sig).
 * These names are credentials whole; SECRET_ENDING finds the many more that only end like one.
 */
const SECRET_PARAMETERS: ReadonlySet<string> = new Set(['key', 'auth', 'authorization', 'sessionid', 'sig']);

/**
 * The endings of a credential's name: each site names its own (`api_token`, `auth_token`, GitLab's `private_token`,
 * Brave's `X-Subscription-Token`, `access_key`, Azure's `subscription-key`, `app_secret`, `oauth_signature`, a
 * bearer token passed as `jwt` or `auth_jwt`, as Mercure's hubs, Metabase's embeds and many a signed link take it),
 * and a list of whole names let every one it lacked into the log; a session's id is one too, as a URL carries it
 * (Java's `;jsessionid=`, PHP's `PHPSESSID`, ASP.NET's `ASP.NET_SessionId`). An ending, not a part: `tokens` and
 * `signature_version` are no credentials.
 */
const SECRET_ENDING = /(?:token|secret|password|passwd|signature|credential|jwt|apikey|accesskey|secretkey|privatekey|subscriptionkey|sessionid|sessid)$/;

/**
 * How many times a name's escapes are decoded: once as written, again for a URL that sits in another's query, and
 * once more for one encoded twice there (DOUBLY_ENCODED_PARAMETER).
 */
const NAME_DECODINGS = 3;

/**
 * Whether `name` is a secret's, read as the query parser reads it: `api%5Fkey` and `%6Bey` are `api_key` and `key`.
 * A URL inside another's query is encoded once more, its names' escapes with it (`%3Fapi%255Fkey%3D…` is the nested
 * URL's `api%5Fkey`, its site's `api_key`): a name is decoded until it has no escape left, NAME_DECODINGS times at most.
 */
export function isSecretParameter(name: string): boolean {
  let decoded = name;
  for (let decodings = 0; decodings < NAME_DECODINGS && (decoded.includes('%') || decoded.includes('+')); decodings += 1) {
    try {
      decoded = decodeURIComponent(decoded.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: the parser keeps such a name as it is, and so is it read here.
      break;
    }
  }
  const normalised = decoded.toLowerCase().replace(/[-_]/g, '');
  return SECRET_PARAMETERS.has(normalised) || SECRET_ENDING.test(normalised);
}

/**
 * A parameter of a URL written in text (`?name=value`, `&name=value`): its value ends where the next parameter
 * starts, or at a blank or a quote (the end of the URL in a message). A `?` ends it too, so that the query of a URL
 * given unencoded as another's value (`?url=https://files.example/a.pdf?sig=…`) is read as parameters of its own;
 * and a `;`, which many a site reads as `&` (`?a=1;token=…`), or as the start of a path's parameters (`;jsessionid=…`).
 */
const PLAIN_PARAMETER = /([?&#;])((?:[^=&#?;\s"'%]|%[0-9A-F]{2})+)=([^&#?;\s"']*)/gi;
/** The same, percent-encoded once, as a URL sits in another URL's query (`?url=https%3A…%3Fsig%3D…%26v%3D3`). */
const ENCODED_PARAMETER = /(%3F|%26|%23|%3B)((?:[^=&#?;\s"'%]|%(?!3D|26|3F|23|3B)[0-9A-F]{2})+)(%3D)((?:[^&#?;\s"'%]|%(?!26|23|3F|3B)[0-9A-F]{2})*)/gi;
/**
 * The same, percent-encoded twice (each `%` once more as `%25`), as a URL sits in a URL in another's query
 * (`?next=https%253A%252F%252Fh%252F%253Fapi_key%253DK`, a redirect's target carrying a login's return address).
 * A separator encoded once (`%26`, `%3F`…) is the middle URL's, so it ends the pair too: `…%253DK%26lang%3Den` hid
 * the middle URL's `lang=en` with the key.
 */
const DOUBLY_ENCODED_PARAMETER =
  /(%253F|%2526|%2523|%253B)((?:[^=&#?;\s"'%]|%25(?!3D|26|3F|23|3B)[0-9A-F]{2}|%(?!25|3D|26|3F|23|3B)[0-9A-F]{2})+)(%253D)((?:[^&#?;\s"'%]|%25(?!26|23|3F|3B)[0-9A-F]{2}|%(?!25|26|3F|23|3B)[0-9A-F]{2})*)/gi;
/**
 * A key and a string value quoted as JSON (or a language's literal) writes them, as an error quoting an upstream's
 * request or answer does: `{"api_key":"abc"}`, `"token": "abc"`, `'access_token': 'x'`, and `{\"api_key\":\"abc\"}`
 * for JSON quoted in a JSON string. The value is read to its own closing quote, escaped quotes inside it included.
 */
const QUOTED_PAIR = /(\\?["'])([^"'\\\s:{},[\]]{1,100})\1(\s*:\s*)(\\?["'])((?:\\.|[^\\\n]){0,4096}?)\4/g;
/** Punctuation a message puts right after a URL (`could not fetch https://…?sig=…: refused`): not part of the value. */
const TRAILING_PUNCTUATION = /[:.,;)]+$/;

const REDACTED = '[redacted]';

/**
 * `text` (a log line's URL or message) with the credentials of every URL in it hidden: the values of parameters with
 * a secret's name, written plainly or inside another URL's query, and user names and passwords. Everything else of
 * the URL stays (scheme, host, path, other parameters): an operator still sees what was fetched.
 */
export function hideUrlSecrets(text: string): string {
  let hidden = text;
  if (hidden.includes('=')) hidden = hidden.replace(PLAIN_PARAMETER, (pair, separator: string, name: string, value: string) => hiddenPair(pair, separator, name, '=', value));
  // Only a URL inside another's query is written with an encoded `=`: most text has none and pays one search.
  if (hidden.includes('%3D') || hidden.includes('%3d')) {
    hidden = hidden.replace(ENCODED_PARAMETER, (pair, separator: string, name: string, equals: string, value: string) => hiddenPair(pair, separator, name, equals, value));
  }
  // Rarer still, one encoded twice: only text with an escaped `%` (`%25`) is searched for its `=` (`%253D`).
  if (hidden.includes('%25') && (hidden.includes('%253D') || hidden.includes('%253d'))) {
    hidden = hidden.replace(DOUBLY_ENCODED_PARAMETER, (pair, separator: string, name: string, equals: string, value: string) => hiddenPair(pair, separator, name, equals, value));
  }
  // Only a quoted key is followed by a quote and then a colon: most text has no quote and pays one search for each.
  if ((hidden.includes('"') || hidden.includes("'")) && hidden.includes(':')) hidden = hidden.replace(QUOTED_PAIR, hiddenQuotedPair);
  return hideUrlUserinfo(hidden);
}

function hiddenQuotedPair(pair: string, keyQuote: string, name: string, colon: string, valueQuote: string, value: string): string {
  if (value === '' || !isSecretParameter(name)) return pair;
  return `${keyQuote}${name}${keyQuote}${colon}${valueQuote}${REDACTED}${valueQuote}`;
}

function hiddenPair(pair: string, separator: string, name: string, equals: string, value: string): string {
  if (!isSecretParameter(name)) return pair;
  const punctuation = TRAILING_PUNCTUATION.exec(value)?.[0] ?? '';
  return value.length === punctuation.length ? pair : `${separator}${name}${equals}${REDACTED}${punctuation}`;
}

/**
 * Whether a request's URL holds another URL in its query (`?url=https%3A%2F%2F…`, `?url=https://…`, or encoded twice:
 * `?next=https%253A%252F%252F…`), whose own
 * parameters the request's log line reads too: every request's URL is logged, and most hold none.
 */
export function holdsNestedUrl(url: string): boolean {
  // `%253A%252F%252F` holds no `%3A%2F%2F`: a URL encoded twice is looked for as well.
  return url.includes('://') || /%(?:25)?3A%(?:25)?2F%(?:25)?2F/i.test(url);
}
