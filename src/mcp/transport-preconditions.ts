import { ErrorCode, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import { shownValue } from '../domain/shown-value.js';
import type { McpRefusal } from './replies.js';

const JSON_TYPE = 'application/json';
const EVENT_STREAM_TYPE = 'text/event-stream';

/** A header as one string: Node joins a repeated Accept with ", ", as the transport reads it. */
function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * What the Accept header must list, as the transport checks it: a substring test, since Accept is a comma list. A
 * POST may be answered in JSON or as an event stream, a GET only as a stream.
 */
function acceptRefusal(request: FastifyRequest): McpRefusal | undefined {
  const accept = headerOf(request, 'accept') ?? '';
  const needed = request.method === 'POST' ? [JSON_TYPE, EVENT_STREAM_TYPE] : [EVENT_STREAM_TYPE];
  if (needed.every((type) => accept.includes(type))) return undefined;
  const given = accept === '' ? 'none was sent' : `got "${shownValue(accept)}"`;
  return {
    status: 406,
    code: 'NOT_ACCEPTABLE',
    message: `Not Acceptable: the Accept header of a ${request.method} to the MCP endpoint must list ${needed.join(' and ')}; ${given}`,
  };
}

/** The version a request after initialize names (MCP-Protocol-Version) must be one the SDK speaks; none is fine. */
function protocolVersionRefusal(request: FastifyRequest): McpRefusal | undefined {
  const version = headerOf(request, 'mcp-protocol-version');
  if (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  return {
    status: 400,
    code: 'QUERY_INVALID',
    message: `Bad Request: MCP-Protocol-Version "${shownValue(version)}" is not supported; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
  };
}

/**
 * A body that is JSON but no JSON-RPC message (`{}`, a message without `jsonrpc`): both transports refuse it
 * themselves, the Streamable HTTP one with a bare error, the legacy SSE one in plain text that shows the body as
 * "[object Object]". Each message of a batch is checked, as the Streamable HTTP transport checks them; the SSE one
 * takes no batch at all.
 */
export function invalidMessageRefusal(body: unknown, batches: boolean): McpRefusal | undefined {
  const messages = Array.isArray(body) && batches ? body : [body];
  if (messages.length > 0 && messages.every((message) => JSONRPCMessageSchema.safeParse(message).success)) return undefined;
  const allowed = `allowed: ${batches ? '' : 'one message, '}a request {"jsonrpc":"2.0","id":1,"method":"tools/list"}, a notification (no id) or a response`;
  return {
    status: 400,
    code: 'QUERY_INVALID',
    message: `Bad Request: the body is not a JSON-RPC 2.0 message; ${allowed}`,
    jsonRpcCode: ErrorCode.InvalidRequest,
  };
}

/**
 * The refusals the Streamable HTTP transport would write itself, checked first with its own conditions (and its own
 * list of versions) so that they come in our shape: the transport writes a bare JSON-RPC error, with no data.code or
 * request id, unlike every other error the MCP routes give. The transport still checks; it no longer finds anything.
 * An initialize names its version in its body, which the server negotiates, so its header is not checked (asked only
 * of a request with a version it does not speak: reading the body is a schema parse).
 */
export function streamablePreconditionRefusal(request: FastifyRequest, initializes: () => boolean): McpRefusal | undefined {
  if (request.method !== 'DELETE') {
    const refusal = acceptRefusal(request);
    if (refusal) return refusal;
  }
  if (request.method === 'POST') {
    const refusal = invalidMessageRefusal(request.body, true);
    if (refusal) return refusal;
  }
  const refusal = protocolVersionRefusal(request);
  return refusal && !initializes() ? refusal : undefined;
}

/**
 * An initialize the transport would refuse itself, with a bare JSON-RPC error: one sent on a session already open
 * (`onSession`: every session the routes find was initialized), or one with other messages in its POST (a batch of
 * two initializes is refused as a batch already). Asked only of a body that initializes.
 */
export function initializeRefusal(body: unknown, onSession: boolean): McpRefusal | undefined {
  if (onSession) {
    return {
      status: 400,
      code: 'QUERY_INVALID',
      message: 'Invalid Request: this session (Mcp-Session-Id) is initialized already; go on with it, or send initialize without Mcp-Session-Id to open another',
      jsonRpcCode: ErrorCode.InvalidRequest,
    };
  }
  if (!Array.isArray(body) || body.length <= 1) return undefined;
  return {
    status: 400,
    code: 'QUERY_INVALID',
    message: 'Invalid Request: an initialize request comes alone in its POST; send notifications/initialized and other messages after its answer',
    jsonRpcCode: ErrorCode.InvalidRequest,
  };
}

/** The transport's own 409: a session has one GET stream at a time (server-sent messages go to one place). */
export const SECOND_STREAM_REFUSAL: McpRefusal = {
  status: 409,
  code: 'STREAM_ALREADY_OPEN',
  message: 'Conflict: this session already has its GET stream open, and a session has one at a time; close that one first, or go on with it',
};
