import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CancelledNotificationSchema, ErrorCode, type JSONRPCErrorResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js';

const CANCELLED_METHOD = 'notifications/cancelled';

/** The ids of the requests a POST's `notifications/cancelled` name (a POST may carry several notifications). */
export function cancelledRequestIds(body: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    // Most POSTs carry a request: the schema is read only for what names itself a cancellation.
    if ((message as { method?: unknown } | null)?.method !== CANCELLED_METHOD) continue;
    const cancelled = CancelledNotificationSchema.safeParse(message);
    if (cancelled.success && cancelled.data.params.requestId !== undefined) ids.push(cancelled.data.params.requestId);
  }
  return ids;
}

/**
 * Lets go of the stream of a request that will never be answered: its client cancelled it or dropped the stream. The
 * SDK's transport ends a request's stream and forgets it only when it sends the request's answer, and a cancelled
 * request gets none (MCP: the server should not answer it). A client that cancelled with its stream still open had
 * that stream kept open, pinged forever, for as long as its session lived (a socket on both sides per cancelled call;
 * in stateless mode the whole exchange), and a dropped one was kept and scanned at every later answer.
 * closeSSEStream ends the stream with nothing written; the error answer then finds no stream to write to and only
 * clears the request's entries (the transport's "no connection" failure is that, expected). Nothing is sent for a
 * request already answered, or one this transport does not know.
 */
export function releaseStream(transport: StreamableHTTPServerTransport, requestId: RequestId, reason: string): void {
  transport.closeSSEStream(requestId);
  const released: JSONRPCErrorResponse = { jsonrpc: '2.0', id: requestId, error: { code: ErrorCode.ConnectionClosed, message: reason } };
  transport.send(released).catch(() => undefined);
}
