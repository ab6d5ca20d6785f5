import type { Provider } from '../providers/provider.js';

const REDACTED = '[redacted]';
/** Shorter than this, a secret (or a piece of one) is too common a string to hide everywhere it appears. */
const MIN_SECRET_LENGTH = 4;
/** How many causes deep an error's copy goes: a longer chain is cut there rather than carried unredacted. */
const MAX_CAUSE_DEPTH = 8;

/**
 * Replaces every occurrence of a configured secret with a marker; the last line of defence for messages.
 * `secrets` are spellings as `secretValues` lists them, longest first, so a longer one is replaced whole
 * before a shorter one inside it could leave its rest behind.
 */
export function redactSecrets(message: string, secrets: readonly string[]): string {
  if (secrets.length > SEARCHED_UP_TO) return redactScanned(message, secrets);
  let redacted = message;
  for (const secret of secrets) {
    // The check first: most messages hold no secret, and split() would copy each one for every spelling.
    if (secret.length >= MIN_SECRET_LENGTH && redacted.includes(secret)) redacted = redacted.split(secret).join(REDACTED);
  }
  return redacted;
}

/**
 * Up to this many spellings, a message is searched once for each; past it, it is scanned once through an index
 * of their first three characters: a file of a thousand API keys (five spellings each) made every request's log
 * line cost about 30 µs searched one by one.
 */
const SEARCHED_UP_TO = 64;
/** Each long list of spellings' index, made on first use: the lists are made once, at start-up. */
const indexes = new WeakMap<readonly string[], Map<number, string[]>>();

/** The first three characters at `at` as one number (each fits in 16 bits, the three together in 48). */
function threeCharacters(text: string, at: number): number {
  return text.charCodeAt(at) * 4_294_967_296 + text.charCodeAt(at + 1) * 65_536 + text.charCodeAt(at + 2);
}

function indexOfSpellings(secrets: readonly string[]): Map<number, string[]> {
  let index = indexes.get(secrets);
  if (index) return index;
  index = new Map();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    const key = threeCharacters(secret, 0);
    const bucket = index.get(key);
    if (bucket) bucket.push(secret);
    else index.set(key, [secret]);
  }
  // Longest first within a bucket: where two spellings start at one place, the longer is the one hidden.
  for (const bucket of index.values()) bucket.sort((first, second) => second.length - first.length);
  indexes.set(secrets, index);
  return index;
}

/**
 * redactSecrets for a long list: every place a spelling starts is found in one pass, and each run of text that
 * found spellings cover (overlapping ones together) becomes one marker, so no part of a secret is left showing
 * where two overlap. The cost is one lookup per character, however many secrets there are.
 */
function redactScanned(message: string, secrets: readonly string[]): string {
  const index = indexOfSpellings(secrets);
  let redacted = '';
  let copied = 0;
  let coverStart = -1;
  let coverEnd = -1;
  for (let at = 0; at + MIN_SECRET_LENGTH <= message.length; at += 1) {
    const found = index.get(threeCharacters(message, at))?.find((secret) => message.startsWith(secret, at));
    if (found === undefined) continue;
    const end = at + found.length;
    if (at < coverEnd) {
      coverEnd = Math.max(coverEnd, end);
      continue;
    }
    if (coverStart !== -1) {
      redacted += `${message.slice(copied, coverStart)}${REDACTED}`;
      copied = coverEnd;
    }
    coverStart = at;
    coverEnd = end;
  }
  if (coverStart === -1) return message;
  return `${redacted}${message.slice(copied, coverStart)}${REDACTED}${message.slice(coverEnd)}`;
}

/**
 * `text` redacted, then cut to `maxLength` characters. Redaction comes first because it knows only whole
 * secrets: a key cut in two passes it. A cut that still ends inside the start of a secret (a key the upstream
 * itself echoed in part, say) loses that tail too.
 */
export function redactAndCut(text: string, maxLength: number, secrets: readonly string[]): string {
  const redacted = redactSecrets(text, secrets);
  if (redacted.length <= maxLength) return redacted;
  return maskSecretStartAtEnd(redacted.slice(0, maxLength), secrets);
}

