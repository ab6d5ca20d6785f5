import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/observability/metrics.js';

/** Dashboards and alerts are written against metric names: each one the service exports is named in README.md. */
describe('README.md metric names', () => {
  it('names every fedsearch_ metric /metrics exports', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const exported = [...(await createMetrics().render()).matchAll(/^# TYPE (fedsearch_\w+) /gm)].map((match) => match[1]!);
    expect(exported.length).toBeGreaterThan(0);
    expect(exported.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
