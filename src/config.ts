import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { apiKeyFile, apiKeyList } from './config/api-keys.js';
import { readProvidersFile } from './config/providers-file.js';
import { unreadVariables, type UnreadVariable } from './config/unread-variables.js';
import {
  booleanFlag,
  byteLimit,
  decimalNumber,
  describeProblems,
  listenHost,
  oneOf,
  proxyHops,
  readableFolder,
  redisKeyPrefix,
  redisUrl,
  secretToken,
  text,
  wholeNumber,
} from './config/env-values.js';
import { fetchSettingsFrom, fetchVariableShape, type FetchSettings } from './fetch/fetch-settings.js';
import { allowedHostsVariable, allowedMcpHostsVariable } from './http/host-check.js';
import { allowedOriginsVariable, mcpSettingsFrom, mcpTimingVariableShape, type McpSettings } from './mcp/settings.js';
import { builtInName, instanceConfig, providerConfigFrom, providerVariableShape, tuningKey } from './providers/provider-config.js';
import { CONFIGURED_PROVIDER_SETTINGS, PROVIDER_DEFINITIONS, RESERVED_INSTANCE_NAMES, type ProviderConfigs } from './providers/registry.js';

export { listFromEnv } from './config/env-values.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const booleanFromEnv = booleanFlag();

