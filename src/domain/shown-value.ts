/** How much of a caller-chosen header value a message or a log line shows. */
const SHOWN_CHARS = 100;

/**
 * A value the caller chose (a Host, an Origin) as messages and log lines show it: cut short with `…`, since its
 * length is the caller's choice and each refusal writes a line.
 */
export function shownValue(value: string): string {
  return value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value;
}

/** How many of the names a caller chose (unknown fields) a message lists: a body may hold thousands. */
const SHOWN_NAMES = 10;

/** Names the caller chose, as a message lists them: the first few, each cut (shownValue), then how many more. */
export function shownNames(names: readonly string[]): string {
  const listed = names.slice(0, SHOWN_NAMES).map(shownValue).join(', ');
  return names.length > SHOWN_NAMES ? `${listed} and ${names.length - SHOWN_NAMES} more` : listed;
}
