/**
 * `npm run soak`: minutes of load on loopback against the real app, with upstreams that misbehave the way real
 * ones do. Brave and Exa answer; Tavily fails a third of the time (HTTP 500 or a reset connection); SearXNG
 * hangs forever; every other HTTP provider points at the same fake and gets a fast 404. Prints requests,
 * status counts, p50/p99 latency and heap/RSS at start and end. Exits 1 on any 5xx or unanswered request.
 *
 *   SOAK_SECONDS=60 npm run soak      (default 180; 10–1800)
 *   SOAK_CONNECTIONS=16               (default 16; 1–256)
 */
import autocannon from 'autocannon';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { builtInName } from '../src/providers/provider-config.js';
import { PROVIDER_CLASSES } from '../src/providers/registry.js';

const SOAK_SECONDS = boundedInteger('SOAK_SECONDS', 180, 10, 1800);
const CONNECTIONS = boundedInteger('SOAK_CONNECTIONS', 16, 1, 256);
const WARM_UP_SECONDS = 5;
const PROVIDER_TIMEOUT_MS = 800;
const CACHE_TTL_SECONDS = 5;
/** Memory is sampled (after a forced GC) this many times during the run, to show a trend and not two points. */
const CHECKPOINTS = 6;

function boundedInteger(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

// ---- fake upstreams ------------------------------------------------------------------------------------

const WORDS = [
  'rust', 'async', 'tokio', 'fusion', 'ranking', 'retrieval', 'vector', 'index', 'cache', 'redis', 'search',
  'engine', 'graph', 'neural', 'transformer', 'attention', 'protein', 'folding', 'climate', 'model', 'compiler',
  'parser', 'kernel', 'scheduler', 'database', 'consensus', 'raft', 'paxos', 'crdt', 'stream', 'kafka', 'query',
  'planner', 'optimizer', 'gradient', 'descent', 'sparse', 'dense', 'embedding', 'tokenizer',
];

function resultsFor(provider: string, query: string, count = 8): Array<{ title: string; url: string; snippet: string }> {
  const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'empty';
  return Array.from({ length: count }, (_, index) => ({
    // Half the pages are shared between providers, so merging and deduplication have work to do.
    url: index < count / 2 ? `https://shared.example.org/${slug}/${index}` : `https://${provider}.example.com/${slug}/${index}`,
    title: `${provider} ${index + 1}: ${query}`,
    snippet: `What ${provider} says about ${query}, item ${index + 1}.`,
  }));
}

async function readQuery(request: IncomingMessage): Promise<string> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (request.method !== 'POST') return url.searchParams.get('q') ?? '';
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { query?: unknown };
  return typeof body.query === 'string' ? body.query : '';
}

interface UpstreamCounts {
  answered: number;
  failed500: number;
  reset: number;
  hanging: number;
  notFound: number;
}

function startFakeUpstreams(): Promise<{ origin: string; counts: UpstreamCounts; stop(): Promise<void> }> {
  const counts: UpstreamCounts = { answered: 0, failed500: 0, reset: 0, hanging: 0, notFound: 0 };
  const hanging = new Set<ServerResponse>();
  let flakyCalls = 0;

  const answer = (response: ServerResponse, body: unknown, delayMs: number): void => {
    setTimeout(() => {
      if (response.destroyed) return;
      counts.answered += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }, delayMs);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const query = await readQuery(request);
    const jitter = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min));
    switch (path) {
      case '/brave/res/v1/web/search': {
        const results = resultsFor('brave', query).map((result) => ({ ...result, description: result.snippet }));
        answer(response, { type: 'search', web: { type: 'search', results } }, jitter(10, 60));
        return;
      }
      case '/exa/search': {
        const results = resultsFor('exa', query).map((result) => ({ id: result.url, url: result.url, title: result.title, highlights: [result.snippet] }));
        answer(response, { requestId: 'soak', results }, jitter(20, 120));
        return;
      }
      case '/tavily/search': {
        // Deterministic thirds: every third call fails, alternating a 500 and a reset connection.
        flakyCalls += 1;
        if (flakyCalls % 3 === 0) {
          if (flakyCalls % 6 === 0) {
            counts.reset += 1;
            request.socket.destroy();
          } else {
            counts.failed500 += 1;
            response.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":{"error":"internal error"}}');
          }
          return;
        }
        const results = resultsFor('tavily', query).map((result) => ({ title: result.title, url: result.url, content: result.snippet }));
        answer(response, { query, results }, jitter(20, 90));
        return;
      }
      case '/searxng/search':
        counts.hanging += 1;
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return;
      default:
        counts.notFound += 1;
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => response.writeHead(400).end());
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        origin,
        counts,
        stop: async () => {
          for (const response of hanging) response.destroy();
          server.closeAllConnections();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}

