import { isOpenPath } from './access-control.js';

/**
 * The response headers the service's own hooks send, whatever the route: the request id
 * (observability/request-observation.ts), the rate limit's count and Retry-After (http/protection.ts,
 * http/error-handler.ts), the 401's challenge (http/access-control.ts). No route schema sees them, so the
 * document lacked every one and clients generated from it could not read them.
 */
const SERVICE_HEADERS = {
  'X-Request-Id': {
    description: 'The id of this request in the server log (also request_id in an error answer): quote it when reporting a problem.',
    required: true,
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'How many requests this API key (or address, without API keys) may make per window (RATE_LIMIT_MAX).',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'How many requests are left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window ends and the count starts again.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again, when known.',
    schema: { type: 'integer', minimum: 0 },
  },
  'WWW-Authenticate': {
    description: 'The Bearer challenge (RFC 6750): realm="fedsearch", with error="invalid_token" when the key sent is not valid.',
    schema: { type: 'string' },
  },
} as const;

type HeaderName = keyof typeof SERVICE_HEADERS;

/** Statuses that may say when to try again: the rate limit, an upstream that asked us to wait, a suspended provider, load shedding. */
const RETRY_STATUSES = new Set(['429', '502', '503', '504']);

/**
 * The service's headers a response of `path` can carry. The rate limit counts every path but the open ones
 * (probes, docs), and answers before a refused Host (403) or key (401) are counted.
 */
function headersOf(path: string, status: string): HeaderName[] {
  const names: HeaderName[] = ['X-Request-Id'];
  if (!isOpenPath(path) && status !== '401' && status !== '403') names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
  if (RETRY_STATUSES.has(status)) names.push('Retry-After');
  if (status === '401') names.push('WWW-Authenticate');
  return names;
}

interface DocumentedResponse {
  headers?: Record<string, unknown>;
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, { responses?: Record<string, DocumentedResponse> }>>;
  components?: Record<string, unknown>;
}

/**
 * Adds the service's headers to every documented response, each a reference to one entry under
 * components.headers; a route's own headers (a download's Content-Disposition) stay as its schema gives them.
 */
export function documentServiceHeaders<Document extends object>(document: Document): Document {
  // @fastify/swagger's types cover every OpenAPI version; this reads only the parts all of them share.
  const openApi = document as OpenApiDocument;
  openApi.components = { ...openApi.components, headers: SERVICE_HEADERS };
  for (const [path, methods] of Object.entries(openApi.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const references = Object.fromEntries(headersOf(path, status).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
        response.headers = { ...references, ...response.headers };
      }
    }
  }
  return document;
}
