/** The service's version, as OpenAPI and MCP report it. */
export const API_VERSION = '0.1.0';

/**
 * The User-Agent of every request fedsearch sends: a provider call and a page fetch alike. GET /v1/papers/download
 * knows a request one of its page fetches made by it (http/fetch-loop.ts), so the two must never drift apart.
 */
export const USER_AGENT = 'fedsearch/0.1 (+https://github.com/fedsearch/fedsearch)';
