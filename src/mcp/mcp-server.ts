import type { FastifyBaseLogger as Logger } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { shownValue } from '../domain/shown-value.js';
import { API_VERSION } from '../version.js';
import type { McpToolCallRecord } from '../observability/metrics.js';
import type { OperationContext } from '../operations/operation.js';
import { callingRequest } from './calling-request.js';
import { progressNotifier } from './progress.js';
import { callTool, errorResult, logToolCall, toolCallOutcome } from './tool-calls.js';
import { answerToolCalls, progressTokenOf, toolArguments } from './tool-call-request.js';
import { toolDescription, type ToolBinding } from './tools.js';

export interface McpServerOptions {
  tools: readonly ToolBinding[];
  context: Omit<OperationContext, 'signal' | 'logger'>;
  /** The session's logger; each call adds its tool, its JSON-RPC id and the id of the HTTP request that carried it. */
  logger: Logger;
  /** Told of each call to a registered tool, with its result and duration (metrics); a call to an unknown tool is not. */
  onToolCall?(record: McpToolCallRecord): void;
}

/**
 * One MCP server per session, knowing nothing of its transport. tools/list and tools/call are answered
 * from the tool bindings directly, so arguments are validated by each operation's own schema and its
 * messages (not the SDK's generic ones) reach the model.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const byName = new Map(options.tools.map((binding) => [binding.definition.name, binding]));
  // list_operations describes each operation as the tools do, with when its tool call fails.
  const sessionContext = { ...options.context, describeOperation: toolDescription };
  const mcp = new McpServer(
    { name: 'fedsearch', version: API_VERSION },
    { instructions: 'Federated search over many providers at once. Each tool lists its parameters; list_operations gives them as JSON Schema with an example.' },
  );
  mcp.server.registerCapabilities({ tools: {} });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: options.tools.map((binding) => binding.definition) }));
  answerToolCalls(mcp.server, async (request, extra) => {
    const { name, arguments: args } = request.params ?? {};
    const binding = typeof name === 'string' ? byName.get(name) : undefined;
    // Not counted: the name is the caller's, and each made-up one would be a series of its own.
    if (!binding) {
      const given = typeof name === 'string' ? `unknown tool "${shownValue(name)}"` : `name: ${name === undefined ? 'missing' : 'not a string'}`;
      return errorResult(`${given}; tools: ${[...byName.keys()].join(', ')}`);
    }
    const parameters = toolArguments(args, binding.definition.name);
    if ('problem' in parameters) return errorResult(parameters.problem);
    const started = performance.now();
    const { requestId, receivedAt, caller } = callingRequest(extra.authInfo);
    // The JSON-RPC id is the client's, any string up to the body limit, and a child's bindings go on every line of
    // the call (its tool call line, each provider's outcome line): cut as other caller-chosen values are.
    const mcpRequestId = typeof extra.requestId === 'string' ? shownValue(extra.requestId) : extra.requestId;
    const logger = options.logger.child({ ...(requestId === undefined ? {} : { reqId: requestId }), tool: binding.definition.name, mcpRequestId });
    // With a progressToken, searches report each provider as it finishes (notifications/progress).
    const token = progressTokenOf(request);
    const notifier = token === undefined ? undefined : progressNotifier(token, extra.sendNotification, logger);
    const context = {
      ...sessionContext,
      signal: extra.signal,
      logger,
      ...(receivedAt === undefined ? {} : { receivedAt }),
      ...(caller === undefined ? {} : { caller }),
      ...(notifier ? { progress: notifier.progress } : {}),
    };
    const { result, operation } = await callTool(binding, parameters.params, context);
    const seconds = (performance.now() - started) / 1000;
    await notifier?.settled();
    // Asked after the last await, as the SDK asks before it sends the answer: a call cancelled meanwhile gets none.
    const outcome = toolCallOutcome(result, extra.signal);
    if (operation !== undefined) logToolCall(logger, operation, outcome, seconds * 1000);
    // The operation's name is the registry's, never what the caller sent: a bounded label.
    options.onToolCall?.({ tool: binding.definition.name, operation, outcome, seconds });
    return result;
  });
  return mcp;
}
