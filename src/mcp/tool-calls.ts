import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cutText } from '../domain/cut-text.js';
import { FedsearchError } from '../domain/errors.js';
import { parseInput } from '../domain/validation.js';
import type { McpToolCallOutcome } from '../observability/metrics.js';
import { answerText, type Operation, type OperationContext } from '../operations/operation.js';
import { errorText, MAX_RENDERED_CHARS } from '../operations/render.js';
import type { ToolBinding } from './tools.js';

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** render() bounds search answers already; this keeps any other operation's text inside the same budget. */
function bounded(text: string): string {
  return text.length <= MAX_RENDERED_CHARS ? text : cutText(text, MAX_RENDERED_CHARS - 40, '\n(cut to keep this answer short)');
}

function asStructuredContent(output: unknown): Record<string, unknown> {
  return typeof output === 'object' && output !== null && !Array.isArray(output) ? (output as Record<string, unknown>) : { result: output };
}

/**
 * The one place errors become MCP tool results. A caller's mistake keeps its message and is shown how to
 * call the operation; our own typed errors (a provider not configured, a page that answered 404) keep their
 * message, as on REST; anything else is logged and answered with a generic sentence, never a stack trace.
 */
function describeFailure(error: unknown, operation: Operation, binding: ToolBinding, context: OperationContext): string {
  if (error instanceof FedsearchError && error.code !== 'INTERNAL') {
    const callerMistake = error.code === 'QUERY_INVALID' || error.code === 'PROVIDER_UNKNOWN';
    if (callerMistake) return `${error.message}\n${binding.usage(operation)}`;
    return errorText(error.message, error.code, error.retryAfterMs);
  }
  // Nobody reads this answer (the SDK drops it); a client that went away is not a server failure.
  if (context.signal.aborted) return `${operation.name} was cancelled`;
  context.logger.error({ err: error, operation: operation.name }, 'MCP tool call failed');
  return `${operation.name} failed with an internal error; see the server log`;
}

/** A tool call's result, and the registry's name of the operation it ran (none when it was refused before one ran). */
export interface ToolCallOutcome {
  result: CallToolResult;
  operation?: string;
}

/** Runs one tool call: route to an operation, validate with its own schema, run, render text and JSON. */
export async function callTool(binding: ToolBinding, args: Record<string, unknown>, context: OperationContext): Promise<ToolCallOutcome> {
  const route = binding.route(args);
  if ('problem' in route) return { result: errorResult(route.problem) };
  const { operation } = route;
  const result = await runOperation(operation, route.params, context).catch((error: unknown) =>
    errorResult(describeFailure(error, operation, binding, context)),
  );
  return { result, operation: operation.name };
}

/**
 * How a call ended, asked once its handler is done: the SDK sends no answer for a request whose signal aborted
 * (its client cancelled it, dropped the stream, or the session closed), whatever the handler returned.
 */
export function toolCallOutcome(result: CallToolResult, signal: AbortSignal): McpToolCallOutcome {
  if (signal.aborted) return 'cancelled';
  return result.isError === true ? 'error' : 'ok';
}

/** The call's line: `MCP tool call` for one answered, `MCP tool call cancelled` for one nobody was answered. */
export function logToolCall(logger: OperationContext['logger'], operation: string, outcome: McpToolCallOutcome, ms: number): void {
  logger.info({ operation, outcome, ms: Math.round(ms) }, outcome === 'cancelled' ? 'MCP tool call cancelled' : 'MCP tool call');
}

/**
 * An answer that holds nothing because nothing it asked answered (a search no provider answered, a research whose
 * every step failed) is a failed tool call for MCP: isError, its failure line first, and still the whole text and
 * JSON (each provider's outcome), so that the model sees the failure and why.
 */
async function runOperation(operation: Operation, params: unknown, context: OperationContext): Promise<CallToolResult> {
  const input = parseInput(operation.input, params, `${operation.name} parameters`);
  const output = await operation.run(input, context);
  const { text, failure } = answerText(operation, output, input, context);
  return {
    content: [{ type: 'text', text: bounded(text) }],
    structuredContent: asStructuredContent(output),
    ...(failure === undefined ? {} : { isError: true }),
  };
}
