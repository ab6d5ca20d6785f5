import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CancelledNotificationSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { callingRequestId } from './calling-request.js';
import { closedSessionAnswer, type SessionClosing } from './session-closing.js';

/**
 * The JSON-RPC requests a session received and has not answered yet, seen at its transport: what arrives
 * (onmessage) and what leaves (send). A shutdown waits for them to be answered before closing the session,
 * so a tool call in flight still delivers its result.
 */
export class PendingRequests {
  /**
   * Each request waiting, with the id of the HTTP request that carried it (for the error answer of a session closing),
   * by JSON-RPC id: a list, since a client may reuse the id of a call still running. The routes refuse such a request
   * (reused-request-id.ts; Streamable HTTP holds a POST's id from its check on: streamable-routes.ts), but should one
   * get through, the SDK runs both calls, and each answer settles one of them. Keyed by id alone, the first answer
   * would settle both, and a shutdown would not wait for the second.
   */
  private readonly pending = new Map<RequestId, Array<string | undefined>>();
  private count = 0;
  private waiters: Array<() => void> = [];

  /** Call before the server connects: the SDK chains the onmessage it finds, so ours sees every message first. */
  constructor(private readonly transport: Transport) {
    transport.onmessage = (message, extra) => this.received(message, extra?.authInfo);
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
    return this.count;
  }

  /** Whether a request with this id was received and is still waiting for its answer. */
  has(id: RequestId): boolean {
    return this.pending.has(id);
  }

  /** Resolves once no request is waiting for its answer (at once if none is). */
  async answered(): Promise<void> {
    if (this.count === 0) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /**
   * The session is closing: each request still waiting is answered with an error saying so, sent now, while the
   * transport still has the request's stream (closing it ends every stream with nothing written). A send that fails
   * (the stream is gone already: its client left) has nobody to tell.
   */
  answerAll(closing: SessionClosing): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    const sends = [...this.pending].flatMap(([id, requestIds]) =>
      requestIds.map((requestId) => this.transport.send(closedSessionAnswer(id, closing, requestId)).catch(() => undefined)),
    );
    return Promise.all(sends).then(() => undefined);
  }

  /** The session is gone: nothing still pending will be answered, so nobody should wait for it. */
  clear(): void {
    this.pending.clear();
    this.count = 0;
    this.wake();
  }

  private received(message: JSONRPCMessage, authInfo: AuthInfo | undefined): void {
    if (isJSONRPCRequest(message)) {
      const requestIds = this.pending.get(message.id);
      if (requestIds === undefined) this.pending.set(message.id, [callingRequestId(authInfo)]);
      else requestIds.push(callingRequestId(authInfo));
      this.count += 1;
      return;
    }
    // A cancelled request is never answered (the SDK drops its result).
    const cancelled = CancelledNotificationSchema.safeParse(message);
    if (cancelled.success && cancelled.data.params.requestId !== undefined) this.settle(cancelled.data.params.requestId);
  }

  /** One request of this id answered (or cancelled). An answer does not say which of two calls with one id it ends: the first received is taken. */
  private settle(id: RequestId): void {
    const requestIds = this.pending.get(id);
    if (requestIds === undefined) return;
    requestIds.shift();
    if (requestIds.length === 0) this.pending.delete(id);
    this.count -= 1;
    if (this.count === 0) this.wake();
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
