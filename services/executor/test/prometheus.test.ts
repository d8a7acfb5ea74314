/**
 * A real Prometheus (Debian's `prometheus` package) scrapes the executor's `/metrics` while
 * the same request goes over JSON-RPC, REST, gRPC and WebSocket; its query API must then
 * show one series per binding. Then a streamed task, a failed one and one with a webhook
 * (a local receiver) must show in the task run time, time-to-first-event, push-delivery and
 * event-log series, and every query of the example Grafana dashboard must parse and return
 * series. Without the binary the suite is skipped with a loud notice, except under CI=true,
 * where it fails (CI installs the package).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import {
  Client,
  GRPC_BINDING,
  textMessage,
  WEBSOCKET_BINDING,
  webSocketTransportFactory,
  type ClientOptions,
  type WebSocketConstructor,
} from '@a2a-polyglot/client';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { startExecutor, type RunningExecutor } from '../src/index.js';
import { eventually } from '@a2a-polyglot/testing';
import { waitFor } from './helpers.js';
import { freePort } from './sockets.js';

/** The example dashboard the second half of the suite checks against this Prometheus. */
const DASHBOARD = join(__dirname, '..', '..', '..', 'examples', 'observability', 'grafana-dashboard.json');
/** The card name of the demo agent: the `agent` label of a single-agent executor. */
const DEMO_AGENT = 'A2A Polyglot Demo Agent';

const PROMETHEUS = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
const available = existsSync(PROMETHEUS);
if (!available) {
  const message = `the Prometheus e2e test needs ${PROMETHEUS} (apt-get install -y prometheus, or set PROMETHEUS_PATH)`;
  if (process.env.CI === 'true') throw new Error(`CI: ${message}`);
  console.warn(`\n!!!!!!!!\n!!! SKIPPED: ${message}\n!!!!!!!!\n`);
}
const describeWithPrometheus = available ? describe : describe.skip;

