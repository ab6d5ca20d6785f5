import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveAsChild } from './child-process.js';

/**
 * Loopback servers that play the web providers with a fixed latency, each answering in its API's documented
 * JSON shape (the shapes src/providers/<name>.ts parses). Run as a child process of bench/run.ts.
 */

interface FakeResult {
  title: string;
  url: string;
  snippet: string;
}

export interface FakeProviderSpec {
  name: string;
  latencyMs: number;
  /** The path the adapter appends to its base URL. */
  path: string;
  /** The environment that points the adapter at the fake (base URL, key, concurrency). */
  env(origin: string): Record<string, string>;
  /** The upstream body for one query, in the provider's own shape. */
  body(query: string, results: FakeResult[]): unknown;
}

export interface FakeProvider {
  name: string;
  latencyMs: number;
  origin: string;
  env: Record<string, string>;
}

/**
 * The bench measures the service, not the per-provider limiter that protects real upstreams (default 8 in
 * flight): with 20 connections and distinct queries the default would queue requests behind it.
 */
const BENCH_CONCURRENCY = '64';

const withKey = (prefix: string, origin: string): Record<string, string> => ({
  [`${prefix}_BASE_URL`]: origin,
  [`${prefix}_API_KEY`]: `bench-${prefix.toLowerCase()}-key`,
  [`${prefix}_CONCURRENCY`]: BENCH_CONCURRENCY,
  // The fakes publish no limit; the published ones (Brave's 1/s) would measure the limiter, not the service.
  [`${prefix}_RATE_LIMIT`]: 'off',
});

export const FAKE_PROVIDER_SPECS: FakeProviderSpec[] = [
  {
    name: 'brave',
    latencyMs: 50,
    path: '/res/v1/web/search',
    env: (origin) => withKey('BRAVE', origin),
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
    path: '/search',
    env: (origin) => withKey('TAVILY', origin),
    body: (query, results) => ({
      query,
      results: results.map((result, index) => ({ title: result.title, url: result.url, content: result.snippet, score: 0.9 - index * 0.05 })),
      response_time: 0.08,
    }),
  },
  {
    name: 'exa',
    latencyMs: 120,
    path: '/search',
    env: (origin) => withKey('EXA', origin),
    body: (_query, results) => ({
      requestId: 'bench',
      resolvedSearchType: 'neural',
      results: results.map((result) => ({ id: result.url, url: result.url, title: result.title, highlights: [result.snippet] })),
    }),
  },
  {
    name: 'searxng',
    latencyMs: 30,
    path: '/search',
    env: (origin) => ({ SEARXNG_URL: origin, SEARXNG_CONCURRENCY: BENCH_CONCURRENCY }),
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
    path: '/w/api.php',
    env: (origin) => ({ WIKIPEDIA_BASE_URL: origin, WIKIPEDIA_CONCURRENCY: BENCH_CONCURRENCY }),
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

function resultsFor(provider: string, query: string): FakeResult[] {
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

async function readQuery(request: IncomingMessage): Promise<string> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (request.method === 'GET') return url.searchParams.get('q') ?? url.searchParams.get('srsearch') ?? '';
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query?: unknown };
  return typeof body.query === 'string' ? body.query : '';
}

async function startFake(spec: FakeProviderSpec): Promise<{ provider: FakeProvider; server: Server }> {
  const server = createServer((request, response) => {
    readQuery(request).then(
      (query) => {
        const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
        if (path !== spec.path) {
          response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such path"}');
          return;
        }
        const body = JSON.stringify(spec.body(query, resultsFor(spec.name, query)));
        setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(body), spec.latencyMs);
      },
      () => response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad request body"}'),
    );
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { provider: { name: spec.name, latencyMs: spec.latencyMs, origin, env: spec.env(origin) }, server };
}

serveAsChild<void, FakeProvider[]>(async () => {
  const started = await Promise.all(FAKE_PROVIDER_SPECS.map(startFake));
  return {
    payload: started.map(({ provider }) => provider),
    teardown: async () => {
      for (const { server } of started) {
        server.closeAllConnections();
        server.close();
      }
    },
  };
});
