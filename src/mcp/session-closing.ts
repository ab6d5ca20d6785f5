import { ErrorCode, type JSONRPCErrorResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** Why a session ends while requests of it still wait for their answers: our code (data.code) and what to do. */
export interface SessionClosing {
  code: 'SESSION_CLOSED' | 'SHUTTING_DOWN';
  message: string;
}

/** A DELETE for the session (its own client's, or another holding its id). */
export const ENDED_BY_DELETE: SessionClosing = {
  code: 'SESSION_CLOSED',
  message: 'Session closed: a DELETE ended it before this request was answered; open a new session and send the request again',
};

/**
 * Any other closing. None closes a session under a waiting request today (idle-outs and the session cap wait for its
 * answer; a client's dropped stream can carry none): the default, so that a new way to close cannot leave one silent.
 */
export const CLOSED_BY_SERVER: SessionClosing = {
  code: 'SESSION_CLOSED',
  message: 'Session closed by the server before this request was answered; open a new session and send the request again',
};

/** The grace of a shutdown is over and the request is still running. */
export const CLOSED_FOR_SHUTDOWN: SessionClosing = {
  code: 'SHUTTING_DOWN',
  message: 'The service is closing (its shutdown grace is over) and this request was not answered in time; send it again, to another replica',
};

/**
 * The answer a request gets when its session closes under it: a JSON-RPC error in the shape of the MCP routes' own
 * (our code and the id of the HTTP request that carried it in `data`). Without it the SDK's transports end the
 * request's stream with nothing written, and its client waits for its own timeout (60 s by default) to learn nothing.
 */
export function closedSessionAnswer(id: RequestId, closing: SessionClosing, requestId: string | undefined): JSONRPCErrorResponse {
  const data = requestId === undefined ? { code: closing.code } : { code: closing.code, request_id: requestId };
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message: closing.message, data } };
}
