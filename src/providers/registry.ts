import { AUTO_SELECTION } from '../domain/query.js';
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
  // The captions source: listed and configured like the others, but it does not search (searchable: false).
  YoutubeTranscriptProvider,
  FirecrawlProvider,
];

/** The declared settings of every provider the configuration covers, keyed later by built-in instance name. */
export const CONFIGURED_PROVIDER_SETTINGS: readonly ProviderSettings[] = PROVIDER_CLASSES.map((ProviderType) => ProviderType.settings);

/**
 * Every definition a PROVIDERS_FILE entry can `use`: the searching ones. Each also has its built-in instance,
 * named like it (or its builtInInstance).
 */
export const PROVIDER_DEFINITIONS: readonly ProviderSettings[] = CONFIGURED_PROVIDER_SETTINGS.filter((settings) => settings.searchable !== false);

/**
 * Names no PROVIDERS_FILE entry may take, each with what it already means: the built-in instances of sources that
 * do not search (captions), and `auto`, which providers= reads as a choice, so an instance of that name could never
 * be asked on its own.
 */
export const RESERVED_INSTANCE_NAMES: Readonly<Record<string, string>> = Object.fromEntries([
  ...CONFIGURED_PROVIDER_SETTINGS.filter((settings) => settings.searchable === false).map((settings) => [builtInName(settings), `the built-in ${settings.name} instance, which does not search`] as const),
  [AUTO_SELECTION, `providers=${AUTO_SELECTION} chooses providers by the query`],
]);

/** The validated configuration of every instance (built-in and from PROVIDERS_FILE), by instance name: AppConfig's `providers` section. */
export type ProviderConfigs = Readonly<Record<string, ProviderConfig>>;

const CLASS_BY_DEFINITION = new Map(PROVIDER_CLASSES.map((ProviderType) => [ProviderType.settings.name, ProviderType]));

/**
 * Builds every search instance from its validated configuration, in configuration order (built-in instances
 * first, then PROVIDERS_FILE additions); one missing a required setting is built too and reports itself not
 * configured.
 */
export function createProviders(providers: ProviderConfigs): Provider[] {
  return Object.values(providers).flatMap((config) => {
    const ProviderType = CLASS_BY_DEFINITION.get(config.definition);
    return ProviderType ? [new ProviderType(config)] : [];
  });
}
