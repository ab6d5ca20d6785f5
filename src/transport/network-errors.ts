/**
 * What a transport failure was, in a few words, by the Node or undici error code somewhere in its cause
 * chain: provider calls (engine/upstream-transport.ts) and page fetches (fetch/safe-fetch.ts) name failures
 * from this one table, each in its own sentence.
 */
const NETWORK_CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the body stalled',
  UND_ERR_HEADERS_OVERFLOW: 'its response headers are too large',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'its body does not match its Content-Length',
  UND_ERR_INVALID_ARG: 'invalid request',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another name',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
};

export interface NetworkCause {
  /** The error code found (ECONNRESET, UND_ERR_SOCKET, …). */
  code: string;
  /** What it means, for a message: "connection refused". */
  cause: string;
}

/**
 * Undici's error for an answer its HTTP parser refused (a malformed chunk size, a header line without a colon, bytes
 * that are not HTTP at all). Its `code` is often unset, so it is known by its name; the code given is undici's own for it.
 */
const NOT_HTTP: NetworkCause = { code: 'UND_ERR_HTTP_PARSER', cause: 'its answer is not valid HTTP' };

/** The first known error code in the cause chain (undici wraps the socket's error), or undefined. */
export function networkCause(error: unknown): NetworkCause | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code in NETWORK_CAUSES) return { code, cause: NETWORK_CAUSES[code]! };
    if ((current as { name?: unknown }).name === 'HTTPParserError') return NOT_HTTP;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
