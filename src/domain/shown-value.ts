/** How much of a caller-chosen header value a message or a log line shows. */
const SHOWN_CHARS = 100;

/**
 * A value the caller chose (a Host, an Origin) as messages and log lines show it: cut short with `…`, since its
 * length is the caller's choice and each refusal writes a line.
 */
export function shownValue(value: string): string {
  return value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value;
}
