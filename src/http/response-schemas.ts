import { z } from 'zod';
import { SHARED_ANSWER_SHAPES, sharedAnswerRegistry } from './shared-answer-schemas.js';

const ANSWER_JSON_SCHEMA = { io: 'output', target: 'openapi-3.0', unrepresentable: 'any' } as const;
const SHARED_ANSWER_NAMES = new Set(SHARED_ANSWER_SHAPES.map(([name]) => name));

/** A shared shape as @fastify/swagger refers to a schema added with app.addSchema (`SearchResult#`). */
const sharedReference = (name: string) => `${name}#`;

/**
 * A 200 (or other) response for the OpenAPI document: the answer's JSON Schema, derived from its zod schema, with
 * every shared shape in it (http/shared-answer-schemas.ts) a reference to its one named schema, not a copy.
 */
export function documentedResponse(schema: z.ZodType, description: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { ...ANSWER_JSON_SCHEMA, metadata: sharedAnswerRegistry }) as Record<string, unknown>;
  delete json.$schema;
  // zod copies each shared shape it met into the schema's own definitions; the document names them once instead.
  // Any other definition (a shape that contains itself) would be left a reference to nothing: refuse to start.
  const unnamed = Object.keys(json.definitions ?? {}).filter((name) => !SHARED_ANSWER_NAMES.has(name));
  if (unnamed.length > 0) throw new Error(`${description}: name ${unnamed.join(', ')} in http/shared-answer-schemas.ts`);
  delete json.definitions;
  // @fastify/swagger reads the response's description from the schema's own.
  return { ...referringToShared(json), description };
}

/** The shared shapes, named, for app.addSchema: each refers to the others as the routes' answers do. */
export function sharedAnswerSchemas(): Array<Record<string, unknown>> {
  const { schemas } = z.toJSONSchema(sharedAnswerRegistry, { ...ANSWER_JSON_SCHEMA, uri: sharedReference });
  return Object.entries(schemas).map(([name, json]) => {
    const { $schema: _dialect, ...rest } = json as Record<string, unknown>;
    return { ...rest, $id: name };
  });
}

/**
 * zod's `#/definitions/SearchResult` rewritten as the reference to the schema named SearchResult. zod wraps the
 * reference to an optional shape in an `allOf` of that one reference, which says nothing more and which linters flag
 * (and some generators turn into an intersection of one type): it becomes the reference itself.
 */
function referringToShared<T>(json: T): T {
  if (Array.isArray(json)) return json.map(referringToShared) as T;
  if (typeof json !== 'object' || json === null) return json;
  const only = onlyMemberOfAllOf(json);
  if (only !== undefined) return referringToShared(only) as T;
  const entries = Object.entries(json).map(([key, value]) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/definitions/') ? [key, sharedReference(value.slice('#/definitions/'.length))] : [key, referringToShared(value)],
  );
  return Object.fromEntries(entries) as T;
}

/** The one shape of every error answer (http/error-handler.ts builds it). */
export const errorEnvelope = z.strictObject({
  statusCode: z.int(),
  error: z.string().describe('The HTTP reason phrase.'),
  code: z.string().describe('A stable code, named in the description of each status that carries it (docs/api.md lists them all): QUERY_INVALID, NOT_FOUND, PROVIDER_TIMEOUT, RATE_LIMITED, SHUTTING_DOWN, …'),
  message: z.string().describe('What went wrong and, for a client error, what is allowed.'),
  details: z.unknown().optional().describe('For some client errors: the fields at fault, or what each provider did.'),
  retry_after_ms: z
    .int()
    .optional()
    .describe(
      'When to try again, in milliseconds, on every error answer that sends Retry-After (its seconds, rounded up): past the rate limit, a suspended or rate-limited provider, load shedding.',
    ),
  request_id: z
    .string()
    .optional()
    .describe('The id of this request in the server log (also the x-request-id header): quote it when reporting a 5xx.'),
});

