import type { Provider } from '../providers/provider.js';

const REDACTED = '[redacted]';
/** Shorter than this, a secret (or a piece of one) is too common a string to hide everywhere it appears. */
const MIN_SECRET_LENGTH = 4;
/** How many causes deep an error's copy goes: a longer chain is cut there rather than carried unredacted. */
const MAX_CAUSE_DEPTH = 8;

/** Replaces every occurrence of a configured secret with a marker; the last line of defence for messages. */
export function redactSecrets(message: string, secrets: readonly string[]): string {
  let redacted = message;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) redacted = redacted.split(secret).join(REDACTED);
  }
  return redacted;
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

/** Every configured secret value, so logs and messages can redact them wherever they appear. */
export function secretValues(providers: readonly Provider[]): string[] {
  return providers.flatMap((provider) =>
    provider.settings.credentials
      .filter((credential) => credential.secret)
      .map((credential) => provider.config.credentials[credential.env])
      .filter((value): value is string => typeof value === 'string' && value.length >= MIN_SECRET_LENGTH),
  );
}
