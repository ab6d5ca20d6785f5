import { z } from 'zod';
import { absoluteUrl, decimalNumber, describeProblems, envValue, wholeNumber } from '../config/env-values.js';
import { defaultRate, parseRateLimit, RATE_LIMIT_FORMS } from '../rate-limit/rate-limit-setting.js';
import type { ProviderConfig, ProviderSettings } from './provider.js';

/**
 * The per-provider part of the configuration. Every provider gets the same tunable settings, each read
 * from `<PREFIX>_<SUFFIX>` for every variable prefix of the provider (BRAVE_WEIGHT; HACKERNEWS_ and
 * HACKER_NEWS_), plus the credentials its adapter declares. Adding a provider needs no edit here; adding
 * a setting for every provider is one entry in PROVIDER_TUNING and one field of ProviderConfig.
 */
export const PROVIDER_TUNING = {
  baseUrl: { suffix: 'BASE_URL', schema: absoluteUrl() },
  weight: { suffix: 'WEIGHT', schema: decimalNumber(0, 100) },
  timeoutMs: { suffix: 'TIMEOUT_MS', schema: wholeNumber(100, 60_000) },
  concurrency: { suffix: 'CONCURRENCY', schema: wholeNumber(1, 256) },
  // Checked here, parsed in providerConfigFrom: the parsed limit names the variable that set it.
  rateLimit: { suffix: 'RATE_LIMIT', schema: envValue(RATE_LIMIT_FORMS, (raw) => (isRateLimit(raw) ? raw.trim() : undefined)) },
} as const;

function isRateLimit(raw: string): boolean {
  try {
    parseRateLimit(raw, 'RATE_LIMIT');
    return true;
  } catch {
    return false;
  }
}

type Tuning = { [Field in keyof typeof PROVIDER_TUNING]: z.output<(typeof PROVIDER_TUNING)[Field]['schema']> };

/** Defaults for a provider that declares none of its own. */
export interface ProviderDefaults {
  timeoutMs: number;
}

/**
 * 32 in flight per provider and replica: outbound rate limits (each API's published limit, shared across
 * replicas) pace requests to an upstream, so this limit only bounds sockets and memory; at 8 it capped a
 * replica at 8 / latency searches per second per provider (16/s at 500 ms), below what one replica serves.
 * docs/providers.md, "Concurrency".
 */
const FALLBACK = { weight: 1, concurrency: 32 };

/** The variable prefixes of a provider, first wins: its name in upper case, then its declared aliases. */
export function variablePrefixes(settings: ProviderSettings): string[] {
  return [settings.name.toUpperCase().replace(/[^A-Z0-9]/g, '_'), ...(settings.envAliases ?? [])];
}

function tuningVariables(settings: ProviderSettings, field: keyof Tuning): string[] {
  const names = variablePrefixes(settings).map((prefix) => `${prefix}_${PROVIDER_TUNING[field].suffix}`);
  // A provider with no public origin (SearXNG) is also pointed somewhere by its own variable (SEARXNG_URL).
  if (field === 'baseUrl' && settings.baseUrlEnv) names.push(settings.baseUrlEnv);
  return names;
}

// Credentials are free text; blank counts as unset, as an empty `KEY=` line in an .env file means.
const credentialSchema = z.string().transform((raw) => raw.trim() || undefined);

/** Every variable the given providers read, each with its schema: spread into the configuration schema. */
export function providerVariableShape(all: readonly ProviderSettings[]): Record<string, z.ZodType<unknown, string | undefined>> {
  const shape: Record<string, z.ZodType<unknown, string | undefined>> = {};
  for (const settings of all) {
    for (const credential of settings.credentials) shape[credential.env] = credentialSchema.optional();
    for (const field of Object.keys(PROVIDER_TUNING) as Array<keyof Tuning>) {
      for (const name of tuningVariables(settings, field)) shape[name] = PROVIDER_TUNING[field].schema.optional();
    }
  }
  return shape;
}

function firstSetName(values: Record<string, unknown>, names: string[]): string | undefined {
  return names.find((name) => values[name] !== undefined);
}

function firstSet<T>(values: Record<string, unknown>, names: string[]): T | undefined {
  const name = firstSetName(values, names);
  return name === undefined ? undefined : (values[name] as T);
}

/** One provider's configuration from already-validated variable values, with declared and service defaults. */
export function providerConfigFrom(settings: ProviderSettings, values: Record<string, unknown>, defaults: ProviderDefaults): ProviderConfig {
  const pick = <Field extends keyof Tuning>(field: Field): Tuning[Field] | undefined => firstSet(values, tuningVariables(settings, field));
  const credentials: Record<string, string | undefined> = {};
  for (const credential of settings.credentials) credentials[credential.env] = values[credential.env] as string | undefined;
  const baseUrl = pick('baseUrl');
  // SearXNG counts as configured once any of its base URL variables is set.
  if (settings.baseUrlEnv && baseUrl) credentials[settings.baseUrlEnv] = baseUrl;
  return {
    baseUrl: baseUrl ?? settings.baseUrl,
    credentials,
    weight: pick('weight') ?? settings.weight ?? FALLBACK.weight,
    timeoutMs: pick('timeoutMs') ?? settings.timeoutMs ?? defaults.timeoutMs,
    concurrency: pick('concurrency') ?? settings.concurrency ?? FALLBACK.concurrency,
    rateLimit: rateLimitFrom(settings, values, credentials),
  };
}

/** The variable's limit when one is set, else the declared default for these credentials, else none. */
function rateLimitFrom(settings: ProviderSettings, values: Record<string, unknown>, credentials: Record<string, string | undefined>) {
  const variables = tuningVariables(settings, 'rateLimit');
  const setBy = firstSetName(values, variables);
  if (setBy !== undefined) return parseRateLimit(values[setBy] as string, setBy);
  return settings.rateLimit === undefined ? undefined : parseRateLimit(defaultRate(settings.rateLimit, credentials), variables[0]!);
}

/**
 * One provider's configuration straight from an environment (provider tests build adapters this way);
 * a bad value throws naming the variable.
 */
export function readProviderConfig(
  settings: ProviderSettings,
  env: Record<string, string | undefined>,
  defaults: ProviderDefaults = { timeoutMs: 5000 },
): ProviderConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = z.object(providerVariableShape([settings])).safeParse(present);
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${describeProblems(parsed.error.issues)}`);
  }
  return providerConfigFrom(settings, parsed.data, defaults);
}
