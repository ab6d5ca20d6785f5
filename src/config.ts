import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Every service-wide setting, read once from the environment and validated; provider settings live in providers/registry.ts. */
const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** An answer in which a provider failed lives at most this long (and never past CACHE_TTL_SECONDS). */
  CACHE_PARTIAL_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(15),
  CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).default(1000),
  CACHE_MAX_BYTES: z.coerce.number().int().min(1024).default(50 * 1024 * 1024),
  RRF_K: z.coerce.number().min(0).default(60),
  DEFAULT_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5000),
  /** Largest upstream body read per request; a larger one is a provider error, not a crash. */
  UPSTREAM_MAX_BYTES: z.coerce.number().int().min(1024).default(8 * 1024 * 1024),
  BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).default(30_000),
  BREAKER_MAX_COOLDOWN_MS: z.coerce.number().int().min(100).default(600_000),
  LOCAL_INDEX_DIR: z.string().min(1).default(path.join(projectRoot, 'docs')),
  TRUST_PROXY: booleanFromEnv.default(false),
  /** Comma list of accepted API keys; when set (here or in API_KEYS_FILE) REST and MCP require one. */
  API_KEYS: z.string().optional(),
  API_KEYS_FILE: z.string().optional(),
  METRICS_TOKEN: z.string().min(8).optional(),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(100).default(60_000),
  CORS_ORIGINS: z.string().optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10 * 1024 * 1024).default(256 * 1024),
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  PRESSURE_MAX_HEAP_BYTES: z.coerce.number().int().min(0).default(0),
  PRESSURE_MAX_RSS_BYTES: z.coerce.number().int().min(0).default(0),
  REDIS_URL: z.string().url().optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  MCP_ENABLED: booleanFromEnv.default(true),
  MCP_STATELESS: booleanFromEnv.default(false),
  MCP_TOOLS: z.enum(['compact', 'split']).default('compact'),
  MCP_ALLOWED_HOSTS: z.string().optional(),
  MCP_ALLOWED_ORIGINS: z.string().optional(),
});

export type AppConfig = z.infer<typeof configSchema> & { env: Record<string, string | undefined> };

/** Reads and validates the configuration; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return { ...parsed.data, env };
}

/** Comma-separated list from the environment, trimmed, empties dropped. */
export function listFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
