import { Counter, Histogram, Registry, type RegistryContentType } from 'prom-client';
import { SeriesCounter, SeriesHistogram } from '../src/series.js';

/**
 * The series instruments expose exactly what prom-client's own Counter and Histogram expose
 * for the same counts: the text exposition (Prometheus and OpenMetrics), the JSON form, and
 * after a reset. Each pair gets a registry of its own and the same calls.
 */
const BUCKETS = [0.001, 0.01, 0.1, 1];
const LABELS = ['operation', 'binding'] as const;

function pair(contentType: RegistryContentType = Registry.PROMETHEUS_CONTENT_TYPE) {
  const plain = new Registry<RegistryContentType>();
  const ours = new Registry<RegistryContentType>();
  plain.setContentType(contentType);
  ours.setContentType(contentType);
  return {
    plain,
    ours,
    counter: {
      plain: new Counter({ name: 'calls_total', help: 'Calls.', labelNames: LABELS, registers: [plain] }),
      ours: new SeriesCounter({ name: 'calls_total', help: 'Calls.', labelNames: LABELS, registers: [ours] }),
    },
    histogram: {
      plain: new Histogram({ name: 'call_seconds', help: 'Call time.', labelNames: LABELS, buckets: BUCKETS, registers: [plain] }),
      ours: new SeriesHistogram({ name: 'call_seconds', help: 'Call time.', labelNames: LABELS, buckets: BUCKETS, registers: [ours] }),
    },
  };
}

/** The same observations on both: two label sets, values in every bucket, past the last and on a bound. */
function feed(p: ReturnType<typeof pair>): void {
  const a = { operation: 'SendMessage', binding: 'JSONRPC' };
  const b = { operation: 'GetTask', binding: 'GRPC' };
  const counterA = p.counter.ours.series(a);
  const counterB = p.counter.ours.series(b);
  const histogramA = p.histogram.ours.series(a);
  const histogramB = p.histogram.ours.series(b);
  for (const [labels, counter, histogram, values] of [
    [a, counterA, histogramA, [0.0005, 0.001, 0.05, 0.5, 7]],
    [b, counterB, histogramB, [0.002, 0.002, 1]],
  ] as const) {
    for (const value of values) {
      p.counter.plain.inc(labels);
      counter.inc();
      p.histogram.plain.observe(labels, value);
      histogram.observe(value);
    }
  }
  p.counter.plain.inc(a, 5);
  counterA.inc(5);
}

describe('series instruments', () => {
  it('expose the same text as prom-client Counter and Histogram fed the same counts', async () => {
    const p = pair();
    feed(p);
    const text = await p.ours.metrics();
    expect(text).toBe(await p.plain.metrics());
    expect(text).toContain('call_seconds_bucket{le="0.001",operation="SendMessage",binding="JSONRPC"} 2');
    expect(text).toContain('calls_total{operation="SendMessage",binding="JSONRPC"} 10');
  });

  it('expose the same JSON and OpenMetrics text', async () => {
    const p = pair();
    feed(p);
    expect(await p.ours.getMetricsAsJSON()).toEqual(await p.plain.getMetricsAsJSON());
    const open = pair(Registry.OPENMETRICS_CONTENT_TYPE);
    feed(open);
    const text = await open.ours.metrics();
    expect(text).toBe(await open.plain.metrics());
    expect(text).toContain('calls_total{operation="GetTask",binding="GRPC"} 3');
  });

  it('count from zero again after a reset, keeping the handles a hot path holds', async () => {
    const p = pair();
    const labels = { operation: 'SendMessage', binding: 'JSONRPC' };
    const histogram = p.histogram.ours.series(labels);
    histogram.observe(0.5);
    p.ours.resetMetrics();
    histogram.observe(0.05);
    p.histogram.plain.observe(labels, 0.05);
    const counter = p.counter.ours.series(labels);
    counter.inc(2);
    p.counter.plain.inc(labels, 2);
    expect(await p.ours.metrics()).toBe(await p.plain.metrics());
  });

  it('leaves a value that is not a finite number uncounted, where prom-client throws', async () => {
    const p = pair();
    const series = p.histogram.ours.series({ operation: 'SendMessage', binding: 'JSONRPC' });
    series.observe(Number.NaN);
    series.observe(Number.POSITIVE_INFINITY);
    series.observe(0.05);
    expect(() => p.histogram.plain.observe({ operation: 'SendMessage', binding: 'JSONRPC' }, Number.NaN)).toThrow(TypeError);
    p.histogram.plain.observe({ operation: 'SendMessage', binding: 'JSONRPC' }, 0.05);
    expect(await p.ours.metrics()).toBe(await p.plain.metrics());
  });
});
