import type { FastifyInstance } from 'fastify';
import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AppConfig } from '../config.js';
import type { McpToolCallRecord } from '../observability/metrics.js';
import type { Operation, OperationContext } from '../operations/operation.js';
import { createHostGuard } from './host-guard.js';
import { createMcpServer } from './mcp-server.js';
import { registerOAuthDiscoveryRoutes } from './oauth-discovery.js';
import { mcpErrorHandler, type ErrorAnswering } from './replies.js';
import { CLOSED_FOR_SHUTDOWN } from './session-closing.js';
import { SessionLimits } from './session-limits.js';
import { SessionStore, sessionLogTag } from './session-store.js';
import { readMcpSettings, type McpTimings } from './settings.js';
import { registerSseRoutes } from './sse-transport-routes.js';
import { registerStreamableRoutes } from './streamable-routes.js';
import { buildTools } from './tools.js';

export interface McpOptions {
  config: AppConfig;
  operations: readonly Operation[];
  context: Omit<OperationContext, 'signal' | 'logger'>;
  /** How the service answers an error (http/error-handler.ts errorAnswer): the MCP routes give it in JSON-RPC. */
  answerError: ErrorAnswering;
  /** Heartbeat and idle timings; default from MCP_HEARTBEAT_MS / MCP_SESSION_IDLE_MS, then 20 s / 15 min. */
  timings?: McpTimings;
  /** Told of each call to a registered tool (metrics: fedsearch_mcp_tool_calls_total). */
  onToolCall?(record: McpToolCallRecord): void;
  /** Told of each idle session closed to make room for a new one (metrics: fedsearch_mcp_sessions_evicted_total). */
  onSessionEvicted?(): void;
}

interface McpStores {
  sse: SessionStore<SSEServerTransport>;
  streamable: SessionStore<StreamableHTTPServerTransport>;
}

const storesOf = new WeakMap<FastifyInstance, McpStores>();

/** How many sessions are open per transport (Streamable HTTP in stateless mode: exchanges in flight). */
export function mcpSessionCounts(app: FastifyInstance): { sse: number; streamable: number } {
  const stores = storesOf.get(app);
  return { sse: stores?.sse.size ?? 0, streamable: stores?.streamable.size ?? 0 };
}

/** The MCP endpoint: legacy SSE on /sse + /messages, Streamable HTTP on /mcp, tools derived from the operations. */
export async function registerMcp(app: FastifyInstance, options: McpOptions): Promise<void> {
  if (!options.config.MCP_ENABLED) return;
  const settings = readMcpSettings(options.config, options.timings);
  const tools = buildTools(options.operations, settings.tools);
  const routeOptions = {
    settings,
    guard: createHostGuard(settings),
    errorHandler: mcpErrorHandler(options.answerError),
    // Shared: a client's SSE and Streamable HTTP sessions count against the same limits.
    limits: new SessionLimits({ maxSessions: options.config.MCP_MAX_SESSIONS, maxSessionsPerClient: options.config.MCP_MAX_SESSIONS_PER_CLIENT }, (session) => {
      app.log.info({ mcpSession: sessionLogTag(session.id) }, 'MCP session closed to make room: MCP_MAX_SESSIONS reached, and it was the session idle longest');
      options.onSessionEvicted?.();
    }),
    createServer: (sessionId: string) =>
      createMcpServer({ tools, context: options.context, logger: app.log.child({ mcpSession: sessionLogTag(sessionId) }), onToolCall: options.onToolCall }),
  };
  const stores: McpStores = { sse: new SessionStore(), streamable: new SessionStore() };
  storesOf.set(app, stores);
  registerSseRoutes(app, stores.sse, routeOptions);
  registerStreamableRoutes(app, stores.streamable, routeOptions);
  registerOAuthDiscoveryRoutes(app);
  // Open streams would hold app.close() until their clients leave, so every session ends; not at once
  // though: like a REST request, a call in flight first delivers its answer (within SHUTDOWN_GRACE_MS).
  // Not awaited here, so the server stops listening meanwhile, as it does for REST.
  app.addHook('preClose', async () => {
    const pendingRequests = stores.sse.pendingRequests + stores.streamable.pendingRequests;
    app.log.info({ pendingRequests }, 'MCP sessions close once their requests in flight are answered');
    void finishSessions(stores, options.config.SHUTDOWN_GRACE_MS);
  });
}

/** Lets every session finish its requests in flight; past the grace period, closes whatever is left, answering what still waits. */
async function finishSessions(stores: McpStores, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
    timer.unref();
  });
  try {
    await Promise.race([Promise.all([stores.sse.finishAll(), stores.streamable.finishAll()]), graceOver]);
  } finally {
    clearTimeout(timer);
  }
  await Promise.all([stores.sse.closeAll(CLOSED_FOR_SHUTDOWN), stores.streamable.closeAll(CLOSED_FOR_SHUTDOWN)]);
}
