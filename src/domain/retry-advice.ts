/**
 * A wait in the whole seconds of a Retry-After header, rounded up (asking again a moment early only meets the same
 * refusal): the header's value, and the number its words below give.
 */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.ceil(retryAfterMs / 1000);
}

/**
 * When to ask again, in words, wherever a message says it (an error's message, a provider's outcome, the MCP tools'
 * text): "retry after 30 s", the Retry-After header's own name and meaning (RFC 9110 §10.2.3: how long to wait before
 * a follow-up request), with the number it carries beside them. Messages said "try again in", "retry in" and
 * "retry after" for the same advice, so a caller could not tell whether they meant the same wait.
 */
export function retryAfterWords(retryAfterMs: number): string {
  return `retry after ${retryAfterSeconds(retryAfterMs)} s`;
}

/** The same advice where the wait may be unknown: "retry later" then. */
export function retryAdvice(retryAfterMs: number | undefined): string {
  return retryAfterMs === undefined ? 'retry later' : retryAfterWords(retryAfterMs);
}