/** Every service-wide setting; fetch, MCP timing and provider variables join them in configSchema below. */
const serviceShape = {
  PORT: wholeNumber(0, 65535).default(8080),
  HOST: listenHost().default('0.0.0.0'),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CACHE_TTL_SECONDS: wholeNumber(0, 86_400).default(300),
  /** An answer in which a provider failed lives at most this long (and never past CACHE_TTL_SECONDS). */
  CACHE_PARTIAL_TTL_SECONDS: wholeNumber(0, 86_400).default(15),
  CACHE_MAX_ENTRIES: wholeNumber(1).default(1000),
  CACHE_MAX_BYTES: wholeNumber(1024).default(50 * 1024 * 1024),
  /** The longest answer (JSON length) written to Redis for other replicas; a longer one stays in its replica's cache. */
  CACHE_SHARED_MAX_BYTES: wholeNumber(1024).default(8 * 1024 * 1024),
  /** How long fetch_url and paper_read keep a document they read, for its next pages (0 keeps none). */
  READ_CACHE_TTL_SECONDS: wholeNumber(0, 86_400).default(600),
  READ_CACHE_MAX_BYTES: wholeNumber(1024 * 1024).default(64 * 1024 * 1024),
  RRF_K: decimalNumber(0).default(60),
  DEFAULT_TIMEOUT_MS: wholeNumber(100, 30_000).default(5000),
  /** Largest upstream body read per request; a larger one is a provider error, not a crash. */
  UPSTREAM_MAX_BYTES: wholeNumber(1024).default(8 * 1024 * 1024),
  BREAKER_FAILURES: wholeNumber(1, 1000).default(5),
  BREAKER_COOLDOWN_MS: wholeNumber(100).default(30_000),
  BREAKER_MAX_COOLDOWN_MS: wholeNumber(100).default(600_000),
  // Checked only when set: the default ships with the project (and the Docker image).
  LOCAL_INDEX_DIR: readableFolder().default(path.join(projectRoot, 'docs')),
  TRUST_PROXY: proxyHops().default(0),
  /**
   * Host names the service answers besides IP addresses and localhost (DNS-rebinding guard: http/host-check.ts);
   * unset, that is every name when API keys are required and none otherwise.
   */
  ALLOWED_HOSTS: allowedHostsVariable.optional(),
  /** Comma list of accepted API keys; when set (here or in API_KEYS_FILE) REST and MCP require one. */
  API_KEYS: apiKeyList().optional(),
  API_KEYS_FILE: apiKeyFile().optional(),
  /** A YAML file of named provider instances; read and checked in loadConfig, which has the environment for its ${VARIABLE}s. */
  PROVIDERS_FILE: text().optional(),
  METRICS_TOKEN: secretToken(8).optional(),
  RATE_LIMIT_MAX: wholeNumber(1).default(120),
  RATE_LIMIT_WINDOW_MS: wholeNumber(100).default(60_000),
  CORS_ORIGINS: allowedOriginsVariable.optional(),
  BODY_LIMIT_BYTES: wholeNumber(1024, 10 * 1024 * 1024).default(256 * 1024),
  /** Time for a request's headers and body to arrive (not for its answer, so streams are unaffected). */
  REQUEST_TIMEOUT_MS: wholeNumber(1000, 600_000).default(30_000),
  /** How long an answer may wait with none of it taken by the client before its connection is closed. */
  RESPONSE_STALL_TIMEOUT_MS: wholeNumber(1000, 3_600_000).default(60_000),
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: wholeNumber(0).default(1000),
  // Bytes, 0 for off; below 1 MiB no process fits, so a smaller value is a unit slip (512 meant as MiB) that
  // would turn every request away.
  PRESSURE_MAX_HEAP_BYTES: byteLimit(),
  PRESSURE_MAX_RSS_BYTES: byteLimit(),
  REDIS_URL: redisUrl().optional(),
  REDIS_KEY_PREFIX: redisKeyPrefix().default('fedsearch:'),
  SHUTDOWN_GRACE_MS: wholeNumber(0, 600_000).default(8000),
  /** Answers of 1 KiB or more compressed (brotli or gzip) for clients that accept it; off when a proxy compresses. */
  COMPRESS_RESPONSES: booleanFromEnv.default(true),
  /**
   * Comment lines on /v1/search/{kind}/stream: 15 s keeps proxies with a 30–60 s idle timeout (nginx: 60 s)
   * from cutting a stream while providers think. Only tests and unusual proxies change it.
   */
  SEARCH_STREAM_HEARTBEAT_MS: wholeNumber(10, 300_000).default(15_000),
  MCP_ENABLED: booleanFromEnv.default(true),
  MCP_STATELESS: booleanFromEnv.default(false),
  MCP_TOOLS: oneOf(['compact', 'split']).default('compact'),
  MCP_ALLOWED_HOSTS: allowedMcpHostsVariable.optional(),
  MCP_ALLOWED_ORIGINS: allowedOriginsVariable.optional(),
  /** Open MCP sessions in total and per API key (per address without keys): each holds a server (~31 KB) until it ends. */
  MCP_MAX_SESSIONS: wholeNumber(1, 1_000_000).default(1000),
  MCP_MAX_SESSIONS_PER_CLIENT: wholeNumber(1, 1_000_000).default(50),
};

// LOCAL_INDEX_DIR is both the local provider's setting and a service setting: the service's check wins.
const providerShape = Object.fromEntries(
  Object.entries(providerVariableShape(CONFIGURED_PROVIDER_SETTINGS)).filter(([name]) => !(name in serviceShape)),
);

const configSchema = z
  .object({
    ...serviceShape,
    ...fetchVariableShape,
    ...mcpTimingVariableShape,
    ...providerShape,
  })
  .superRefine(
    (values, context) => {
      if (values.BREAKER_COOLDOWN_MS > values.BREAKER_MAX_COOLDOWN_MS) {
        context.addIssue({
          code: 'custom',
          path: ['BREAKER_COOLDOWN_MS'],
          message: `expected at most BREAKER_MAX_COOLDOWN_MS (${values.BREAKER_MAX_COOLDOWN_MS}), got ${values.BREAKER_COOLDOWN_MS}`,
        });
      }
    },
    // Compared only when both values are themselves valid; other problems are still all reported.
    { when: (payload) => !payload.issues.some((issue) => String(issue.path?.[0]).startsWith('BREAKER_')) },
  );

/**
 * Every variable the service itself reads (the providers' own are `<NAME>_…` and their credentials): README.md's
 * configuration table documents exactly these (test/docs/configuration-table.test.ts).
 */
