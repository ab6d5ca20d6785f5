import { shownNames, shownValue } from '../domain/shown-value.js';
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Operation } from '../operations/operation.js';

export type ToolMode = 'compact' | 'split';

/** Which operation a tool call means, with the params to validate against that operation's schema. */
export type ToolRoute = { operation: Operation; params: unknown } | { problem: string };

/** One tool as a client lists it, and how its calls reach an operation. */
export interface ToolBinding {
  definition: Tool;
  route(args: Record<string, unknown>): ToolRoute;
  /** How to call an operation through this tool: its parameters and its example, shaped for this tool. */
  usage(operation: Operation): string;
}

export const COMPACT_TOOL = 'research';

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [keyword: string]: unknown;
}

/**
 * What a client may assume of a tool before calling it. Every operation only reads (searches, lookups, a page
 * fetched with GET): without readOnlyHint a client must take a tool for one that may change or destroy things
 * (MCP's defaults), and some then ask their user to approve each call. All but the catalogues reach the web.
 */
function annotationsOf(operations: readonly Operation[]): ToolAnnotations {
  return { readOnlyHint: true, openWorldHint: operations.some((operation) => operation.closedWorld !== true) };
}

/** The parameters as JSON Schema, as a caller sends them (defaults make a field optional). */
function parameterSchema(operation: Operation): JsonSchema & { type: 'object' } {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(operation.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return { ...schema, type: 'object' };
}

function describeType(schema: JsonSchema): string {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map(describeType).join('|');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join('|');
  if (schema.type === 'array') return `${describeType(schema.items ?? {})}[]`;
  return typeof schema.type === 'string' ? schema.type : 'any';
}

/** "query: string, providers?: string[], …": one line a model can read, optional fields marked. */
function parameterLine(operation: Operation): string {
  const schema = parameterSchema(operation);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .map(([name, field]) => `${name}${required.has(name) ? '' : '?'}: ${describeType(field)}`)
    .join(', ');
}

/** What a model reads of an operation: its description, and when its tool call fails where that is MCP's own rule. */
export function toolDescription(operation: Operation): string {
  return operation.failureRule === undefined ? operation.description : `${operation.description} ${operation.failureRule}`;
}

/** "web_search(query: string, …)" */
function signature(operation: Operation): string {
  return `${operation.name}(${parameterLine(operation)})`;
}

/**
 * Why `operation` names none. Only a string is quoted back: any other value may nest deeper than JSON.stringify's
 * stack goes (60,000 brackets fit in the body limit), and its RangeError escaped the tool call as a JSON-RPC internal
 * error ("Maximum call stack size exceeded") in place of this refusal.
 */
function operationNameProblem(name: unknown): string {
  if (name === undefined) return 'no operation given';
  if (typeof name !== 'string') return 'operation: not a string';
  return `unknown operation ${shownValue(JSON.stringify(name))}`;
}

function compactTool(operations: readonly Operation[]): ToolBinding {
  const names = operations.map((operation) => operation.name);
  const signatureOf = new Map(operations.map((operation) => [operation, signature(operation)]));
  const first = operations[0];
  const usage = (operation: Operation): string =>
    `Parameters of ${signatureOf.get(operation)}\nExample: ${JSON.stringify({ operation: operation.name, params: operation.example })}`;
  const description = [
    'Federated search: many providers asked at once, one merged and ranked answer. Pick an operation and pass its parameters in `params`:',
    ...operations.map((operation) => `- ${signatureOf.get(operation)}: ${toolDescription(operation)}`),
    first ? `Example: ${JSON.stringify({ operation: first.name, params: first.example })}` : '',
  ].join('\n');
  return {
    definition: {
      name: COMPACT_TOOL,
      description,
      annotations: annotationsOf(operations),
      inputSchema: {
        type: 'object',
        properties: {
          operation: { type: 'string', enum: names, description: 'Which operation to run.' },
          params: { type: 'object', additionalProperties: true, default: {}, description: "The operation's parameters (see the list above)." },
        },
        required: ['operation'],
        additionalProperties: false,
      },
    },
    route: (args) => {
      const { operation: name, params, ...extra } = args;
      const operation = operations.find((candidate) => candidate.name === name);
      if (!operation) {
        return { problem: `${operationNameProblem(name)}; operations:\n${operations.map((entry) => `- ${signatureOf.get(entry)}`).join('\n')}` };
      }
      const stray = Object.keys(extra);
      if (stray.length > 0) {
        return { problem: `${shownNames(stray)} ${stray.length > 1 ? 'are' : 'is'} not a field of ${COMPACT_TOOL}; put ${operation.name}'s parameters inside params\n${usage(operation)}` };
      }
      if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
        return { problem: `params: not an object; allowed: an object of ${operation.name}'s parameters\n${usage(operation)}` };
      }
      return { operation, params: params ?? {} };
    },
    usage,
  };
}

function splitTool(operation: Operation): ToolBinding {
  const usage = `Parameters of ${signature(operation)}\nExample: ${JSON.stringify(operation.example)}`;
  return {
    definition: { name: operation.name, description: toolDescription(operation), inputSchema: parameterSchema(operation), annotations: annotationsOf([operation]) },
    route: (args) => ({ operation, params: args }),
    usage: () => usage,
  };
}

/** The tools a client sees: one `research` tool over every operation, or one tool per operation. */
export function buildTools(operations: readonly Operation[], mode: ToolMode): ToolBinding[] {
  return mode === 'compact' ? [compactTool(operations)] : operations.map(splitTool);
}
