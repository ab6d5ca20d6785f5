import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { McpSettings } from './settings.js';

/** What both transports' routes share: settings, the host guard, and a fresh server per session. */
export interface TransportRouteOptions {
  settings: McpSettings;
  guard: onRequestAsyncHookHandler;
  createServer(sessionId: string): McpServer;
}