/** `text` with its tail replaced by the marker when that tail is the longest start (4+ characters) of a secret. */
function maskSecretStartAtEnd(text: string, secrets: readonly string[]): string {
  let longest = 0;
  for (const secret of secrets) {
    for (let length = Math.min(secret.length, text.length); length >= MIN_SECRET_LENGTH && length > longest; length -= 1) {
      if (text.endsWith(secret.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest === 0 ? text : `${text.slice(0, text.length - longest)}${REDACTED}`;
}

/**
 * A copy of `error` fit to be carried as a cause and logged: its message, stack and string fields redacted,
 * its numbers and flags kept (codes, statuses), its object fields left behind (an upstream's raw error may hold
 * anything there), and its cause copied likewise down to a bounded depth. The copy keeps the original's class,
 * so a log line still names the type. A cause that is not an Error is kept only if it is a string, redacted.
 */
export function redactedError(error: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof error === 'string') return redactSecrets(error, secrets);
  if (!(error instanceof Error)) return undefined;
  const copy = new Error(redactSecrets(error.message, secrets));
  Object.setPrototypeOf(copy, Object.getPrototypeOf(error) as object);
  copy.stack = error.stack === undefined ? undefined : redactSecrets(error.stack, secrets);
  const fields = copy as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(error)) {
    if (typeof value === 'string') fields[name] = redactSecrets(value, secrets);
    else if (typeof value === 'number' || typeof value === 'boolean') fields[name] = value;
  }
  const cause = depth < MAX_CAUSE_DEPTH && error.cause !== undefined ? redactedError(error.cause, secrets, depth + 1) : undefined;
  // Non-enumerable, as `new Error(message, { cause })` makes it: pino reads it for the chain, not as a field.
  if (cause !== undefined) Object.defineProperty(copy, 'cause', { value: cause, writable: true, configurable: true });
  return copy;
}

/**
 * Every configured secret value (the providers' keys, and `others` such as the service's own API keys) in
 * every spelling it can be sent in (secretSpellings), so logs and messages can redact them wherever they
 * appear. Made once, at start-up.
 */
export function secretValues(providers: readonly Provider[], others: readonly string[] = []): string[] {
  const configured = providers.flatMap((provider) =>
    provider.settings.credentials.filter((credential) => credential.secret).map((credential) => provider.config.credentials[credential.env]),
  );
  return secretSpellings([...configured, ...others]);
}

/**
 * Each secret (4 characters or more) as it is configured and as a URL carries it: YouTube's and PubMed's keys
 * go in a query string, written by URLSearchParams (a space as `+`), and an upstream, a proxy or a network
 * error that quotes that URL quotes it encoded, perhaps re-encoded as encodeURIComponent would (a space as
 * `%20`) or with its hex in lower case. No adapter builds a Basic credential (keys go raw in headers), so no
 * base64 spelling is listed. Distinct, longest first: see redactSecrets.
 */
export function secretSpellings(secrets: readonly (string | undefined)[]): string[] {
  const spellings = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
    spellings.add(secret);
    for (const encoded of [percentSpelling(secret), formSpelling(secret)]) {
      if (encoded === undefined) continue;
      spellings.add(encoded);
      spellings.add(encoded.replace(PERCENT_ESCAPE, (escape) => escape.toLowerCase()));
    }
  }
  return [...spellings].sort((first, second) => second.length - first.length);
}

const PERCENT_ESCAPE = /%[0-9A-F]{2}/g;

/** encodeURIComponent's spelling; undefined for a lone surrogate, which it refuses (the form spelling still has one). */
function percentSpelling(secret: string): string | undefined {
  try {
    return encodeURIComponent(secret);
  } catch {
    return undefined;
  }
}

/** The spelling URLSearchParams writes for a query value, as the adapters build their query strings. */
function formSpelling(secret: string): string {
  return new URLSearchParams([['', secret]]).toString().slice(1);
}
