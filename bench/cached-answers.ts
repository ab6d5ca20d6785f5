import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { startChild, startFakesAndService } from './child-process.js';
import { format, median, printTable } from './report.js';

/**
 * `npm run bench`, cached answers: the same search repeated (every answer after the first comes from the
 * answer cache) against a bare Fastify route returning the same answer, stored (bench/bare-route.ts).
 * The goal: at least 0.8× the bare route's requests per second.
 */

const CONNECTIONS = 16;
const WARM_UP_SECONDS = 2;
/** Short rounds taken in turn, so that a busier moment of a shared machine falls on both servers alike. */
const ROUNDS = 3;
const ROUND_SECONDS = 4;
const ROUTE = '/v1/search/web';

/** A process's user + system CPU time in ms (Linux /proc; undefined elsewhere). */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const CLOCK_TICKS = 100;

interface Round {
  rps: number;
  p50: number;
  p99: number;
  /** CPU ms of the server process per answered request. */
  cpuPerRequest: number | undefined;
}

async function round(origin: string, path: string, pid: number | undefined, seconds: number): Promise<Round> {
  const before = cpuMs(pid);
  const result = await autocannon({ url: `${origin}${path}`, connections: CONNECTIONS, duration: seconds });
  const after = cpuMs(pid);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`cached answers: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const answered = result.requests.total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequest: before === undefined || after === undefined || answered === 0 ? undefined : (after - before) / answered,
  };
}

function summary(rounds: Round[]): Round {
  const cpu = rounds.map((entry) => entry.cpuPerRequest).filter((value): value is number => value !== undefined);
  return {
    rps: median(rounds.map((entry) => entry.rps)),
    p50: median(rounds.map((entry) => entry.p50)),
    p99: median(rounds.map((entry) => entry.p99)),
    cpuPerRequest: cpu.length === rounds.length ? median(cpu) : undefined,
  };
}

export interface CachedFigures {
  fedsearch: number;
  bare: number;
  bodyBytes: number;
}

export async function runCachedAnswers(): Promise<CachedFigures> {
  const { fakes, origin, children } = await startFakesAndService({ LOG_LEVEL: 'warn' });
  // startFakesAndService starts the service last.
  const service = children.at(-1)!;
  try {
    const path = `${ROUTE}?q=cached+answer&providers=${fakes.map((fake) => fake.name).join(',')}`;
    const first = await fetch(`${origin}${path}`);
    if (!first.ok) throw new Error(`GET ${path}: HTTP ${first.status}`);
    const body = await first.text();
    const bare = await startChild<{ origin: string }>(new URL('./bare-route.ts', import.meta.url), { path: ROUTE, answer: JSON.parse(body) });
    children.push(bare);

    await round(origin, path, service.pid, WARM_UP_SECONDS);
    await round(bare.payload.origin, path, bare.pid, WARM_UP_SECONDS);
    const cachedRounds: Round[] = [];
    const bareRounds: Round[] = [];
    for (let index = 0; index < ROUNDS; index += 1) {
      cachedRounds.push(await round(origin, path, service.pid, ROUND_SECONDS));
      bareRounds.push(await round(bare.payload.origin, path, bare.pid, ROUND_SECONDS));
    }
    const cached = summary(cachedRounds);
    const reference = summary(bareRounds);
    const cpu = (entry: Round): string => (entry.cpuPerRequest === undefined ? 'n/a' : `${format(entry.cpuPerRequest * 1000, 0)} µs`);

    const figures = { fedsearch: cached.rps, bare: reference.rps, bodyBytes: Buffer.byteLength(body) };
    printTable(
      `Cached answers: the same GET ${ROUTE} repeated, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s each taken in turn (medians), answer of ${figures.bodyBytes.toLocaleString('en-US')} bytes`,
      ['server', 'requests/s', 'CPU per request', 'latency p50', 'latency p99'],
      [
        ['fedsearch (answer cache)', format(cached.rps), cpu(cached), `${cached.p50} ms`, `${cached.p99} ms`],
        ['bare Fastify route, stored answer', format(reference.rps), cpu(reference), `${reference.p50} ms`, `${reference.p99} ms`],
      ],
    );
    console.log(`\ncached / bare: ${format(cached.rps / reference.rps, 2)} (goal ≥ 0.80)`);
    if (cached.cpuPerRequest !== undefined && reference.cpuPerRequest !== undefined) {
      // The load generator shares the machine; CPU per request is what each server itself spends, whatever the client manages.
      console.log(`CPU per request, bare / cached: ${format(reference.cpuPerRequest / cached.cpuPerRequest, 2)} (the same measure of cost as a throughput ratio)`);
    }
    return figures;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
