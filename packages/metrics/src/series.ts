import { Counter, Histogram, type CounterConfiguration, type HistogramConfiguration, type LabelValues } from 'prom-client';

/**
 * Counters and histograms whose label sets are resolved once, into a {@link CounterSeries} or
 * {@link HistogramSeries} that a hot path keeps: counting is then a few additions on plain
 * numbers, and prom-client reads the numbers when it is scraped, so the exposition (text,
 * OpenMetrics, JSON, cluster aggregation) is still prom-client's own.
 *
 * Hand-written because prom-client hashes and validates the label set on every `inc` and
 * `observe` (it sorts the label names and joins the values: 0.3–0.5 µs a call in a loop) and
 * offers no child that skips it (`labels()` hashes again on each call). In the executor under
 * load that cost, with the observer's timer closures, 7 µs of server CPU per SendMessage →
 * Message and 10–11 µs per → Task (JSON-RPC, 16 connections: the metrics observer on against
 * off, two interleaved rounds of 3), a tenth of each request. Label values stay few and fixed
 * (see metricsObserver), so the series maps stay small.
 */

/** One label set of a {@link SeriesCounter}. */
export interface CounterSeries {
  /** Adds `by` (default 1). */
  inc(by?: number): void;
}

/** One label set of a {@link SeriesHistogram}. */
export interface HistogramSeries {
  /** Counts one observation of `value` (seconds, for the timings here). */
  observe(value: number): void;
}

class CounterValue implements CounterSeries {
  value = 0;
  constructor(readonly labels: LabelValues<string>) {}
  inc(by = 1): void {
    this.value += by;
  }
}

class HistogramValue implements HistogramSeries {
  /** Observations per bucket (not cumulative), by the index of the bucket's upper bound. */
  readonly counts: number[];
  count = 0;
  sum = 0;
  constructor(
    readonly labels: LabelValues<string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = bounds.map(() => 0);
  }
  observe(value: number): void {
    // prom-client throws on a value that is not a finite number; a timing of ours never is one,
    // and a metric must not fail the request it measures: such a value is not counted.
    if (!Number.isFinite(value)) return;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= (bounds[i] as number)) {
        (this.counts[i] as number)++;
        break;
      }
    }
    this.count++;
    this.sum += value;
  }
  clear(): void {
    this.counts.fill(0);
    this.count = 0;
    this.sum = 0;
  }
}

/**
 * The fields prom-client's Metric sets on every instance and its registry reads (and, for
 * counters under OpenMetrics, rewrites: `name` loses its `_total`), absent from its typings.
 */
interface MetricFields {
  readonly name: string;
  readonly help: string;
  readonly aggregator: string;
}

/** The key of a label set: its values in the order of the metric's label names. */
function keyOf(labelNames: readonly string[], labels: LabelValues<string>): string {
  let key = '';
  for (const name of labelNames) key += `${labels[name] ?? ''}\u0000`;
  return key;
}

/**
 * A prom-client Counter counted through {@link series}; what it exposes is read from the
 * series. Its own `inc` is not read: the metrics package counts only through series.
 */
export class SeriesCounter<T extends string> extends Counter<T> {
  private readonly values = new Map<string, CounterValue>();
  private readonly labelNames: readonly string[];

  constructor(config: CounterConfiguration<T>) {
    super(config);
    this.labelNames = config.labelNames ?? [];
  }

  /** The series of `labels`, made on first use (exposed from then on, like prom-client's `zero`). */
  series(labels: LabelValues<T>): CounterSeries {
    const key = keyOf(this.labelNames, labels);
    let value = this.values.get(key);
    if (!value) {
      value = new CounterValue({ ...labels });
      this.values.set(key, value);
    }
    return value;
  }

  /** As prom-client's Counter.get(), its values from the series. */
  override async get(): ReturnType<Counter<T>['get']> {
    const values = [...this.values.values()].map((v) => ({ value: v.value, labels: { ...v.labels } }));
    // prom-client's typings ask for a `collect` its own Counter.get() does not return either.
    const { name, help, aggregator } = this as unknown as MetricFields;
    return { name, help, type: 'counter', values, aggregator } as unknown as Awaited<ReturnType<Counter<T>['get']>>;
  }

  override reset(): void {
    super.reset();
    // prom-client's constructor calls reset() before this class's fields exist.
    for (const value of this.values?.values() ?? []) value.value = 0;
  }
}

/** One exposed sample of a histogram, as prom-client's registry reads them. */
interface HistogramSample {
  labels: Record<string, string | number>;
  sharedLabels: LabelValues<string>;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

/**
 * A prom-client Histogram observed through {@link series}; what it exposes is read from the
 * series. Its own `observe` and `startTimer` are not read: the metrics package observes only
 * through series.
 */
export class SeriesHistogram<T extends string> extends Histogram<T> {
  private readonly values = new Map<string, HistogramValue>();
  private readonly labelNames: readonly string[];
  private readonly bounds: readonly number[];

  constructor(config: HistogramConfiguration<T> & { readonly buckets: number[] }) {
    super(config);
    this.labelNames = config.labelNames ?? [];
    this.bounds = [...config.buckets];
  }

  /** The series of `labels`, made on first use (exposed from then on, like prom-client's `zero`). */
  series(labels: LabelValues<T>): HistogramSeries {
    const key = keyOf(this.labelNames, labels);
    let value = this.values.get(key);
    if (!value) {
      value = new HistogramValue({ ...labels }, this.bounds);
      this.values.set(key, value);
    }
    return value;
  }

  /**
   * What prom-client's registry reads of a histogram (its `getForPromString`; `get()` builds the
   * JSON form from it): per series the cumulative buckets, `+Inf`, `_sum` and `_count`, in the
   * shape prom-client's own Histogram makes them. A test holds the exposition equal to a plain
   * prom-client Histogram's fed the same observations, so a prom-client upgrade that changes
   * the shape fails it.
   */
  async getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; values: HistogramSample[]; aggregator: string }> {
    const { name, help, aggregator } = this as unknown as MetricFields;
    const bounds = this.bounds;
    const values: HistogramSample[] = [];
    for (const series of this.values.values()) {
      let cumulative = 0;
      for (let i = 0; i < bounds.length; i++) {
        cumulative += series.counts[i] as number;
        values.push({ labels: { le: bounds[i] as number }, value: cumulative, metricName: `${name}_bucket`, exemplar: null, sharedLabels: series.labels });
      }
      values.push(
        { labels: { le: '+Inf' }, value: series.count, metricName: `${name}_bucket`, exemplar: null, sharedLabels: series.labels },
        { labels: {}, value: series.sum, metricName: `${name}_sum`, exemplar: undefined, sharedLabels: series.labels },
        { labels: {}, value: series.count, metricName: `${name}_count`, exemplar: undefined, sharedLabels: series.labels },
      );
    }
    return { name, help, type: 'histogram', values, aggregator };
  }

  override reset(): void {
    super.reset();
    // prom-client's constructor calls reset() before this class's fields exist.
    for (const value of this.values?.values() ?? []) value.clear();
  }
}
