/**
 * One error type with stable codes. Provider codes become per-provider outcomes; request codes become
 * HTTP statuses (mapped in http/error-handler.ts) or MCP tool errors (mapped in mcp/).
 */
export const ERROR_CODES = {
  QUERY_INVALID: 400,
  PROVIDER_UNKNOWN: 400,
  NOT_FOUND: 404,
  PROVIDER_TIMEOUT: 504,
  PROVIDER_HTTP: 502,
  PROVIDER_AUTH: 502,
  PROVIDER_RATE_LIMITED: 502,
  PROVIDER_PARSE: 502,
  PROVIDER_NETWORK: 502,
  PROVIDER_UPSTREAM: 502,
  PROVIDER_NOT_CONFIGURED: 503,
  PROVIDER_SUSPENDED: 503,
  /**
   * Nothing was sent: our own outbound rate limit (<NAME>_RATE_LIMIT) had no request slot before the deadline, for
   * the one provider a call needs or for every one a lookup could ask. Like a suspension it is ours, not the
   * upstream's failure (so not 502), and the caller need only wait for the slot (Retry-After). A provider's own
   * 429 stays PROVIDER_RATE_LIMITED (502), as does a rate_limited provider outcome's code.
   */
  OUTBOUND_RATE_LIMITED: 503,
  /** A lookup no provider could answer (every one able failed or timed out): the thing may well exist. */
  PROVIDERS_FAILED: 502,
  REQUEST_CANCELLED: 499,
  /** The service is shedding load (event loop delay, heap or RSS past its limit): try again later. */
  OVERLOADED: 503,
  /** The service is closing (SIGTERM): a request that reached it on a connection still open goes to another replica. */
  SHUTTING_DOWN: 503,
  INTERNAL: 500,
  /** fetch_url / paper_read: the URL's scheme or resolved address is not allowed. */
  FETCH_FORBIDDEN: 400,
  FETCH_FAILED: 502,
  FETCH_TIMEOUT: 504,
  FETCH_TOO_LARGE: 413,
  FETCH_UNSUPPORTED_TYPE: 415,
  /**
   * fetch_url / paper_read: every PDF reader thread is busy and as many PDFs wait for one as may; refused at once
   * (with Retry-After) rather than held to time out.
   */
  PDF_READERS_BUSY: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export interface FedsearchErrorOptions {
  cause?: unknown;
  /** How long the upstream asked us to wait, from Retry-After. */
  retryAfterMs?: number;
  /** The upstream HTTP status, when the error came from one. */
  upstreamStatus?: number;
  /** Extra, safe-to-show details (e.g. the invalid fields). */
  details?: unknown;
  /**
   * The message without the words the upstream wrote, for what every caller reads (provider health's
   * last_error): an upstream's error text can quote the request that failed, another caller's query.
   * The message itself when unset: all of it is ours.
   */
  sharedMessage?: string;
  /**
   * The upstream refused what it was asked, inside a normal-looking body (upstreamRefusal): the request's content,
   * which the caller chose, was at fault, as with an HTTP 4xx. Unset: the upstream failed.
   */
  refusedRequest?: boolean;
}

export class FedsearchError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterMs: number | undefined;
  readonly details: unknown;
  readonly upstreamStatus: number | undefined;
  /** See FedsearchErrorOptions.sharedMessage. */
  readonly sharedMessage: string;
  /** See FedsearchErrorOptions.refusedRequest. */
  readonly refusedRequest: boolean;

  constructor(code: ErrorCode, message: string, options: FedsearchErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FedsearchError';
    this.code = code;
    this.retryAfterMs = options.retryAfterMs;
    this.details = options.details;
    this.upstreamStatus = options.upstreamStatus;
    this.sharedMessage = options.sharedMessage ?? message;
    this.refusedRequest = options.refusedRequest === true;
  }

  get httpStatus(): number {
    return ERROR_CODES[this.code];
  }
}

/** Thrown by adapters when a body cannot be read as the documented format. */
export function parseError(message: string, cause?: unknown): FedsearchError {
  return new FedsearchError('PROVIDER_PARSE', message, { cause });
}

/**
 * Thrown by adapters when the upstream answered with an error inside a normal-looking body, in the upstream's
 * words: they can quote the request, so every other caller reads only that there was one.
 */
export function upstreamError(message: string): FedsearchError {
  return new FedsearchError('PROVIDER_UPSTREAM', message, { sharedMessage: 'the upstream answered with an error' });
}

/**
 * Thrown by adapters when the upstream refused the request for its content (a query it cannot parse) inside a
 * normal-looking body, in the upstream's words: as with an HTTP 4xx, the caller hears it and the circuit breaker,
 * which every caller shares, does not count it.
 */
export function upstreamRefusal(message: string): FedsearchError {
  return new FedsearchError('PROVIDER_UPSTREAM', message, { sharedMessage: 'the upstream refused what it was asked', refusedRequest: true });
}

/** An upstream failure an adapter tells in its own words only (an empty caption track): anyone may read it. */
export function upstreamFailure(message: string): FedsearchError {
  return new FedsearchError('PROVIDER_UPSTREAM', message);
}

export function invalidQuery(message: string, details?: unknown): FedsearchError {
  return new FedsearchError('QUERY_INVALID', message, { details });
}
