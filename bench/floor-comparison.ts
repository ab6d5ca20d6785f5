import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { format, printTable } from './report.js';

/**
 * `npm run bench`, first part: fedsearch against the floor (a bare node:http server that asks the same four
 * mock upstreams with undici and answers; the least any federated search pays here) and, when installed,
 * searx, through ../shared/bench/side-by-side.py, in one run. Prints the tool's lines, the fedsearch/floor
 * ratios the performance goals are stated in, and each server's peak RSS per connection count.
 */

const CHECKOUT = fileURLToPath(new URL('..', import.meta.url));
/** The side-by-side tool sits beside the checkout, outside the repository. */
export const SHARED_BENCH = path.resolve(CHECKOUT, '..', 'shared', 'bench');
const SEARX_INSTALLED = '/usr/lib/python3/dist-packages/searx';
/** Where each system of the side-by-side tool listens (side-by-side.py). */
const PORTS: Record<string, number> = { fedsearch: 8090, floor: 8091, searx: 8888 };
export interface SideBySideRow {
  system: string;
  conns: number;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  cpu_ms_per_req: number;
  socket_errors: string;
}

export interface FloorComparison {
  rows: SideBySideRow[];
  /** Highest RSS seen per system and connection count, in MiB. */
  peakRssMiB: Map<string, number>;
}

export interface FloorOptions {
  conns: string;
  duration: number;
  /** Run ../shared/bench exactly as shipped, even when its wrk script repeats queries across threads. */
  asShipped?: boolean;
}

/** The shipped script's defect: a local shadows the global that `thread:set` writes. */
const SHADOWED_THREAD_ID = /^local thread_id = 0$/m;

/**
 * Where to run the side-by-side tool from: ../shared/bench itself, or a copy whose wrk script gives each wrk
 * thread its own queries. The shipped uniq.lua declares `local thread_id = 0`, so `thread:set("thread_id", …)`
 * sets a global its request function never reads; LuaJIT's random numbers start from the same seed in every
 * thread; so with two wrk threads (16 and 256 connections) every query is sent twice, once by each thread.
 * fedsearch answers identical searches in flight with one fan-out (engine/single-flight.ts) and the floor does
 * not, so fedsearch would be measured doing up to half the searches the floor does. The copy changes that one
 * line (the counter becomes the global that thread:set reaches); `--as-shipped` runs the tool unchanged.
 */
export function sideBySideDirectory(asShipped: boolean, shipped = SHARED_BENCH): string {
  const script = readFileSync(path.join(shipped, 'uniq.lua'), 'utf8');
  if (asShipped || !SHADOWED_THREAD_ID.test(script)) return shipped;
  const copy = path.join(mkdtempSync(path.join(os.tmpdir(), 'fedsearch-side-by-side-')), 'bench');
  cpSync(shipped, copy, { recursive: true });
  writeFileSync(path.join(copy, 'uniq.lua'), script.replace(SHADOWED_THREAD_ID, 'thread_id = 0'));
  console.log(
    `\nNote: ${path.join(shipped, 'uniq.lua')} gives both wrk threads the same queries (its \`local thread_id\` hides the\n` +
      'global that thread:set writes), which fedsearch coalesces and the floor does not. Running a copy with that line\n' +
      `fixed (${copy}); --as-shipped runs the shipped script.`,
  );
  return copy;
}

function newestMtime(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** The tool runs `node dist/server.js`: build when dist is missing or older than a source file. */
function buildIfNeeded(): void {
  const server = path.join(CHECKOUT, 'dist', 'server.js');
  if (existsSync(server) && statSync(server).mtimeMs >= newestMtime(path.join(CHECKOUT, 'src'))) return;
  console.log('building dist/ (npm run build) for the side-by-side run');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: CHECKOUT, stdio: 'inherit' });
}

function listeningPid(port: number): number | undefined {
  const listing = execFileSync('ss', ['-ltnp'], { encoding: 'utf8' });
  const line = listing.split('\n').find((candidate) => candidate.includes(`127.0.0.1:${port} `));
  const match = line ? /pid=(\d+)/.exec(line) : null;
  return match ? Number(match[1]) : undefined;
}