export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 413 | 415 | 429 | 500 | 502 | 503 | 504;

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid parameters: the message names each field at fault and what is allowed (QUERY_INVALID); or the URL to fetch or read is not allowed, by its scheme or the address it resolves to (FETCH_FORBIDDEN).',
  401: 'API keys are required here and none, or an unknown one, was sent (UNAUTHORIZED).',
  403: 'The Host header names a host this service does not answer: IP addresses and localhost always are, other names only when listed in ALLOWED_HOSTS, or any name when API keys are required (HOST_NOT_ALLOWED); or a browser sent it for a page on another site whose origin is not in CORS_ORIGINS (CROSS_SITE_REQUEST).',
  404: 'Nothing found: every provider that can look the paper up answered and none knew it, the video has no captions, … (NOT_FOUND).',
  408: 'The request (its head, or its body) did not arrive in full within REQUEST_TIMEOUT_MS (REQUEST_TIMEOUT); the connection is closed.',
  413: 'Too large: the request body is over BODY_LIMIT_BYTES (BODY_TOO_LARGE), or the page or file is larger than the service reads (FETCH_TOO_LARGE).',
  415: 'Unsupported type: the request body is not sent as application/json, or is sent compressed (UNSUPPORTED_MEDIA_TYPE), or the page or file is of a type the service cannot read (FETCH_UNSUPPORTED_TYPE).',
  429: 'Too many requests from this key or address; Retry-After and retry_after_ms say when to try again (RATE_LIMITED).',
  500: 'Internal error: quote request_id (or the x-request-id header) when reporting it (INTERNAL).',
  502: 'The upstream provider or page failed: HTTP error, refused key, used-up rate or quota, unreadable answer, network error, an error in its body (PROVIDER_HTTP, PROVIDER_AUTH, PROVIDER_RATE_LIMITED, PROVIDER_PARSE, PROVIDER_NETWORK, PROVIDER_UPSTREAM, FETCH_FAILED); or a paper lookup in which some provider was asked and another failed, timed out, was suspended or rate limited, so the paper may exist (PROVIDERS_FAILED).',
  503: 'Nothing could be asked: a needed provider (every one a paper lookup could ask) is not configured (PROVIDER_NOT_CONFIGURED), suspended by its circuit breaker (PROVIDER_SUSPENDED) or out of outbound rate-limit slots before the deadline (OUTBOUND_RATE_LIMITED); or the service is shedding load (OVERLOADED), its PDF readers are busy with as many PDFs as may wait (PDF_READERS_BUSY), or it is closing and takes no new requests: send it again, to another replica (SHUTTING_DOWN); Retry-After and retry_after_ms when known.',
  504: 'The upstream provider or page gave no answer in time (PROVIDER_TIMEOUT, FETCH_TIMEOUT).',
};

/** The name of the error envelope among the document's shared schemas (http/openapi-document.ts adds it). */
export const ERROR_ENVELOPE_ID = 'ErrorEnvelope';

export const errorEnvelopeJsonSchema = documentedResponse(errorEnvelope, 'The error envelope of every error answer.');

/** One documented error response, referring to the error envelope: what the status means on this route (its shared meaning unless told). */
export function errorResponse(status: ErrorStatus, description: string = ERROR_DESCRIPTIONS[status]): Record<string, unknown> {
  return { $ref: `${ERROR_ENVELOPE_ID}#`, description };
}

/** The documented error responses of a route, each with its shared meaning. */
export function errorResponses(...statuses: ErrorStatus[]): Record<number, Record<string, unknown>> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponse(status)]));
}

/**
 * The errors a JSON body can meet before its route sees it, beyond a 400: too slow (http/client-error.ts answers a
 * body still arriving after REQUEST_TIMEOUT_MS, with the request id the app gave it), too large, or not JSON.
 */
export const BODY_ERRORS: ErrorStatus[] = [408, 413, 415];

/** The one schema of `{ allOf: [schema] }` (with nothing beside the allOf), else undefined. */
function onlyMemberOfAllOf(json: object): unknown {
  const keys = Object.keys(json);
  const allOf = (json as { allOf?: unknown }).allOf;
  return keys.length === 1 && Array.isArray(allOf) && allOf.length === 1 ? allOf[0] : undefined;
}
