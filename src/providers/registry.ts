import type { Provider, ProviderConfig, ProviderSettings } from './provider.js';
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
  // The captions source: listed and configured like the others, but it does not search (searchable: false).
  YoutubeTranscriptProvider,
  FirecrawlProvider,
];

/** The declared settings of every provider the configuration covers, keyed later by provider name. */
export const CONFIGURED_PROVIDER_SETTINGS: readonly ProviderSettings[] = PROVIDER_CLASSES.map((ProviderType) => ProviderType.settings);

/** The validated configuration of every provider, by provider name (AppConfig's `providers` section). */
export type ProviderConfigs = Readonly<Record<string, ProviderConfig>>;

/** One provider's validated configuration from the `providers` section of the configuration. */
export function resolveProviderConfig(settings: ProviderSettings, providers: ProviderConfigs): ProviderConfig {
  const config = providers[settings.name];
  if (!config) throw new Error(`no configuration for provider ${settings.name}: is it in CONFIGURED_PROVIDER_SETTINGS?`);
  return config;
}

/** Builds every provider from its validated configuration; one missing a required setting is built too and reports itself not configured. */
export function createProviders(providers: ProviderConfigs): Provider[] {
  return PROVIDER_CLASSES.map((ProviderType) => new ProviderType(resolveProviderConfig(ProviderType.settings, providers)));
}
