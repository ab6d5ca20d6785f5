/**
 * Why a secret (a provider's key or token, one of the service's API keys, METRICS_TOKEN) cannot be what the operator
 * meant, or undefined when it can. Every such secret is issued as visible ASCII (hex, base64url, `tvly-…`, `ghp_…`,
 * UUIDs), and goes into an HTTP header or a query parameter, so anything else is a slip from the way it was set:
 * `docker run --env-file`, CapRover's and Kubernetes' variables keep quotes as part of the value (`KEY="abc"` is five
 * characters), and a key copied from a web page or a chat can carry a typographic quote, a non-breaking or zero-width
 * space or a line break. Sent as it is, such a key fails every call with 401 at run time, far from its cause, or
 * (as an API key) never matches a caller's. The problem names a position and a character, never the value.
 */
export function secretProblem(value: string): string | undefined {
  const first = value.charAt(0);
  const last = value.charAt(value.length - 1);
  if (QUOTES.has(first) || QUOTES.has(last)) {
    const where = QUOTES.has(first) && QUOTES.has(last) ? 'starts and ends' : QUOTES.has(first) ? 'starts' : 'ends';
    return `${where} with a quote (${describe(QUOTES.has(first) ? first : last)}): docker --env-file, CapRover and Kubernetes keep quotes as part of the value; remove them`;
  }
  let position = 0;
  for (const character of value) {
    position += 1;
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x21 || code > 0x7e) return `holds ${describe(character)} at character ${position}; a key or token is visible ASCII only (no spaces, line breaks or typographic characters)`;
  }
  return undefined;
}

/** Quotes a value can be wrapped in, straight or typographic. */
const QUOTES = new Set(['"', "'", '`', '\u201c', '\u201d', '\u2018', '\u2019', '\u00ab', '\u00bb']);

const NAMED: Record<string, string> = {
  ' ': 'a space',
  '\t': 'a tab',
  '\n': 'a line break',
  '\r': 'a carriage return',
  '\u00a0': 'a non-breaking space (U+00A0)',
  '\u200b': 'a zero-width space (U+200B)',
  '\ufeff': 'a byte-order mark (U+FEFF)',
};

/** A character as a message can show it without showing the secret around it. */
function describe(character: string): string {
  const named = NAMED[character];
  if (named) return named;
  const code = character.codePointAt(0) ?? 0;
  const unicode = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  // Printable ASCII quotes are shown as themselves; anything else by its code point, which no font can disguise.
  return code >= 0x21 && code <= 0x7e ? `${character}` : unicode;
}
