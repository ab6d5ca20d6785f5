import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CancelledNotificationSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * The JSON-RPC requests a session received and has not answered yet, seen at its transport: what arrives
 * (onmessage) and what leaves (send). A shutdown waits for them to be answered before closing the session,
 * so a tool call in flight still delivers its result.
 */
export class PendingRequests {
  private readonly pending = new Set<RequestId>();
  private waiters: Array<() => void> = [];

  /** Call before the server connects: the SDK chains the onmessage it finds, so ours sees every message first. */
  constructor(transport: Transport) {
    transport.onmessage = (message) => this.received(message);
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      try {
        await send(message, options);
      } finally {
        // Sent or failed to send: either way nothing more will come for this request.
        if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) this.settle(message.id);
      }
    };
  }

  get size(): number {
    return this.pending.size;
  }

  /** Resolves once no request is waiting for its answer (at once if none is). */
  async answered(): Promise<void> {
    if (this.pending.size === 0) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** The session is gone: nothing still pending will be answered, so nobody should wait for it. */
  clear(): void {
    this.pending.clear();
    this.wake();
  }

  private received(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) {
      this.pending.add(message.id);
      return;
    }
    // A cancelled request is never answered (the SDK drops its result).
    const cancelled = CancelledNotificationSchema.safeParse(message);
    if (cancelled.success && cancelled.data.params.requestId !== undefined) this.settle(cancelled.data.params.requestId);
  }

  private settle(id: RequestId): void {
    if (this.pending.delete(id) && this.pending.size === 0) this.wake();
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
