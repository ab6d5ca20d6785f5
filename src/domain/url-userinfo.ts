/**
 * A URL's user name and password (`https://alice:secret@host/`) are credentials for someone else's site: the fetcher
 * refuses such URLs, and nothing of them may be echoed in an answer or written to a log either. They are found
 * written plainly or percent-encoded once, as a URL sits in another URL's query (`?url=https%3A%2F%2Falice%3A…%40host`).
 *
 * After `://` (or `%3A%2F%2F`), everything up to the last `@` (or `%40`) before the authority ends at `/`, `?`, `#`
 * (or their escapes), `&` (the enclosing query's next parameter), a quote or a blank. An `@` in a path
 * (`https://medium.com/@name`) comes after a `/` and stays.
 */
const USERINFO = /(:\/\/|%3A%2F%2F)((?:[^/?#&"\s%]|%(?!2F|3F|23)[0-9A-F]{2})*)(@|%40)/gi;

/** `text` with the user name and password of every URL in it replaced by `[redacted]`. */
export function hideUrlUserinfo(text: string): string {
  if (!text.includes('@') && !text.includes('%40')) return text;
  return text.replace(USERINFO, (_match, separator: string, _userinfo: string, at: string) => `${separator}[redacted]${at}`);
}
