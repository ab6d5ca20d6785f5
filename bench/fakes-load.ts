import autocannon from 'autocannon';
import { startFakesAndService } from './child-process.js';
import type { FakeProvider } from './fake-providers.js';
import { format, median, printTable } from './report.js';

/**
 * `npm run bench -- --fakes` (and `npm run bench` when ../shared/bench is absent): the service under load
 * against fake providers with set latencies (bench/fake-providers.ts). Three processes (fakes, service, this
 * load generator) so that none takes event-loop time from another. About 20 s.
 */

const CONNECTIONS = 20;
const WARM_UP_SECONDS = 2;
const LOAD_SECONDS = 10;
const REQUEST_TIMEOUT_MS = 3000;

interface Outcome {
  provider: string;
  status: string;
  count: number;
  latency_ms: number;
}

interface SearchAnswer {
  providers: Outcome[];
  results: unknown[];
  took_ms: number;
}

async function search(origin: string, path: string): Promise<SearchAnswer> {
  const response = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as SearchAnswer;
}

/** One search through every web provider: which fakes the adapters really understand (a stub would not be ok). */
async function checkProviders(origin: string, fakes: FakeProvider[]): Promise<FakeProvider[]> {
  const answer = await search(origin, `/v1/search/web?q=provider+check&timeout_ms=${REQUEST_TIMEOUT_MS}`);
  const byName = new Map(answer.providers.map((outcome) => [outcome.provider, outcome]));
  printTable(
    'Providers (fake upstreams on loopback, fixed latency; "local" is the in-process index over docs/)',
    ['provider', 'upstream latency', 'status', 'results', 'latency_ms (first, cold)'],
    answer.providers.map((outcome) => {
      const fake = fakes.find((candidate) => candidate.name === outcome.provider);
      return [outcome.provider, fake ? `${fake.latencyMs} ms` : '—', outcome.status, outcome.count, outcome.latency_ms];
    }),
  );
  const working = fakes.filter((fake) => byName.get(fake.name)?.status === 'ok');
  for (const fake of fakes.filter((candidate) => !working.includes(candidate))) {
    console.warn(`warning: ${fake.name} did not answer ok against its fake (${JSON.stringify(byName.get(fake.name))}); left out of the load`);
  }
  const withoutFake = answer.providers.filter((outcome) => outcome.provider !== 'local' && !fakes.some((fake) => fake.name === outcome.provider));
  if (withoutFake.length > 0) console.log(`\nno fake upstream, left out of the load: ${withoutFake.map((outcome) => outcome.provider).join(', ')}`);
  if (working.length === 0) throw new Error('no provider answered ok against its fake upstream');
  return working;
}

interface LoadFigures {
  result: autocannon.Result;
  responses: number;
  allOk: number;
  inServiceOverheadMs: number;
  /** The first answer that was not a 200, to say why figures are not to be trusted. */
  firstFailure?: string;
}

async function drive(origin: string, providers: string[], seconds: number, firstQuery: number): Promise<LoadFigures> {
  let query = firstQuery;
  let responses = 0;
  let allOk = 0;
  const inService: number[] = [];
  let firstFailure: string | undefined;
  const result = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        // Every request a new query: no cache (TTL 0) and no shared fan-out, so each one reaches every provider.
        setupRequest: (request) => {
          query += 1;
          return { ...request, path: `/v1/search/web?q=provider+search+${query}&providers=${providers.join(',')}&timeout_ms=${REQUEST_TIMEOUT_MS}` };
        },
        onResponse: (status, body) => {
          if (status !== 200) {
            firstFailure ??= `HTTP ${status}: ${body.slice(0, 300)}`;
            return;
          }
          responses += 1;
          const answer = JSON.parse(body) as SearchAnswer;
          if (answer.providers.every((outcome) => outcome.status === 'ok')) allOk += 1;
          const slowest = Math.max(...answer.providers.map((outcome) => outcome.latency_ms));
          inService.push(answer.took_ms - slowest);
        },
      },
    ],
  });
  return { result, responses, allOk, inServiceOverheadMs: median(inService), firstFailure };
}

function printLoad(figures: LoadFigures, working: FakeProvider[]): void {
  const { result } = figures;
  const slowest = Math.max(...working.map((fake) => fake.latencyMs));
  const slowestName = working.find((fake) => fake.latencyMs === slowest)!.name;
  printTable(
    `Load: GET /v1/search/web, ${CONNECTIONS} connections, ${LOAD_SECONDS} s, a new query every request, cache off (CACHE_TTL_SECONDS=0)`,
    ['figure', 'value'],
    [
      ['requests/s (mean)', format(result.requests.average)],
      ['requests answered', `${result.requests.total} (${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts)`],
      ['answers with every provider ok', `${figures.allOk} of ${figures.responses}`],
      ['latency p50', `${result.latency.p50} ms`],
      ['latency p90', `${result.latency.p90} ms`],
      ['latency p99', `${result.latency.p99} ms`],
      ['latency max', `${result.latency.max} ms`],
      ['slowest provider', `${slowestName}, ${slowest} ms`],
      ['overhead p50 over the slowest provider', `${format(result.latency.p50 - slowest)} ms`],
      ['overhead p99 over the slowest provider', `${format(result.latency.p99 - slowest)} ms`],
      ['in-service overhead, median (took_ms − slowest latency_ms)', `${format(figures.inServiceOverheadMs)} ms`],
    ],
  );
}

/** Runs the load test; false when some answers were not 200 (the figures then measure the failure, not the service). */
export async function runLoad(): Promise<boolean> {
  const { fakes, origin, children } = await startFakesAndService({ LOG_LEVEL: 'silent', CACHE_TTL_SECONDS: '0' });
  try {
    const working = await checkProviders(origin, fakes);
    const providers = ['local', ...working.map((fake) => fake.name)];
    // Warm-up: JIT, keep-alive sockets to every fake, the local index.
    await drive(origin, providers, WARM_UP_SECONDS, 1_000_000);
    const figures = await drive(origin, providers, LOAD_SECONDS, 0);
    printLoad(figures, working);
    if (figures.result.non2xx > 0 || figures.result.errors > 0) {
      console.error(`\nerror: ${figures.result.non2xx} non-2xx answers and ${figures.result.errors} errors; first: ${figures.firstFailure ?? 'none'}`);
      return false;
    }
    return true;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
