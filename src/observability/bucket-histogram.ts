import type { Metric, Registry } from 'prom-client';

/** One line of a histogram's exposition, as prom-client's registry formats it. */
interface HistogramValue {
  metricName: string;
  value: number;
  labels: Record<string, string | number>;
  /** The series' own labels, written after `le` (prom-client's order). */
  sharedLabels?: Record<string, string>;
  /** prom-client's buckets carry one (null without exemplars); JSON readers see the same fields. */
  exemplar?: null;
}

/**
 * One label set of a BucketHistogram: its counts in plain numbers. Whoever observes into it keeps it (found
 * once per label set, like the request counters' series in metrics.ts), so an observation is a bucket search
 * and three additions; prom-client's observe() builds and hashes a label object on every call.
 */
export class HistogramSeries {
  /** Per bucket, not cumulative: the last slot counts what lies above every bound (+Inf only). */
  private readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    // As prom-client: a value that is not a finite number is a caller's bug, not a bucket.
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    let index = 0;
    while (index < this.bounds.length && value > this.bounds[index]!) index += 1;
    this.counts[index] = this.counts[index]! + 1;
    this.sum += value;
    this.count += 1;
  }

  /** The `_bucket` (cumulative), `_sum` and `_count` lines of this series, in prom-client's order. */
  lines(name: string): HistogramValue[] {
    const lines: HistogramValue[] = [];
    let cumulative = 0;
    for (let index = 0; index < this.bounds.length; index += 1) {
      cumulative += this.counts[index]!;
      lines.push({ metricName: `${name}_bucket`, value: cumulative, labels: { le: this.bounds[index]! }, sharedLabels: this.labels, exemplar: null });
    }
    lines.push(
      { metricName: `${name}_bucket`, value: this.count, labels: { le: '+Inf' }, sharedLabels: this.labels, exemplar: null },
      { metricName: `${name}_sum`, value: this.sum, labels: {}, sharedLabels: this.labels },
      { metricName: `${name}_count`, value: this.count, labels: {}, sharedLabels: this.labels },
    );
    return lines;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

/**
 * A Prometheus histogram whose series are plain counters read at scrape time, exposed exactly as prom-client's
 * Histogram exposes the same observations (test/observability/bucket-histogram.test.ts compares the two).
 * It is registered as a metric of its own: a registry asks a metric only for its name, help, type, values
 * (get / getForPromString) and reset().
 */
export class BucketHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all: HistogramSeries[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** A new series for these label values; the caller keeps it and observes into it (one per label set). */
  series(labels: Readonly<Record<string, string>>): HistogramSeries {
    const series = new HistogramSeries(labels, this.bounds);
    this.all.push(series);
    return series;
  }

  /** The exposition's lines, with the series' labels apart from `le`, as the registry's text format reads them. */
  getForPromString(): Promise<{ name: string; help: string; type: string; aggregator: string; values: HistogramValue[] }> {
    // A series shows once something is observed into it, and again after a reset only then, as prom-client's do.
    const values = this.all.flatMap((series) => (series.count > 0 ? series.lines(this.name) : []));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  /** The same lines with every label in `labels` (`le` first), as prom-client's get() gives them (JSON). */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: HistogramValue[] }> {
    const metric = await this.getForPromString();
    const values = metric.values.map(({ sharedLabels, ...line }) => ({ ...line, labels: { ...line.labels, ...sharedLabels } }));
    return { ...metric, values };
  }

  reset(): void {
    for (const series of this.all) series.reset();
  }
}