function rssMiB(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples every system's RSS; `close(system, conns)` files the samples since the last close under that run. */
function watchRss(systems: string[]) {
  const pids = new Map<string, number>();
  const highest = new Map<string, number>();
  const peakRssMiB = new Map<string, number>();
  const timer = setInterval(() => {
    for (const system of systems) {
      if (!pids.has(system)) {
        const pid = listeningPid(PORTS[system]!);
        if (pid === undefined) continue;
        pids.set(system, pid);
      }
      const rss = rssMiB(pids.get(system)!);
      if (rss !== undefined) highest.set(system, Math.max(highest.get(system) ?? 0, rss));
    }
  }, 250);
  return {
    peakRssMiB,
    close(system: string, conns: number): void {
      // The tool runs one system at a time: what this system reached since its last run is this run's peak.
      const peak = highest.get(system);
      if (peak !== undefined) peakRssMiB.set(`${system}@${conns}`, peak);
      highest.delete(system);
    },
    stop: () => clearInterval(timer),
  };
}

export function floorComparisonAvailable(): boolean {
  return existsSync(path.join(SHARED_BENCH, 'side-by-side.py'));
}

export async function runFloorComparison(options: FloorOptions): Promise<FloorComparison> {
  buildIfNeeded();
  const systems = [...(existsSync(SEARX_INSTALLED) ? ['searx'] : []), 'floor', 'fedsearch'];
  const output = path.join(mkdtempSync(path.join(os.tmpdir(), 'fedsearch-bench-')), 'side-by-side.json');
  const args = [path.join(sideBySideDirectory(options.asShipped === true), 'side-by-side.py'), CHECKOUT, '--systems', systems.join(','), '--conns', options.conns];
  args.push('--duration', String(options.duration), '--json', output);
  console.log(`\nSide by side (${systems.join(', ')}): python3 ${args.map((arg) => path.relative(CHECKOUT, arg) || '.').join(' ')}\n`);
  const rss = watchRss(systems);
  const child = spawn('python3', args, { cwd: CHECKOUT, env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout })) {
    console.log(line);
    const run = /^(\w+)\s+c=(\d+)/.exec(line);
    if (run) rss.close(run[1]!, Number(run[2]));
  }
  const code: number = await new Promise((resolve) => child.once('close', (exitCode) => resolve(exitCode ?? 1)));
  rss.stop();
  if (code !== 0 || !existsSync(output)) throw new Error(`side-by-side.py exited with ${code}`);
  const rows = JSON.parse(readFileSync(output, 'utf8')) as SideBySideRow[];
  printRatios(rows, rss.peakRssMiB);
  return { rows, peakRssMiB: rss.peakRssMiB };
}

/** The goals of issue 9, next to what this run measured. */
function printRatios(rows: SideBySideRow[], peakRssMiB: Map<string, number>): void {
  const find = (system: string, conns: number) => rows.find((row) => row.system === system && row.conns === conns);
  const table = [...new Set(rows.map((row) => row.conns))].flatMap((conns) => {
    const floor = find('floor', conns);
    const fedsearch = find('fedsearch', conns);
    if (!floor || !fedsearch) return [];
    const throughputGoal = conns >= 256 ? ' (goal ≥ 0.90)' : conns >= 16 ? ' (goal ≥ 0.95)' : '';
    const latencyGoal = conns === 1 ? ' (goal ≤ +1 ms)' : '';
    return [
      [
        conns,
        `${format(fedsearch.rps / floor.rps, 2)}${throughputGoal}`,
        `${format(fedsearch.cpu_ms_per_req, 2)} / ${format(floor.cpu_ms_per_req, 2)} = ${format(fedsearch.cpu_ms_per_req / floor.cpu_ms_per_req, 2)}${conns >= 256 ? ' (goal ≤ 1.30)' : ''}`,
        `${fedsearch.p50 - floor.p50 >= 0 ? '+' : ''}${format(fedsearch.p50 - floor.p50)} ms${latencyGoal}`,
        `${fedsearch.non2xx} / ${floor.non2xx}`,
        `${format(peakRssMiB.get(`fedsearch@${conns}`) ?? Number.NaN, 0)} / ${format(peakRssMiB.get(`floor@${conns}`) ?? Number.NaN, 0)}`,
      ],
    ];
  });
  printTable(
    'fedsearch against the floor, this run (ratios are what compare across machines and runs)',
    ['connections', 'req/s fedsearch / floor', 'CPU ms per search fedsearch / floor', 'p50 fedsearch − floor', 'non-2xx fedsearch / floor', 'peak RSS MiB fedsearch / floor'],
    table,
  );
}
