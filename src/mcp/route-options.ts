import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { SessionLimits } from './session-limits.js';
import type { McpSettings } from './settings.js';

/** What both transports' routes share: settings, the host guard, the session limits, and a fresh server per session. */
export interface TransportRouteOptions {
  settings: McpSettings;
  guard: onRequestAsyncHookHandler;
  limits: SessionLimits;
  createServer(sessionId: string): McpServer;
}
