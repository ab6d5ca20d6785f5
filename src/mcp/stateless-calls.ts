import type { StreamableHTTPServerTransport as Transport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CancelledNotificationSchema, isJSONRPCRequest, type JSONRPCNotification, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ServerResponse } from 'node:http';
import { releaseStream } from './cancelled-streams.js';
import type { SessionOwner } from './session-limits.js';

/**
 * The requests in flight on this replica's stateless exchanges, so that a client's `notifications/cancelled`,
 * which comes in a POST of its own with no session to name the exchange, still reaches the request it cancels,
 * stops its search and ends its response. Without sessions, a request id is only unique per client, so a
 * cancellation reaches only a request of the same owner (API key, else address), and none while two of that owner's requests in
 * flight share the id. On another replica the request is unknown here and the cancellation is ignored, as MCP
 * allows; closing the response still stops the work wherever it runs.
 */
export class StatelessCalls {
  private readonly inFlight = new Map<string, Transport[]>();

  /** Lists the request a POST carries (at most one: batches are refused) until its response closes. */
  track(owner: SessionOwner, body: unknown, transport: Transport, response: ServerResponse): void {
    // Gone already: nothing will be answered, and no close event would ever take the entry out again.
    if (response.closed || response.destroyed) return;
    const requests = (Array.isArray(body) ? body : [body]).filter(isJSONRPCRequest);
    for (const { id } of requests) {
      const key = keyOf(owner, id);
      this.inFlight.set(key, [...(this.inFlight.get(key) ?? []), transport]);
      response.once('close', () => this.forget(key, transport));
    }
  }

  /** Hands each cancellation the POST carries to the exchange running the request it names, if there is exactly one. */
  deliverCancellations(owner: SessionOwner, body: unknown): void {
    for (const message of Array.isArray(body) ? body : [body]) {
      const cancelled = CancelledNotificationSchema.safeParse(message);
      if (!cancelled.success || cancelled.data.params.requestId === undefined) continue;
      const running = this.inFlight.get(keyOf(owner, cancelled.data.params.requestId));
      // The message as sent: the parsed one lacks `jsonrpc`, without which the server takes it for no message at all.
      if (running?.length !== 1) continue;
      running[0]!.onmessage?.(message as JSONRPCNotification);
      // No answer will come for it: its response ends now, and the exchange with it, rather than when the client leaves.
      releaseStream(running[0]!, cancelled.data.params.requestId, 'the client cancelled the request');
    }
  }

  private forget(key: string, transport: Transport): void {
    const left = (this.inFlight.get(key) ?? []).filter((entry) => entry !== transport);
    if (left.length === 0) this.inFlight.delete(key);
    else this.inFlight.set(key, left);
  }
}

/** The id's type is part of it: JSON-RPC tells the request 1 from the request "1". */
function keyOf(owner: SessionOwner, id: RequestId): string {
  return JSON.stringify([owner.apiKeyId ?? null, owner.client, id]);
}
