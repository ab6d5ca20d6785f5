import os from 'node:os';
import { parseArgs } from 'node:util';
import { runCachedAnswers } from './cached-answers.js';
import { runLoad } from './fakes-load.js';
import { floorComparisonAvailable, runFloorComparison, SHARED_BENCH } from './floor-comparison.js';
import { runMergeCost } from './merge-cost.js';

/**
 * npm run bench [-- --fakes] [-- --conns 1,16,256 --duration 10] [-- --no-floor] [-- --as-shipped]
 *
 * 1. fedsearch against the floor (and searx when installed) with ../shared/bench/side-by-side.py, when that
 *    directory exists: ratios of requests/s, CPU per search, p50 and peak RSS (floor-comparison.ts). Its wrk
 *    script repeats every query across wrk's two threads; the run uses a copy with that fixed unless
 *    --as-shipped (floor-comparison.ts says why).
 * 2. Cached answers against a bare Fastify route returning the same stored answer (cached-answers.ts).
 * 3. Merge + rank alone at 1,000, 10,000 and 100,000 results (merge-cost.ts).
 * With --fakes, or when ../shared/bench is absent: the service under load against fake providers with set
 * latencies (fakes-load.ts). About 2 minutes in all with the floor comparison.
 */

const { values: options } = parseArgs({
  options: {
    fakes: { type: 'boolean', default: false },
    'no-floor': { type: 'boolean', default: false },
    'as-shipped': { type: 'boolean', default: false },
    conns: { type: 'string', default: '1,16,256' },
    duration: { type: 'string', default: '10' },
  },
});

const cpus = os.cpus();
console.log(
  `fedsearch benchmark — node ${process.version}, ${cpus.length} CPU${cpus.length === 1 ? '' : 's'} (${cpus[0]?.model ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}`,
);

let succeeded = true;
const floor = !options['no-floor'] && floorComparisonAvailable();
if (floor) {
  await runFloorComparison({ conns: options.conns, duration: Number(options.duration), asShipped: options['as-shipped'] });
} else if (!options['no-floor']) {
  console.log(`\n${SHARED_BENCH} not found: no floor comparison; the load against fake providers instead`);
}
if (options.fakes || !floor) succeeded = (await runLoad()) && succeeded;
await runCachedAnswers();
runMergeCost();
if (!succeeded) process.exitCode = 1;
