import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Loopback servers and child processes: generous per-test time, never timed assertions.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
