import { z } from 'zod';
import { decimalNumber, describeProblems, envValue, providerBaseUrl, wholeNumber } from '../config/env-values.js';
import { secretProblem } from '../config/secret-text.js';
import { defaultRate, parseRateLimit, RATE_LIMIT_FORMS, type RateLimit } from '../rate-limit/rate-limit-setting.js';
import type { CredentialSetting, ProviderConfig, ProviderSettings } from './provider.js';

/**
 * The per-provider part of the configuration. Every provider gets the same tunable settings, each read
 * from `<PREFIX>_<SUFFIX>` for every variable prefix of the provider (BRAVE_WEIGHT; HACKERNEWS_ and
 * HACKER_NEWS_), plus the credentials its adapter declares. Adding a provider needs no edit here; adding
 * a setting for every provider is one entry in PROVIDER_TUNING (which also makes it a PROVIDERS_FILE key,
 * its suffix in lower case: `rate_limit` for RATE_LIMIT), one field of ProviderConfig and its default in
 * instanceConfig.
 */
export const PROVIDER_TUNING = {
  baseUrl: { suffix: 'BASE_URL', schema: providerBaseUrl() },
  weight: { suffix: 'WEIGHT', schema: decimalNumber(0, 100) },
  timeoutMs: { suffix: 'TIMEOUT_MS', schema: wholeNumber(100, 60_000) },
  concurrency: { suffix: 'CONCURRENCY', schema: wholeNumber(1, 256) },
  // Checked here, parsed in instanceConfig: the parsed limit names the setting that changes it.
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

/** The tuning settings' validated values; an unset one falls back to the definition's or the service's default. */
export type Tuning = { [Field in keyof typeof PROVIDER_TUNING]: z.output<(typeof PROVIDER_TUNING)[Field]['schema']> };

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

/** The name of the instance a definition gets from the environment alone (`wikipedia` for `mediawiki`). */
export function builtInName(settings: ProviderSettings): string {
  return settings.builtInInstance ?? settings.name;
}

/** The variable prefixes of a provider, first wins: its built-in instance's name in upper case, then its declared aliases. */
export function variablePrefixes(settings: ProviderSettings): string[] {
  return [builtInName(settings).toUpperCase().replace(/[^A-Z0-9]/g, '_'), ...(settings.envAliases ?? [])];
}

/**
 * The PROVIDERS_FILE key of a declared credential: its variable without the provider's prefix, in lower case
 * (BRAVE_API_KEY → api_key, PUBMED_EMAIL → email, GITHUB_TOKEN → token).
 */
export function credentialKey(settings: ProviderSettings, credential: CredentialSetting): string {
  const prefix = variablePrefixes(settings).find((candidate) => credential.env.startsWith(`${candidate}_`));
  return (prefix ? credential.env.slice(prefix.length + 1) : credential.env).toLowerCase();
}

/** The PROVIDERS_FILE key of a tuning setting: its variable suffix in lower case (WEIGHT → weight, TIMEOUT_MS → timeout_ms). */
export function tuningKey(field: keyof Tuning): string {
  return PROVIDER_TUNING[field].suffix.toLowerCase();
}

function tuningVariables(settings: ProviderSettings, field: keyof Tuning): string[] {
  const names = variablePrefixes(settings).map((prefix) => `${prefix}_${PROVIDER_TUNING[field].suffix}`);
  // A provider with no public origin (SearXNG) is also pointed somewhere by its own variable (SEARXNG_URL).
  if (field === 'baseUrl' && settings.baseUrlEnv) names.push(settings.baseUrlEnv);
  return names;
}

// Credentials are free text; blank counts as unset, as an empty `KEY=` line in an .env file means.
const credentialSchema = z.string().transform((raw) => raw.trim() || undefined);
// A secret must also be one an API can take: no quotes kept from the way it was set, no invisible characters.
const secretCredentialSchema = z.string().transform((raw, context) => {
  const value = raw.trim();
  if (value === '') return undefined;
  const problem = secretProblem(value);
  if (problem === undefined) return value;
  context.addIssue({ code: 'custom', message: problem });
  return z.NEVER;
});
const blankAsUnset = z.string().transform((raw) => (raw.trim() === '' ? undefined : raw));

/** Every variable the given providers read, each with its schema: spread into the configuration schema. */
export function providerVariableShape(all: readonly ProviderSettings[]): Record<string, z.ZodType<unknown, string | undefined>> {
  const shape: Record<string, z.ZodType<unknown, string | undefined>> = {};
  for (const settings of all) {
    for (const credential of settings.credentials) {
      const { format } = credential;
      // A plain setting with a format (WIKIPEDIA_LANGUAGE) is blank-as-unset too; any other value must read.
      const free = credential.secret ? secretCredentialSchema : credentialSchema;
      shape[credential.env] = (format ? blankAsUnset.pipe(envValue(format.allowed, format.read).optional()) : free).optional();
    }
    for (const field of Object.keys(PROVIDER_TUNING) as Array<keyof Tuning>) {
      for (const name of tuningVariables(settings, field)) shape[name] = PROVIDER_TUNING[field].schema.optional();
    }
  }
  return shape;
}

function firstSetName(values: Record<string, unknown>, names: string[]): string | undefined {
  return names.find((name) => values[name] !== undefined);
}

function firstSet(values: Record<string, unknown>, names: string[]): unknown {
  const name = firstSetName(values, names);
  return name === undefined ? undefined : values[name];
}

/**
 * The server a URL names: its host and port as written (empty for the scheme's default), not its scheme. The
 * public API over plain http (`http://export.arxiv.org`, as arXiv's manual writes it) is the same API under the
 * same terms; another port is another server.
 */
function serverOf(url: string): string | undefined {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname}:${port}`;
  } catch {
    return undefined;
  }
}

/**
 * Whether an instance talks to the provider's public API. A published limit is a term of that API; an
 * instance pointed at another server (a proxy, a mirror, a self-hosted or test server) answers under
 * terms we do not know, so only a limit the operator sets applies to it.
 */
function usesPublicApi(settings: ProviderSettings, baseUrl: string | undefined): boolean {
  return baseUrl === undefined || serverOf(baseUrl) === serverOf(settings.baseUrl);
}

/** The set limit, else (on the public API) the declared default for these credentials (a key may raise it), else none. */
function rateLimitOf(
  settings: ProviderSettings,
  set: string | undefined,
  baseUrl: string | undefined,
  credentials: Record<string, string | undefined>,
  setting: string,
): RateLimit | undefined {
  if (set !== undefined) return parseRateLimit(set, setting);
  if (settings.rateLimit === undefined || !usesPublicApi(settings, baseUrl)) return undefined;
  return parseRateLimit(defaultRate(settings.rateLimit, credentials), setting);
}

/**
 * One named instance's configuration from its set tuning values and credentials (by variable name), with the
 * definition's and the service's defaults. Both the environment and PROVIDERS_FILE entries end here.
 * `settingName` says what an operator changes for a tuning setting, for messages (BRAVE_RATE_LIMIT; `base_url of
 * searx-eu in PROVIDERS_FILE`).
 */
export function instanceConfig(
  name: string,
  settings: ProviderSettings,
  tuning: Partial<Tuning>,
  credentials: Record<string, string | undefined>,
  defaults: ProviderDefaults,
  settingName: (field: keyof Tuning) => string,
): ProviderConfig {
  // SearXNG counts as configured once its base URL is set, however it was set.
  const withBaseUrl = settings.baseUrlEnv && tuning.baseUrl ? { ...credentials, [settings.baseUrlEnv]: tuning.baseUrl } : credentials;
  return {
    name,
    definition: settings.name,
    baseUrl: tuning.baseUrl ?? settings.baseUrl,
    baseUrlSetting: settingName('baseUrl'),
    credentials: withBaseUrl,
    weight: tuning.weight ?? settings.weight ?? FALLBACK.weight,
    timeoutMs: tuning.timeoutMs ?? settings.timeoutMs ?? defaults.timeoutMs,
    concurrency: tuning.concurrency ?? settings.concurrency ?? FALLBACK.concurrency,
    rateLimit: rateLimitOf(settings, tuning.rateLimit, tuning.baseUrl, withBaseUrl, settingName('rateLimit')),
  };
}

/** The built-in instance's configuration from already-validated variable values, with declared and service defaults. */
export function providerConfigFrom(settings: ProviderSettings, values: Record<string, unknown>, defaults: ProviderDefaults): ProviderConfig {
  const tuning = Object.fromEntries(
    (Object.keys(PROVIDER_TUNING) as Array<keyof Tuning>).map((field) => [field, firstSet(values, tuningVariables(settings, field))]),
  ) as Partial<Tuning>;
  const credentials: Record<string, string | undefined> = {};
  for (const credential of settings.credentials) credentials[credential.env] = values[credential.env] as string | undefined;
  // The variable the operator set, else the first one read: the one that would take effect if set.
  const settingName = (field: keyof Tuning): string => {
    const variables = tuningVariables(settings, field);
    return firstSetName(values, variables) ?? variables[0]!;
  };
  return instanceConfig(builtInName(settings), settings, tuning, credentials, defaults, settingName);
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
