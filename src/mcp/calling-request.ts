import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';

/**
 * What a tool call knows of the HTTP request that carried it. The SDK's transports hand a handler the request's
 * `auth` (as `extra.authInfo`), and nothing else of ours: the caller, as access control identified it (never its
 * key), and the request's id, which every log line carries so that a tool call's lines join that request's
 * `request completed` line and the x-request-id its client was given. Not async context: AsyncLocalStorage on
 * Node 20 turns on promise hooks for every promise of the process once used, a cost each search would pay.
 */
export function carryCaller(request: FastifyRequest): void {
  const auth: AuthInfo = { token: '', clientId: request.apiKeyId ?? 'anonymous', scopes: [], extra: { requestId: request.id } };
  (request.raw as IncomingMessage & { auth?: AuthInfo }).auth = auth;
}

/** The id of the HTTP request that carried a tool call, from the handler's `extra.authInfo`. */
export function callingRequestId(authInfo: AuthInfo | undefined): string | undefined {
  const requestId = authInfo?.extra?.requestId;
  return typeof requestId === 'string' ? requestId : undefined;
}
