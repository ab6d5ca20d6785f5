import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyError, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { SessionLimits } from './session-limits.js';
import type { McpSettings } from './settings.js';

/** What both transports' routes share: settings, the host guard, the session limits, the error answer, and a fresh server per session. */
export interface TransportRouteOptions {
  settings: McpSettings;
  guard: onRequestAsyncHookHandler;
  limits: SessionLimits;
  /** Answers an error before the transport has the request: in JSON-RPC (replies.ts mcpErrorHandler). */
  errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply;
  createServer(sessionId: string): McpServer;
}
