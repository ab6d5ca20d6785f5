import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Operation, OperationContext } from '../operations/operation.js';

export interface McpOptions {
  config: AppConfig;
  operations: readonly Operation[];
  context: Omit<OperationContext, 'signal' | 'logger'>;
}

// STUB: the MCP endpoint (SSE + Streamable HTTP) is registered here.
export async function registerMcp(_app: FastifyInstance, _options: McpOptions): Promise<void> {}
