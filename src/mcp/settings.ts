import { z } from 'zod';
import type { AppConfig } from '../config.js';
import { listFromEnv, wholeNumber } from '../config/env-values.js';
import { originEntryProblem } from './host-guard.js';

/** How the MCP endpoint behaves: the `mcp` section of the configuration. */
export interface McpSettings {
  stateless: boolean;
  tools: 'compact' | 'split';
  allowedHosts: string[];
  allowedOrigins: string[];
  /** Interval of the SSE comment heartbeat: proxies (nginx: 60 s) cut streams that stay silent. */
  heartbeatMs: number;
  /**
   * A Streamable HTTP session with no open request for this long lost its client and is closed; so is a legacy
   * SSE session that was posted nothing for this long, its stream open or not (mcp/idle-watch.ts).
   */
  sessionIdleMs: number;
}

export interface McpTimings {
  heartbeatMs?: number;
  sessionIdleMs?: number;
}

/** Tuning knobs only tests and unusual proxies need; validated with the rest of the configuration. */
export const mcpTimingVariableShape = {
  MCP_HEARTBEAT_MS: wholeNumber(10, 300_000).default(20_000),
  MCP_SESSION_IDLE_MS: wholeNumber(100, 86_400_000).default(15 * 60_000),
};

/** MCP_ALLOWED_ORIGINS: a comma list of origins (scheme, host and port), or * for any origin. */
export const allowedOriginsVariable = z.string().superRefine((raw, context) => {
  const problems = listFromEnv(raw).flatMap((entry) => originEntryProblem(entry) ?? []);
  if (problems.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `${problems.join('; ')}; give a comma list of origins like https://app.example.com (scheme, host and port only), or * for any origin`,
    });
  }
});

interface McpValues {
  MCP_STATELESS: boolean;
  MCP_TOOLS: 'compact' | 'split';
  MCP_ALLOWED_HOSTS?: string | undefined;
  MCP_ALLOWED_ORIGINS?: string | undefined;
  MCP_HEARTBEAT_MS: number;
  MCP_SESSION_IDLE_MS: number;
}

/** The `mcp` section built from validated values. */
export function mcpSettingsFrom(values: McpValues): McpSettings {
  return {
    stateless: values.MCP_STATELESS,
    tools: values.MCP_TOOLS,
    allowedHosts: listFromEnv(values.MCP_ALLOWED_HOSTS),
    allowedOrigins: listFromEnv(values.MCP_ALLOWED_ORIGINS),
    heartbeatMs: values.MCP_HEARTBEAT_MS,
    sessionIdleMs: values.MCP_SESSION_IDLE_MS,
  };
}

/** The MCP settings of a loaded configuration, with timings a test may shorten. */
export function readMcpSettings(config: Pick<AppConfig, 'mcp'>, overrides: McpTimings = {}): McpSettings {
  return {
    ...config.mcp,
    allowedHosts: [...config.mcp.allowedHosts],
    allowedOrigins: [...config.mcp.allowedOrigins],
    heartbeatMs: overrides.heartbeatMs ?? config.mcp.heartbeatMs,
    sessionIdleMs: overrides.sessionIdleMs ?? config.mcp.sessionIdleMs,
  };
}
