import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Loopback servers and child processes: generous per-test time, never timed assertions.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One process runs the files in turn, importing Fastify, undici, the MCP SDK and the service's modules once
    // rather than once per file: on a 2-core machine (where Vitest starts one worker) the suite took 760–870 s
    // with a fresh process per file, more than half of it spent importing, and 275 s without. Tests leave no state
    // behind for the next file: each starts its own service, servers and Redis, and restores what it changes.
    isolate: false,
  },
});
