import { ErrorCode, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { shownValue } from '../domain/shown-value.js';
import type { McpRefusal } from './replies.js';

/**
 * The id of the JSON-RPC request a POST carries (one at most: the routes refuse a batch of requests), read by field:
 * a request is the one message with both a method and an id, and each POST of a session comes here.
 */
export function requestIdOf(body: unknown): RequestId | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message)) continue;
    const { id } = message;
    if (typeof id === 'string' || typeof id === 'number') return id;
  }
  return undefined;
}

/**
 * A request reusing the id of one its session has not answered yet. JSON-RPC 2.0 has a client keep its ids unique
 * among its requests in flight, and the SDK holds one answer stream and one cancellation per id: run, the second call
 * took the first one's stream, so the first answer went to the second's stream and the second's to none. Refused
 * before the transport sees it, the first call runs on undisturbed. The error's id is null, as for the SDK's own
 * refusals of a POST: a client matching answers by id would give an error with this id to the first call.
 */
export function reusedRequestIdRefusal(body: unknown, isPending: (id: RequestId) => boolean): McpRefusal | undefined {
  const id = requestIdOf(body);
  if (id === undefined || !isPending(id)) return undefined;
  const shown = typeof id === 'string' ? `"${shownValue(id)}"` : String(id);
  return {
    status: 400,
    code: 'QUERY_INVALID',
    message: `Invalid Request: id ${shown} is in use by a request of this session still running; JSON-RPC ids must be unique among a client's requests in flight: send it again with another id`,
    jsonRpcCode: ErrorCode.InvalidRequest,
  };
}
