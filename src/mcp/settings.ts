import { z } from 'zod';
import { listFromEnv, type AppConfig } from '../config.js';
import { originEntryProblem } from './host-guard.js';

/** How the MCP endpoint behaves, from the validated config plus two timings read here. */
export interface McpSettings {
  stateless: boolean;
  tools: 'compact' | 'split';
  allowedHosts: string[];
  allowedOrigins: string[];
  /** Interval of the SSE comment heartbeat: proxies (nginx: 60 s) cut streams that stay silent. */
  heartbeatMs: number;
  /** A Streamable HTTP session with no open request for this long lost its client and is closed. */
  sessionIdleMs: number;
}

export interface McpTimings {
  heartbeatMs?: number;
  sessionIdleMs?: number;
}

// Tuning knobs only tests and unusual proxies need, so they stay out of the main config schema.
const timingsSchema = z.object({
  MCP_HEARTBEAT_MS: z.coerce.number().int().min(10).max(300_000).default(20_000),
  MCP_SESSION_IDLE_MS: z.coerce.number().int().min(100).max(86_400_000).default(15 * 60_000),
});

export function readMcpSettings(config: AppConfig, overrides: McpTimings = {}): McpSettings {
  const present = Object.fromEntries(
    Object.entries(config.env).filter(([name, value]) => name in timingsSchema.shape && value !== undefined && value !== ''),
  );
  const parsed = timingsSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const allowedOrigins = listFromEnv(config.MCP_ALLOWED_ORIGINS);
  const originProblems = allowedOrigins.map(originEntryProblem).filter((problem) => problem !== undefined);
  if (originProblems.length > 0) {
    throw new Error(
      `Invalid configuration: MCP_ALLOWED_ORIGINS: ${originProblems.join('; ')}; give a comma list of origins like https://app.example.com (scheme, host and port only), or * for any origin`,
    );
  }
  return {
    stateless: config.MCP_STATELESS,
    tools: config.MCP_TOOLS,
    allowedHosts: listFromEnv(config.MCP_ALLOWED_HOSTS),
    allowedOrigins,
    heartbeatMs: overrides.heartbeatMs ?? parsed.data.MCP_HEARTBEAT_MS,
    sessionIdleMs: overrides.sessionIdleMs ?? parsed.data.MCP_SESSION_IDLE_MS,
  };
}