export const SERVICE_VARIABLES: readonly string[] = Object.keys({ ...serviceShape, ...fetchVariableShape, ...mcpTimingVariableShape });

/** Every variable read at all: the service's, and each provider's settings and credentials under every prefix. */
const READ_VARIABLES: ReadonlySet<string> = new Set([...SERVICE_VARIABLES, ...Object.keys(providerShape)]);

type ServiceValues = z.output<z.ZodObject<typeof serviceShape>>;

/** The service settings under their variable names, plus one section each for fetch, MCP, API keys and providers. */
export type AppConfig = Readonly<
  Omit<ServiceValues, 'API_KEYS' | 'API_KEYS_FILE' | 'PROVIDERS_FILE'> & {
    fetch: Readonly<FetchSettings>;
    mcp: Readonly<McpSettings>;
    /** Every accepted key from API_KEYS and API_KEYS_FILE; empty when the service is open. */
    apiKeys: readonly string[];
    /**
     * Each provider instance's validated settings by instance name: the built-in ones from `<NAME>_BASE_URL`,
     * `_WEIGHT`, … and credentials, then PROVIDERS_FILE's entries (one named like a built-in instance replaces it).
     */
    providers: ProviderConfigs;
    /** Variables set in our namespaces that nothing reads (typos, most likely): server.ts warns of each at start-up. */
    unreadVariables: readonly UnreadVariable[];
  }
>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Reads and validates the whole configuration once, at start-up; every bad value is reported in one
 * message naming the variable and what is allowed. Nothing reads the environment after this.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // An empty variable counts as unset, as `KEY=` in compose files and .env files means.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = configSchema.safeParse(present);
  const providersFile = present.PROVIDERS_FILE
    ? readProvidersFile(present.PROVIDERS_FILE, present, { definitions: PROVIDER_DEFINITIONS, reservedNames: RESERVED_INSTANCE_NAMES })
    : { instances: [], problems: [], variables: [] };
  const problems = [
    ...(parsed.success ? [] : [describeProblems(parsed.error.issues)]),
    ...providersFile.problems.map((problem) => `PROVIDERS_FILE: ${problem}`),
  ];
  if (!parsed.success || problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  const values = parsed.data;
  const service = Object.fromEntries(Object.keys(serviceShape).map((name) => [name, (values as Record<string, unknown>)[name]])) as ServiceValues;
  const { API_KEYS: listedKeys, API_KEYS_FILE: fileKeys, PROVIDERS_FILE: _providersFile, ...serviceSettings } = service;
  const providerDefaults = { timeoutMs: values.DEFAULT_TIMEOUT_MS };
  return deepFreeze({
    ...serviceSettings,
    // UV_THREADPOOL_SIZE is libuv's, read by Node itself at start-up, not validated here: the fetch lookups' share of
    // its threads follows it as libuv reads it (fetch/lookup-slots.ts).
    fetch: fetchSettingsFrom(values, env.UV_THREADPOOL_SIZE),
    mcp: mcpSettingsFrom(values),
    apiKeys: [...(listedKeys ?? []), ...(fileKeys ?? [])],
    unreadVariables: unreadVariables(present, new Set([...READ_VARIABLES, ...(providersFile.variables ?? [])])),
    providers: Object.fromEntries([
      ...CONFIGURED_PROVIDER_SETTINGS.map((settings) => [builtInName(settings), providerConfigFrom(settings, values, providerDefaults)] as const),
      // Later entries win: a file instance named like a built-in one replaces it, keeping its place in the list.
      ...providersFile.instances.map(
        (entry) =>
          [
            entry.name,
            {
              ...instanceConfig(
                entry.name,
                entry.settings,
                entry.tuning,
                entry.credentials,
                providerDefaults,
                (field) => `${tuningKey(field)} of ${entry.name} in PROVIDERS_FILE`,
              ),
              fromFile: true,
            },
          ] as const,
      ),
    ]),
  });
}
