import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { clientKeyOf } from '../domain/client-key.js';

/**
 * What a tool call knows of the HTTP request that carried it. The SDK's transports hand a handler the request's
 * `auth` (as `extra.authInfo`), and nothing else of ours: the caller, as access control identified it (never its
 * key), when the request arrived (`receivedAt`), and the request's id, which every log line carries so that a tool
 * call's lines join that request's `request completed` line and the x-request-id its client was given. Not async
 * context: AsyncLocalStorage on Node 20 turns on promise hooks for every promise of the process once used, a cost
 * each search would pay.
 */
export function carryCaller(request: FastifyRequest, receivedAt: number): void {
  const caller = clientKeyOf(request);
  const auth: AuthInfo = { token: '', clientId: request.apiKeyId ?? 'anonymous', scopes: [], extra: { requestId: request.id, receivedAt, caller } };
  (request.raw as IncomingMessage & { auth?: AuthInfo }).auth = auth;
}

/**
 * What a tool call's handler knows of the HTTP request that carried it, from its `extra.authInfo`: the request's id,
 * and when it arrived (performance.now() time), from which the call's searches count their timeout_ms as REST's do,
 * and who asked (clientKey), for the outbound rate limits' share per caller.
 */
export function callingRequest(authInfo: AuthInfo | undefined): { requestId?: string; receivedAt?: number; caller?: string } {
  const requestId = authInfo?.extra?.requestId;
  const receivedAt = authInfo?.extra?.receivedAt;
  const caller = authInfo?.extra?.caller;
  return {
    ...(typeof requestId === 'string' ? { requestId } : {}),
    ...(typeof receivedAt === 'number' ? { receivedAt } : {}),
    ...(typeof caller === 'string' ? { caller } : {}),
  };
}

/** The id of the HTTP request that carried a message (callingRequest's requestId, read without building its object). */
export function callingRequestId(authInfo: AuthInfo | undefined): string | undefined {
  const requestId = authInfo?.extra?.requestId;
  return typeof requestId === 'string' ? requestId : undefined;
}
