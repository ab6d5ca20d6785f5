import { ERROR_ENVELOPE_ID } from './response-schemas.js';

/** Where the one shared answer lives among components.responses, and what every operation refers to. */
const NODE_REFUSALS_ID = 'RefusedBeforeAnyRoute';

/**
 * What Node answers before any route sees the request (http/client-error.ts, http/requests-node-answers.ts), on every
 * path alike: all 4xx, in the error envelope with a request id, the connection closed. A range key ("4XX": every 4xx an
 * operation does not list itself), not `default`, which would promise the envelope for statuses of every class.
 * A 400 for a request line Node cannot parse is every operation's listed 400; a 405 answers a method a path does not
 * take, so no operation of that path is the one asked.
 */
const NODE_REFUSALS = {
  description:
    'Refused before any route saw the request, in the error envelope (the connection is then closed): 408 (REQUEST_TIMEOUT) when the request line and headers did not arrive within REQUEST_TIMEOUT_MS; 417 (QUERY_INVALID) for an Expect header other than 100-continue; 431 (QUERY_INVALID) when the request line or headers are too large.',
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE_ID}` } } },
  headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
} as const;

interface OpenApiDocument {
  paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  components?: Record<string, unknown>;
}

/**
 * Adds the refusals Node gives before any route to every operation, as one reference each to one shared response: a
 * client generated from the document had no shape for a 417 or 431 (nor a GET's 408), though every one is the envelope.
 * Run after documentServiceHeaders (documented-headers.ts), which gives each listed response its headers: a reference
 * takes none beside it.
 */
export function documentNodeRefusals<Document extends object>(document: Document): Document {
  // @fastify/swagger's types cover every OpenAPI version; this reads only the parts all of them share.
  const openApi = document as OpenApiDocument;
  const responses = (openApi.components?.responses ?? {}) as Record<string, unknown>;
  openApi.components = { ...openApi.components, responses: { ...responses, [NODE_REFUSALS_ID]: NODE_REFUSALS } };
  for (const methods of Object.values(openApi.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      operation.responses = { ...operation.responses, '4XX': { $ref: `#/components/responses/${NODE_REFUSALS_ID}` } };
    }
  }
  return document;
}
