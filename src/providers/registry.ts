import type { Provider, ProviderConfig, ProviderSettings } from './provider.js';
import { resolveRateLimit } from '../rate-limit/rate-limit-setting.js';
import { ArxivProvider } from './arxiv.js';
import { BraveProvider } from './brave.js';
import { CrossrefProvider } from './crossref.js';
import { ExaProvider } from './exa.js';
import { FirecrawlProvider } from './firecrawl.js';
import { GithubProvider } from './github.js';
import { HackerNewsProvider } from './hackernews.js';
import { LocalProvider } from './local.js';
import { OpenAlexProvider } from './openalex.js';
import { PubmedProvider } from './pubmed.js';
import { SearxngProvider } from './searxng.js';
import { SemanticScholarProvider } from './semanticscholar.js';
import { TavilyProvider } from './tavily.js';
import { WikipediaProvider } from './wikipedia.js';
import { YoutubeProvider } from './youtube.js';

interface ProviderClass {
  readonly settings: ProviderSettings;
  new (config: ProviderConfig): Provider;
}

/** Every adapter the service knows, in the order `/v1/providers` lists them. */
export const PROVIDER_CLASSES: readonly ProviderClass[] = [
  LocalProvider,
  BraveProvider,
  TavilyProvider,
  SearxngProvider,
  ExaProvider,
  WikipediaProvider,
  HackerNewsProvider,
  ArxivProvider,
  PubmedProvider,
  SemanticScholarProvider,
  CrossrefProvider,
  OpenAlexProvider,
  GithubProvider,
  YoutubeProvider,
  FirecrawlProvider,
];

const DEFAULTS = { weight: 1, timeoutMs: 5000, concurrency: 8 };

export interface RegistryOptions {
  env: Record<string, string | undefined>;
  defaultTimeoutMs?: number;
  /** Settings for providers that are not driven by HTTP (the local index folder). */
  localIndexDir?: string;
}

function envPrefixes(settings: ProviderSettings): string[] {
  return [settings.name.toUpperCase().replace(/[^A-Z0-9]/g, '_'), ...(settings.envAliases ?? [])];
}

function firstSet(env: Record<string, string | undefined>, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

function numberSetting(
  env: Record<string, string | undefined>,
  names: string[],
  fallback: number,
  range: { min: number; max: number },
): number {
  const found = firstSet(env, names);
  if (!found) return fallback;
  const value = Number(found.value);
  if (!Number.isFinite(value) || value < range.min || value > range.max) {
    throw new Error(`Invalid configuration: ${found.name} must be a number from ${range.min} to ${range.max}, got "${found.value}"`);
  }
  return value;
}

/** Resolves one provider's configuration from its declared settings and the environment. */
export function resolveProviderConfig(settings: ProviderSettings, options: RegistryOptions): ProviderConfig {
  const { env } = options;
  const prefixes = envPrefixes(settings);
  const withSuffix = (suffix: string): string[] => prefixes.map((prefix) => `${prefix}_${suffix}`);
  const baseUrlNames = [...withSuffix('BASE_URL'), ...(settings.baseUrlEnv ? [settings.baseUrlEnv] : [])];
  const credentials: Record<string, string | undefined> = {};
  for (const credential of settings.credentials) credentials[credential.env] = env[credential.env]?.trim() || undefined;
  const baseUrl = firstSet(env, baseUrlNames)?.value;
  // A provider with no public origin (SearXNG) is configured by whichever of its base URL variables is set.
  if (settings.baseUrlEnv && baseUrl) credentials[settings.baseUrlEnv] = baseUrl;
  return {
    baseUrl: baseUrl ?? settings.baseUrl,
    credentials,
    weight: numberSetting(env, withSuffix('WEIGHT'), settings.weight ?? DEFAULTS.weight, { min: 0, max: 100 }),
    timeoutMs: numberSetting(
      env,
      withSuffix('TIMEOUT_MS'),
      settings.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULTS.timeoutMs,
      { min: 100, max: 60_000 },
    ),
    concurrency: numberSetting(env, withSuffix('CONCURRENCY'), settings.concurrency ?? DEFAULTS.concurrency, { min: 1, max: 256 }),
    rateLimit: resolveRateLimit(env, withSuffix('RATE_LIMIT'), settings.rateLimit, credentials),
  };
}

/** Builds every provider from the environment; a provider missing a required setting is built too and reports itself not configured. */
export function createProviders(options: RegistryOptions): Provider[] {
  return PROVIDER_CLASSES.map((ProviderType) => {
    const config = resolveProviderConfig(ProviderType.settings, options);
    if (ProviderType === (LocalProvider as ProviderClass) && options.localIndexDir) {
      config.credentials.LOCAL_INDEX_DIR = options.localIndexDir;
    }
    return new ProviderType(config);
  });
}

/** Every configured secret value, so logs and messages can redact them wherever they appear. */
export function secretValues(providers: Provider[]): string[] {
  return providers.flatMap((provider) =>
    provider.settings.credentials
      .filter((credential) => credential.secret)
      .map((credential) => provider.config.credentials[credential.env])
      .filter((value): value is string => typeof value === 'string' && value.length >= 4),
  );
}
