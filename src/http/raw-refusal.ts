import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { API_SECURITY_HEADERS } from './security-headers.js';

/** What a request Node answers before Fastify (client-error.ts, requests-node-answers.ts) is told. */
export interface RawRefusal {
  status: number;
  code: string;
  message: string;
  /** Headers of this refusal's own (Allow). */
  headers?: Record<string, string>;
}

/**
 * The body of a refusal written raw, for a path that answers in a shape of its own (MCP's JSON-RPC): handed in by the
 * app, which knows the paths (http/ does not import mcp/). A path with none gets the API's error envelope.
 */
export type RawBodyWriter = (refusal: RawRefusal, requestId: string) => string;

/** The raw body's writer for a request's target (its path and query), if its path has a shape of its own. */
export type RawBodyShapes = (target: string | undefined) => RawBodyWriter | undefined;

function errorEnvelopeText(refusal: RawRefusal, requestId: string): string {
  const title = STATUS_CODES[refusal.status] ?? 'Error';
  return JSON.stringify({ statusCode: refusal.status, error: title, code: refusal.code, message: refusal.message, request_id: requestId });
}

export interface RawAnswer {
  requestId: string;
  status: number;
  title: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A refusal written past every hook, as the hooks write every other one: the API's error envelope, a request id
 * (in the body and X-Request-Id) to quote, the security headers, and a closed connection, since the rest of what
 * the caller sent is never read. `requestId` is the app's for a request it holds (so the caller's id matches its lines);
 * `bodyOf`, the shape of the path it was sent to, when that path has one (MCP's JSON-RPC).
 */
export function rawAnswer(refusal: RawRefusal, requestId: string = randomUUID(), bodyOf: RawBodyWriter = errorEnvelopeText): RawAnswer {
  const title = STATUS_CODES[refusal.status] ?? 'Error';
  const body = bodyOf(refusal, requestId);
  const headers = {
    ...API_SECURITY_HEADERS,
    ...refusal.headers,
    'X-Request-Id': requestId,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  return { requestId, status: refusal.status, title, headers, body };
}

/** The answer as the bytes of an HTTP/1.1 response, for a socket no ServerResponse writes to. */
export function rawResponseText({ status, title, headers, body }: RawAnswer): string {
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${status} ${title}\r\n${head}\r\n${body}`;
}
