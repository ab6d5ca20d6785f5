import autocannon from 'autocannon';
import { startChild, startFakesAndService } from './child-process.js';
import { format, printTable } from './report.js';

/**
 * `npm run bench`, cached answers: the same search repeated (every answer after the first comes from the
 * answer cache) against a bare Fastify route returning the same answer, stored (bench/bare-route.ts).
 * The goal: at least 0.8× the bare route's requests per second.
 */

const CONNECTIONS = 16;
const WARM_UP_SECONDS = 2;
const LOAD_SECONDS = 8;
const ROUTE = '/v1/search/web';

async function requestsPerSecond(origin: string, path: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url: `${origin}${path}`, connections: CONNECTIONS, duration: seconds });
}

export interface CachedFigures {
  fedsearch: number;
  bare: number;
  bodyBytes: number;
}

export async function runCachedAnswers(): Promise<CachedFigures> {
  const { fakes, origin, children } = await startFakesAndService({ LOG_LEVEL: 'warn' });
  try {
    const path = `${ROUTE}?q=cached+answer&providers=${fakes.map((fake) => fake.name).join(',')}`;
    const first = await fetch(`${origin}${path}`);
    if (!first.ok) throw new Error(`GET ${path}: HTTP ${first.status}`);
    const body = await first.text();
    const bare = await startChild<{ origin: string }>(new URL('./bare-route.ts', import.meta.url), { path: ROUTE, answer: JSON.parse(body) });
    children.push(bare);

    await requestsPerSecond(origin, path, WARM_UP_SECONDS);
    const cached = await requestsPerSecond(origin, path, LOAD_SECONDS);
    await requestsPerSecond(bare.payload.origin, path, WARM_UP_SECONDS);
    const reference = await requestsPerSecond(bare.payload.origin, path, LOAD_SECONDS);
    if (cached.non2xx > 0 || cached.errors > 0) throw new Error(`cached answers: ${cached.non2xx} non-2xx, ${cached.errors} errors`);

    const figures = { fedsearch: cached.requests.average, bare: reference.requests.average, bodyBytes: Buffer.byteLength(body) };
    printTable(
      `Cached answers: the same GET ${ROUTE} repeated, ${CONNECTIONS} connections, ${LOAD_SECONDS} s each, answer of ${figures.bodyBytes.toLocaleString('en-US')} bytes`,
      ['server', 'requests/s', 'latency p50', 'latency p99'],
      [
        ['fedsearch (answer cache)', format(figures.fedsearch), `${cached.latency.p50} ms`, `${cached.latency.p99} ms`],
        ['bare Fastify route, stored answer', format(figures.bare), `${reference.latency.p50} ms`, `${reference.latency.p99} ms`],
      ],
    );
    console.log(`\ncached / bare: ${format(figures.fedsearch / figures.bare, 2)} (goal ≥ 0.80)`);
    return figures;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