/** Every HTTP provider at `<origin>/<name>`, so nothing leaves the machine; keys for the four web APIs. */
function soakEnvironment(origin: string): Record<string, string> {
  const env: Record<string, string> = {
    LOG_LEVEL: 'warn',
    DEFAULT_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
    CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS),
    // One client on loopback: the per-IP rate limit would answer nearly everything with 429 and test nothing.
    RATE_LIMIT_MAX: '1000000000',
    BRAVE_API_KEY: 'soak-brave-key',
    TAVILY_API_KEY: 'soak-tavily-key',
    EXA_API_KEY: 'soak-exa-key',
  };
  for (const ProviderType of PROVIDER_CLASSES) {
    const { baseUrlEnv } = ProviderType.settings;
    const name = builtInName(ProviderType.settings);
    if (name === 'local') continue;
    env[`${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`] = `${origin}/${name}`;
    if (baseUrlEnv) env[baseUrlEnv] = `${origin}/${name}`;
  }
  return env;
}

// ---- load ----------------------------------------------------------------------------------------------

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** A fifth of queries come from a small hot set (cache hits), the rest are fresh pairs of words. */
const HOT_QUERIES = Array.from({ length: 20 }, (_, index) => `${WORDS[index]} ${WORDS[index + 20]}`);
function randomQuery(): string {
  return Math.random() < 0.2 ? pick(HOT_QUERIES) : `${pick(WORDS)} ${pick(WORDS)} ${Math.floor(Math.random() * 50)}`;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** The request mix: mostly GET web searches, some POSTs, papers, operations, and requests a client got wrong. */
function nextRequest(request: autocannon.Request): autocannon.Request {
  const roll = Math.random();
  const query = randomQuery();
  if (roll < 0.65) return { ...request, method: 'GET', path: `/v1/search/web?q=${encodeURIComponent(query)}&limit=10`, headers: {}, body: undefined };
  if (roll < 0.75) return { ...request, method: 'POST', path: '/v1/search/web', headers: JSON_HEADERS, body: JSON.stringify({ q: query, limit: 5 }) };
  if (roll < 0.85) return { ...request, method: 'GET', path: `/v1/search/papers?q=${encodeURIComponent(query)}`, headers: {}, body: undefined };
  if (roll < 0.95) {
    return { ...request, method: 'POST', path: '/v1/ops/web_search', headers: JSON_HEADERS, body: JSON.stringify({ query, max_results: 5 }) };
  }
  return { ...request, method: 'GET', path: pick(['/v1/search/web?q=', '/v1/search/web?q=a&limit=99', '/v1/search/web?q=a&colour=red']), headers: {}, body: undefined };
}

interface MemorySample {
  label: string;
  heapUsedMb: number;
  rssMb: number;
}

function sampleMemory(label: string): MemorySample {
  // Two passes: the first may only promote what the second can then free.
  globalThis.gc?.();
  globalThis.gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  return { label, heapUsedMb: heapUsed / 1024 / 1024, rssMb: rss / 1024 / 1024 };
}

function runLoad(origin: string, seconds: number, onTick?: (elapsedSeconds: number) => void): Promise<autocannon.Result> {
  let elapsed = 0;
  const ticker = onTick ? setInterval(() => onTick((elapsed += 1)), 1000) : undefined;
  return new Promise((resolve, reject) => {
    autocannon(
      { url: origin, connections: CONNECTIONS, duration: seconds, timeout: 10, requests: [{ setupRequest: nextRequest }] },
      (error, result) => {
        if (ticker) clearInterval(ticker);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(result);
      },
    );
  });
}

// ---- main ----------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  if (typeof globalThis.gc !== 'function') {
    console.warn('note: run with NODE_OPTIONS=--expose-gc (npm run soak does) for memory figures after a full GC');
  }
  const upstream = await startFakeUpstreams();
  const logLevels = new Map<number, number>();
  const errorLines: string[] = [];
  const app = await buildApp(loadConfig(soakEnvironment(upstream.origin)), {
    logStream: {
      write: (line) => {
        const level = Number(/"level":(\d+)/.exec(line)?.[1] ?? 0);
        logLevels.set(level, (logLevels.get(level) ?? 0) + 1);
        if (level >= 50 && errorLines.length < 3) errorLines.push(line.trim().slice(0, 600));
      },
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  try {
    console.log(`soak: ${SOAK_SECONDS} s, ${CONNECTIONS} connections, provider timeout ${PROVIDER_TIMEOUT_MS} ms, cache TTL ${CACHE_TTL_SECONDS} s`);
    console.log(`      Node ${process.version}, warm-up ${WARM_UP_SECONDS} s excluded from the figures`);
    await runLoad(origin, WARM_UP_SECONDS);
    const samples: MemorySample[] = [sampleMemory('start')];
    const every = Math.max(1, Math.floor(SOAK_SECONDS / CHECKPOINTS));
    const result = await runLoad(origin, SOAK_SECONDS, (elapsed) => {
      if (elapsed % every === 0 && elapsed < SOAK_SECONDS) {
        const sample = sampleMemory(`${elapsed} s`);
        samples.push(sample);
        console.log(`  ${sample.label.padStart(6)}  heap ${sample.heapUsedMb.toFixed(1)} MB  rss ${sample.rssMb.toFixed(1)} MB`);
      }
    });
    samples.push(sampleMemory('end'));
    const code = report(result, samples, upstream.counts, logLevels);
    for (const line of errorLines) console.log(`  error line: ${line}`);
    return code;
  } finally {
    await app.close();
    await upstream.stop();
  }
}

function report(result: autocannon.Result, samples: MemorySample[], counts: UpstreamCounts, logLevels: Map<number, number>): number {
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([status, { count }]) => [Number(status), count ?? 0] as const)
    .sort(([a], [b]) => a - b);
  const serverErrors = statuses.filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
  const start = samples[0]!;
  const end = samples.at(-1)!;
  const lines = [
    '',
    `requests        ${result.requests.total} (${result.requests.average.toFixed(1)}/s average)`,
    `status codes    ${statuses.map(([status, count]) => `${status}: ${count}`).join(', ')}`,
    `5xx             ${serverErrors}`,
    `errors          ${result.errors} (timeouts ${result.timeouts})`,
    `latency         p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    `heap used       start ${start.heapUsedMb.toFixed(1)} MB, end ${end.heapUsedMb.toFixed(1)} MB (${signed(end.heapUsedMb - start.heapUsedMb)} MB)`,
    `rss             start ${start.rssMb.toFixed(1)} MB, end ${end.rssMb.toFixed(1)} MB (${signed(end.rssMb - start.rssMb)} MB)`,
    `heap over time  ${samples.map((sample) => `${sample.label} ${sample.heapUsedMb.toFixed(1)}`).join(' · ')} MB`,
    `upstream        answered ${counts.answered}, 500s ${counts.failed500}, resets ${counts.reset}, hung ${counts.hanging}, 404s ${counts.notFound}`,
    `service log     ${[...logLevels.entries()].sort(([a], [b]) => a - b).map(([level, count]) => `level ${level}: ${count}`).join(', ') || 'no lines at warn or above'}`,
  ];
  console.log(lines.join('\n'));
  const failed = serverErrors > 0 || result.errors > 0 || result.timeouts > 0;
  console.log(failed ? '\nFAIL: 5xx answers or unanswered requests' : '\nOK: no 5xx, every request answered');
  return failed ? 1 : 0;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
