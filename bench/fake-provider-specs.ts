import type { SearchQuery } from '../src/domain/query.js';
import type { Provider, ProviderSettings } from '../src/providers/provider.js';
import { builtInName, readProviderConfig, variablePrefixes } from '../src/providers/provider-config.js';
import { PROVIDER_CLASSES } from '../src/providers/registry.js';

/**
 * What the benchmark's fake providers answer. Only the answer's shape is written here; which provider it
 * plays, the path its adapter requests and the variables that point the adapter at the fake all come from
 * the registry (each adapter's declared settings), so they cannot drift from it
 * (test/bench/fake-provider-specs.test.ts holds each body to its adapter's parser).
 */

export interface FakeResult {
  title: string;
  url: string;
  snippet: string;
}

export interface FakeProviderSpec {
  /** A built-in provider instance of the registry. */
  name: string;
  latencyMs: number;
  /** The upstream body for one query, in the provider's own shape. */
  body(query: string, results: FakeResult[]): unknown;
}

/** The bench measures the service, not the per-provider concurrency limit (default 32 in flight, wikipedia 8). */
const BENCH_CONCURRENCY = '64';

export function settingsOf(name: string): ProviderSettings {
  const found = PROVIDER_CLASSES.find((ProviderType) => builtInName(ProviderType.settings) === name);
  if (!found) throw new Error(`bench fake ${name}: no such provider in src/providers/registry.ts`);
  return found.settings;
}

/** The variables that point a provider at its fake: base URL, every required credential, limits out of the way. */
export function fakeEnv(name: string, origin: string): Record<string, string> {
  const settings = settingsOf(name);
  const [prefix] = variablePrefixes(settings);
  const env: Record<string, string> = {
    [settings.baseUrlEnv ?? `${prefix}_BASE_URL`]: origin,
    [`${prefix}_CONCURRENCY`]: BENCH_CONCURRENCY,
    // The fakes publish no limit; the published ones (Brave's 1/s) would measure the limiter, not the service.
    [`${prefix}_RATE_LIMIT`]: 'off',
  };
  for (const credential of settings.credentials) {
    if (credential.required && env[credential.env] === undefined) env[credential.env] = `bench-${credential.env.toLowerCase()}`;
  }
  return env;
}

/** An adapter of the named provider pointed at `origin`, as the service would build it. */
export function fakeAdapter(name: string, origin: string): Provider {
  const ProviderType = PROVIDER_CLASSES.find((candidate) => builtInName(candidate.settings) === name)!;
  return new ProviderType(readProviderConfig(ProviderType.settings, fakeEnv(name, origin), { timeoutMs: 3000 }));
}

/** The path the provider's adapter requests for a search (what its fake must answer). */
export function searchPathOf(name: string): string {
  const origin = 'http://fake.invalid';
  const query: SearchQuery = { kind: settingsOf(name).kind, text: 'path', limit: 10, filters: {} };
  return new URL(fakeAdapter(name, origin).buildRequest(query).url).pathname;
}

/** The fakes, each in its API's documented JSON shape (the shape src/providers/<name>.ts parses). */
export const FAKE_PROVIDER_SPECS: FakeProviderSpec[] = [
  {
    name: 'brave',
    latencyMs: 50,
    body: (query, results) => ({
      type: 'search',
      query: { original: query },
      web: {
        type: 'search',
        results: results.map((result) => ({ type: 'search_result', title: result.title, url: result.url, description: result.snippet })),
      },
    }),
  },
  {
    name: 'tavily',
    latencyMs: 80,
    body: (query, results) => ({
      query,
      results: results.map((result, index) => ({ title: result.title, url: result.url, content: result.snippet, score: 0.9 - index * 0.05 })),
      response_time: 0.08,
    }),
  },
  {
    name: 'exa',
    latencyMs: 120,
    body: (_query, results) => ({
      requestId: 'bench',
      resolvedSearchType: 'neural',
      results: results.map((result) => ({ id: result.url, url: result.url, title: result.title, highlights: [result.snippet] })),
    }),
  },
  {
    name: 'searxng',
    latencyMs: 30,
    body: (query, results) => ({
      query,
      number_of_results: 0,
      results: results.map((result) => ({ url: result.url, title: result.title, content: result.snippet, engine: 'bench', publishedDate: null })),
      answers: [],
      infoboxes: [],
      unresponsive_engines: [],
    }),
  },
  {
    name: 'wikipedia',
    latencyMs: 40,
    body: (_query, results) => ({
      batchcomplete: true,
      query: {
        searchinfo: { totalhits: results.length },
        search: results.map((result, index) => ({
          ns: 0,
          title: result.title,
          pageid: 1000 + index,
          snippet: `<span class="searchmatch">${result.snippet}</span>`,
          timestamp: '2024-05-01T12:00:00Z',
        })),
      },
    }),
  },
];

const RESULTS_PER_QUERY = 10;
/** The first few results of every provider are the same pages (spelled differently), so merging has work to do. */
const SHARED_RESULTS = 4;

export function resultsFor(provider: string, query: string): FakeResult[] {
  const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'empty';
  return Array.from({ length: RESULTS_PER_QUERY }, (_, index) => {
    const shared = index < SHARED_RESULTS;
    const url = shared
      ? `https://${index % 2 === 0 ? 'www.' : ''}shared.example.org/${slug}/${index}?utm_source=${provider}`
      : `https://${provider}.example.com/${slug}/${index}`;
    return {
      title: `${shared ? 'Shared' : provider} result ${index + 1} for ${query}`,
      url,
      snippet: `What ${provider} says about ${query}, item ${index + 1}: a sentence or two of page text.`,
    };
  });
}