interface Series {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

describeWithPrometheus('Prometheus scrapes the executor', () => {
  let executor: RunningExecutor;
  let prometheus: ChildProcess;
  let dir: string;
  let api: string;
  let webhook: Server;
  let hookUrl: string;
  /** The bodies the webhook received, parsed. */
  const pushed: Array<Record<string, any>> = [];

  beforeAll(async () => {
    webhook = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        pushed.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hook`;
    executor = await startExecutor({
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      logLevel: 'error',
      demo: { chunkDelayMs: 0 },
      push: { allowPrivateNetworks: true },
    });
    dir = mkdtempSync(join(tmpdir(), 'a2a-prometheus-'));
    const target = new URL(executor.url).host;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      ['global:', '  scrape_interval: 500ms', 'scrape_configs:', '  - job_name: a2a', '    static_configs:', `      - targets: ['${target}']`, ''].join('\n'),
    );
    const port = await freePort();
    api = `http://127.0.0.1:${port}/api/v1`;
    prometheus = spawn(
      PROMETHEUS,
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: 'ignore' },
    );
  });

  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    if (prometheus && prometheus.exitCode === null) await new Promise((resolve) => prometheus.once('exit', resolve));
    await executor?.close();
    await new Promise((resolve) => webhook?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function query(promql: string): Promise<Series[]> {
    try {
      const res = await fetch(`${api}/query?query=${encodeURIComponent(promql)}`);
      if (!res.ok) return [];
      return ((await res.json()) as { data: { result: Series[] } }).data.result;
    } catch {
      return []; // Prometheus still starting
    }
  }

  /** The query API's whole answer: `status` is `error` (with `error`) for a query that does not parse. */
  async function queryRaw(promql: string): Promise<{ status: string; error?: string; data?: { result: Series[] } }> {
    const res = await fetch(`${api}/query?query=${encodeURIComponent(promql)}`);
    return (await res.json()) as { status: string; error?: string; data?: { result: Series[] } };
  }

  /** The one value of `promql` (a query that sums to one series), or undefined while it has none. */
  async function value(promql: string): Promise<number | undefined> {
    const series = await query(promql);
    return series.length === 1 ? Number(series[0]?.value[1]) : undefined;
  }

  it('sees SendMessage counted on all four bindings, and the target up', async () => {
    const transports: ClientOptions['transports'] = {
      [GRPC_BINDING]: grpcTransportFactory,
      [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WebSocket as unknown as WebSocketConstructor }),
    };
    for (const binding of ['jsonrpc', 'rest', 'grpc', 'websocket'] as const) {
      const client = await Client.connect(executor.url, { bindings: [binding], transports });
      try {
        await client.sendMessage({ message: textMessage(`hello over ${binding}`) });
      } finally {
        await client.close();
      }
    }
    const promql = 'sum by (binding) (a2a_requests_total{job="a2a",operation="SendMessage",outcome="ok"})';
    await waitFor(async () => (await query(promql)).length === 4, { timeoutMs: 30_000 });
    // Read as one block, again if a scrape in between timed out: a missed scrape makes every
    // series of the target stale until the next one, so a single read could see none.
    await eventually(
      async () => {
        const byBinding = Object.fromEntries((await query(promql)).map((s) => [s.metric.binding, Number(s.value[1])]));
        expect(byBinding).toEqual({ JSONRPC: 1, 'HTTP+JSON': 1, GRPC: 1, WEBSOCKET: 1 });
        expect((await query('up{job="a2a"}'))[0]?.value[1]).toBe('1');
        expect((await query('a2a_task_state_transitions_total{job="a2a",state="TASK_STATE_COMPLETED"}'))[0]?.value[1]).toBe('4');
        expect((await query('process_resident_memory_bytes{job="a2a"}')).length).toBe(1);
      },
      { timeoutMs: 10_000 },
    );
  });

  it('measures task run time by final state and agent, time to first event, push deliveries and the event log', async () => {
    const client = await Client.connect(executor.url, { bindings: ['jsonrpc'] });
    let streamed = 0;
    try {
      for await (const _ of client.sendStreamingMessage({ message: textMessage('hello stream') })) streamed++;
      await client.sendMessage({ message: textMessage('fail on purpose') });
      await client.sendMessage({ message: textMessage('hello webhook'), configuration: { taskPushNotificationConfig: { url: hookUrl, token: 'tok' } } });
      await expect(client.getTask({ id: 'no-such-task' })).rejects.toThrow();
    } finally {
      await client.close();
    }
    expect(streamed).toBeGreaterThan(2);
    // The webhook got the task's events up to COMPLETED (deliveries run after the answer).
    await waitFor(() => pushed.some((body) => body.statusUpdate?.status?.state === 'TASK_STATE_COMPLETED'), { timeoutMs: 10_000 });

    const delivered = `sum(a2a_push_deliveries_total{job="a2a",outcome="delivered"})`;
    const failed = `sum(a2a_task_duration_seconds_count{job="a2a",state="TASK_STATE_FAILED"})`;
    await waitFor(async () => (await value(failed)) === 1 && (await value(delivered)) === pushed.length, { timeoutMs: 30_000 });

    // One block, read again if a scrape in between timed out (see the test above).
    await eventually(
      async () => {
        const byState = await query('sum by (agent, state) (a2a_task_duration_seconds_count{job="a2a"})');
        const runs = Object.fromEntries(byState.map((s) => [`${s.metric.agent} ${s.metric.state}`, Number(s.value[1])]));
        // Four SendMessage runs before, the stream and the webhook's now: all completed; one failed.
        expect(runs).toEqual({ [`${DEMO_AGENT} TASK_STATE_COMPLETED`]: 6, [`${DEMO_AGENT} TASK_STATE_FAILED`]: 1 });
        const p95 = await query('histogram_quantile(0.95, sum by (le, state) (a2a_task_duration_seconds_bucket{job="a2a"}))');
        for (const series of p95) expect(Number(series.value[1])).toBeLessThan(10); // demo runs end at once: not in the 10 min bucket
        expect(p95.map((s) => s.metric.state).sort()).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED']);

        expect(await value(`sum(a2a_task_time_to_first_event_seconds_count{job="a2a",agent="${DEMO_AGENT}"})`)).toBe(7);
        expect(await value(`histogram_quantile(0.5, sum by (le) (a2a_task_time_to_first_event_seconds_bucket{job="a2a"}))`)).toBeLessThan(1);

        expect(await value(delivered)).toBe(pushed.length);
        expect(await value(`sum(a2a_push_deliveries_total{job="a2a",outcome!="delivered"})`)).toBeUndefined();

        // The stream's events went into the log and back out to the stream; the unstreamed runs were not logged.
        const published = (await value(`sum(a2a_event_log_published_total{job="a2a",agent="${DEMO_AGENT}"})`)) ?? 0;
        const replayed = (await value(`sum(a2a_event_log_replayed_total{job="a2a",agent="${DEMO_AGENT}"})`)) ?? 0;
        expect(published).toBe(streamed);
        expect(replayed).toBeGreaterThanOrEqual(streamed);
        expect(await value('sum(a2a_event_log_gaps_total{job="a2a"})')).toBe(0);
      },
      { timeoutMs: 10_000 },
    );
  });

  it('answers every query of the example Grafana dashboard with series', async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      panels: Array<{ type: string; title: string; datasource?: { uid: string }; targets?: Array<{ expr: string; refId: string }> }>;
      templating: { list: Array<{ name: string; type: string; definition?: string }> };
    };
    const graphs = dashboard.panels.filter((p) => p.type !== 'row');
    for (const panel of graphs) {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template string
      expect(panel.datasource?.uid).toBe('${datasource}');
      expect(panel.targets?.length).toBeGreaterThan(0);
    }
    // Grafana's variables as the dashboard's "All" would fill them in, and a rate window that spans several scrapes.
    const promql = (expr: string) => expr.replaceAll('$__rate_interval', '1m').replaceAll('$job', 'a2a').replaceAll('$agent', '.*');
    const targets = graphs.flatMap((panel) => (panel.targets ?? []).map((t) => ({ name: `${panel.title} ${t.refId}`, expr: promql(t.expr) })));
    expect(targets.length).toBeGreaterThanOrEqual(15);

    for (const { name, expr } of targets) {
      const answer = await queryRaw(expr);
      expect({ name, status: answer.status, error: answer.error }).toEqual({ name, status: 'success', error: undefined });
    }
    // A series new since the last test needs two scrapes inside the window before rate() has a value.
    const empty = async () => {
      const missing: string[] = [];
      for (const { name, expr } of targets) if ((await query(expr)).length === 0) missing.push(name);
      return missing;
    };
    await waitFor(async () => (await empty()).length === 0, { timeoutMs: 30_000 }).catch(() => undefined);
    expect(await empty()).toEqual([]);

    // The variables' label_values(selector, label) queries, through the label-values API Grafana calls.
    const variables = dashboard.templating.list.filter((v) => v.type === 'query');
    expect(variables.map((v) => v.name)).toEqual(['job', 'agent']);
    const values: Record<string, string[]> = {};
    for (const variable of variables) {
      const match = /^label_values\((.+), (\w+)\)$/.exec(variable.definition ?? '');
      expect(match).not.toBeNull();
      const [, selector, label] = match as unknown as [string, string, string];
      const res = await fetch(`${api}/label/${label}/values?match[]=${encodeURIComponent(promql(selector))}`);
      values[variable.name] = ((await res.json()) as { data: string[] }).data;
    }
    expect(values).toEqual({ job: ['a2a'], agent: [DEMO_AGENT] });
  });
});
