import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ProgressTokenSchema, type CallToolResult, type ProgressToken } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * tools/call as any client may send it: the name and arguments unread, so that a call whose arguments are no object
 * (an array, a string, null) or whose name is no string reaches our handler and is refused as any other bad tool
 * call is, with a tool error saying what was wrong and what is allowed. With the SDK's own schema it never did: the
 * SDK parsed the request before any handler ran and answered -32603 (internal error) with zod's issue list as the
 * message. The routes have checked the message as JSON-RPC already (transport-preconditions.ts), `_meta` included.
 */
const LooseToolCallRequestSchema = z.object({
  method: z.literal('tools/call'),
  params: z
    .looseObject({
      name: z.unknown().optional(),
      arguments: z.unknown().optional(),
      _meta: z.looseObject({ progressToken: ProgressTokenSchema.optional() }).optional(),
    })
    .optional(),
});

export type LooseToolCallRequest = z.infer<typeof LooseToolCallRequestSchema>;

type ToolCallHandler = Parameters<McpServer['server']['setRequestHandler']>[1];

/**
 * Answers tools/call with this handler. Set on the Protocol underneath the Server: the Server's own setRequestHandler
 * wraps a tools/call handler in a parse of the SDK's schema, which would refuse those calls again (-32602 with zod's
 * issue list). What else that wrapper does is of no use here: it checks the result, which callTool builds in the
 * SDK's own types, and handles tasks, which this server does not offer.
 */
export function answerToolCalls(server: McpServer['server'], handler: (request: LooseToolCallRequest, extra: Parameters<ToolCallHandler>[1]) => Promise<CallToolResult>): void {
  Protocol.prototype.setRequestHandler.call(server, LooseToolCallRequestSchema, handler as ToolCallHandler);
}

/** A tool call's arguments as the object of parameters they must be (absent: none), or what is wrong with them. */
export function toolArguments(args: unknown, tool: string): { params: Record<string, unknown> } | { problem: string } {
  if (args === undefined) return { params: {} };
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) return { params: args as Record<string, unknown> };
  const given = args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}`;
  return { problem: `arguments: ${given} is not an object; allowed: an object of ${tool}'s parameters ({} when none is needed), as its inputSchema in tools/list gives them` };
}

/** The progress token of a call, when its client asked for progress. */
export function progressTokenOf(request: LooseToolCallRequest): ProgressToken | undefined {
  return request.params?._meta?.progressToken;
}
