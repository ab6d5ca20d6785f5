import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BucketHistogram, type HistogramSeries } from '../../src/observability/bucket-histogram.js';

const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
const LABEL_SETS = [
  { provider: 'brave', status: 'ok' },
  { provider: 'exa', status: 'timeout' },
  { provider: 'tavily', status: 'error' },
];

/** The same observations into prom-client's Histogram and into a BucketHistogram, each in its own registry. */
function observeBoth(observations: Array<{ labels: number; value: number }>) {
  const library = new Registry();
  const ours = new Registry();
  const reference = new Histogram({ name: 'h_seconds', help: 'a histogram', labelNames: ['provider', 'status'], buckets: BOUNDS, registers: [library] });
  const histogram = new BucketHistogram('h_seconds', 'a histogram', BOUNDS, ours);
  const series = new Map<number, HistogramSeries>();
  for (const { labels, value } of observations) {
    reference.observe(LABEL_SETS[labels]!, value);
    let kept = series.get(labels);
    if (!kept) series.set(labels, (kept = histogram.series(LABEL_SETS[labels]!)));
    kept.observe(value);
  }
  return { library, ours };
}

// Values on the bounds themselves, between them, below the first and above the last.
const value = fc.oneof(fc.constantFrom(...BOUNDS, 0, -1, 31, 1e9), fc.double({ min: -1, max: 40, noNaN: true }));
const observation = fc.record({ labels: fc.integer({ min: 0, max: LABEL_SETS.length - 1 }), value });

describe('BucketHistogram', () => {
  it('exposes exactly what prom-client exposes for the same observations, as text and as JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 40 }), async (observations) => {
        const { library, ours } = observeBoth(observations);
        expect(await ours.metrics()).toBe(await library.metrics());
        expect(await ours.getMetricsAsJSON()).toEqual(await library.getMetricsAsJSON());
      }),
      { numRuns: 200 },
    );
  });

  it('counts a value on a bound in that bound, and one above every bound only in +Inf', async () => {
    const { ours } = observeBoth([
      { labels: 0, value: 0.05 },
      { labels: 0, value: 31 },
    ]);
    const text = await ours.metrics();
    expect(text).toContain('h_seconds_bucket{le="0.025",provider="brave",status="ok"} 0');
    expect(text).toContain('h_seconds_bucket{le="0.05",provider="brave",status="ok"} 1');
    expect(text).toContain('h_seconds_bucket{le="30",provider="brave",status="ok"} 1');
    expect(text).toContain('h_seconds_bucket{le="+Inf",provider="brave",status="ok"} 2');
    expect(text).toContain('h_seconds_sum{provider="brave",status="ok"} 31.05');
    expect(text).toContain('h_seconds_count{provider="brave",status="ok"} 2');
  });

  it('shows no series before its first observation, and none after a reset until observed again', async () => {
    const registry = new Registry();
    const histogram = new BucketHistogram('h_seconds', 'a histogram', BOUNDS, registry);
    const series = histogram.series({ provider: 'brave', status: 'ok' });
    expect(await registry.metrics()).not.toContain('h_seconds_count');
    series.observe(0.2);
    expect(await registry.metrics()).toContain('h_seconds_count{provider="brave",status="ok"} 1');
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('h_seconds_count');
    series.observe(3);
    expect(await registry.metrics()).toContain('h_seconds_sum{provider="brave",status="ok"} 3');
  });

  it('refuses a value that is not a finite number, as prom-client does', () => {
    const series = new BucketHistogram('h_seconds', 'a histogram', BOUNDS, new Registry()).series({ provider: 'brave', status: 'ok' });
    expect(() => series.observe(Number.NaN)).toThrow(TypeError);
    expect(() => series.observe(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(series.count).toBe(0);
  });
});
