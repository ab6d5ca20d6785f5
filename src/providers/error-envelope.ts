import { asArray, isRecord, text } from './parse-helpers.js';
import type { UpstreamResponse } from './provider.js';

/** Reads the message of one JSON error envelope, or undefined when the body is not in that envelope. */
export type ErrorEnvelope = (body: Record<string, unknown>) => string | undefined;

/** A plain-text error body longer than this is a page, not a message. */
const MAX_PLAIN_TEXT_ERROR = 200;

/**
 * The JSON error envelopes the upstreams here send. Each adapter names the ones its API documents, in the
 * order they should be tried, and reads no other: a `{"error": "…"}` from a proxy in front of Brave is not
 * Brave's answer, and the status describes it better than a guess.
 */
export const ERROR_ENVELOPES = {
  /** `{"error": "…"}`: Exa, Semantic Scholar, NCBI, Firecrawl (`{success: false, error, details}`). */
  errorString: (body) => (typeof body.error === 'string' ? text(body.error) : undefined),

  /**
   * `{"message": "…", "errors": [{"message" | "code"}]}`: GitHub ("Validation Failed: <first error>"),
   * Algolia, OpenAlex (beside a generic `error` title), Semantic Scholar's gateway.
   */
  message: (body) => {
    const first = asArray(body.errors)[0];
    const specific = isRecord(first) ? text(first.message) ?? text(first.code) : text(first);
    const message = typeof body.message === 'string' ? text(body.message) : undefined;
    return message && specific ? `${message}: ${specific}` : (message ?? specific);
  },

  /**
   * `{"error": {…}}`: Google's `{message, errors: [{reason}]}` as "reason: message" (the reason is the stable
   * part, its numeric code repeats the status); MediaWiki's `{code, info}` as "info (code)"; Brave's
   * `{code, detail}` by its detail.
   */
  errorObject: (body) => {
    const { error } = body;
    if (!isRecord(error)) return undefined;
    const firstError = asArray(error.errors).find(isRecord);
    const message = text(error.message) ?? text(error.info) ?? text(error.detail) ?? text(firstError?.message);
    const reason = text(firstError?.reason);
    if (reason) return message ? `${reason}: ${message}` : reason;
    const code = text(error.code);
    if (message && code && error.info !== undefined) return `${message} (${code})`;
    return message ?? code;
  },

  /** FastAPI's `{"detail": "…"}` or `{"detail": {"error" | "message"}}`: Tavily. */
  detail: (body) => {
    const { detail } = body;
    if (isRecord(detail)) return text(detail.error) ?? text(detail.message);
    return typeof detail === 'string' ? text(detail) : undefined;
  },

  /** `{"status": "failed", "message": [{"type", "value", "message"}]}`: Crossref, by its first failure. */
  failureList: (body) => {
    const first = Array.isArray(body.message) ? body.message[0] : undefined;
    return isRecord(first) ? text(first.message) ?? text(first.type) : undefined;
  },
} satisfies Record<string, ErrorEnvelope>;

/** What an error body says in the first of `envelopes` that reads it; undefined when none does. */
export function errorEnvelopeMessage(body: Record<string, unknown>, envelopes: readonly ErrorEnvelope[]): string | undefined {
  for (const envelope of envelopes) {
    const message = envelope(body);
    if (message) return message;
  }
  return undefined;
}

/**
 * What a JSON error body says in one of `envelopes`; undefined when the body is not a JSON object (an HTML
 * error page, plain text) or in none of them: the status alone will describe it then.
 */
export function describeJsonError(response: UpstreamResponse, envelopes: readonly ErrorEnvelope[]): string | undefined {
  const body = jsonErrorBody(response);
  return body ? errorEnvelopeMessage(body, envelopes) : undefined;
}

/** An error answer's body as a JSON object, or undefined for a page, plain text or JSON of another shape. */
export function jsonErrorBody(response: UpstreamResponse): Record<string, unknown> | undefined {
  const body = tryParseJson(response.body);
  return isRecord(body) ? body : undefined;
}

/** A short plain-text error body ("Rate exceeded.", "Resource not found."), or undefined for pages and JSON. */
export function describePlainTextError(response: UpstreamResponse): string | undefined {
  const body = response.body.trim();
  if (body === '' || body.length > MAX_PLAIN_TEXT_ERROR || /^[<{[]/.test(body)) return undefined;
  return body;
}

function tryParseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
