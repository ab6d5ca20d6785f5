import type { Provider, ProviderConfig, ProviderSettings } from './provider.js';
import { builtInName } from './provider-config.js';
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
import { YoutubeTranscriptProvider } from './youtube-transcript.js';

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

/** Every definition a PROVIDERS_FILE entry can `use`; each also has its built-in instance, named like it (or its builtInInstance). */
export const PROVIDER_DEFINITIONS: readonly ProviderSettings[] = PROVIDER_CLASSES.map((ProviderType) => ProviderType.settings);

/**
 * The captions source: built by the video operations, not listed with the search providers, but
 * configured like them (YOUTUBE_WEB_BASE_URL, YOUTUBE_WEB_TIMEOUT_MS). Its name is taken: no instance may use it.
 */
const SIDE_PROVIDER_SETTINGS: readonly ProviderSettings[] = [YoutubeTranscriptProvider.settings];

/** Names no PROVIDERS_FILE entry may take, because something other than a search instance already has them. */
export const RESERVED_INSTANCE_NAMES: readonly string[] = SIDE_PROVIDER_SETTINGS.map(builtInName);

/** The declared settings of every provider the configuration covers, keyed later by built-in instance name. */
export const CONFIGURED_PROVIDER_SETTINGS: readonly ProviderSettings[] = [...PROVIDER_DEFINITIONS, ...SIDE_PROVIDER_SETTINGS];

/** The validated configuration of every instance (built-in and from PROVIDERS_FILE), by instance name: AppConfig's `providers` section. */
export type ProviderConfigs = Readonly<Record<string, ProviderConfig>>;

/** A built-in instance's validated configuration from the `providers` section of the configuration. */
export function resolveProviderConfig(settings: ProviderSettings, providers: ProviderConfigs): ProviderConfig {
  const name = builtInName(settings);
  const config = providers[name];
  if (!config) throw new Error(`no configuration for provider ${name}: is it in CONFIGURED_PROVIDER_SETTINGS?`);
  return config;
}

const CLASS_BY_DEFINITION = new Map(PROVIDER_CLASSES.map((ProviderType) => [ProviderType.settings.name, ProviderType]));

/**
 * Builds every search instance from its validated configuration, in configuration order (built-in instances
 * first, then PROVIDERS_FILE additions); one missing a required setting is built too and reports itself not
 * configured. Side providers (captions) are built by their operations.
 */
export function createProviders(providers: ProviderConfigs): Provider[] {
  return Object.values(providers).flatMap((config) => {
    const ProviderType = CLASS_BY_DEFINITION.get(config.definition);
    return ProviderType ? [new ProviderType(config)] : [];
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
