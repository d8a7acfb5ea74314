/**
 * A real Prometheus (Debian's `prometheus` package) scrapes the executor's `/metrics` while
 * the same request goes over JSON-RPC, REST, gRPC and WebSocket; its query API must then
 * show one series per binding. Without the binary the suite is skipped with a loud notice,
 * except under CI=true, where it fails (CI installs the package).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
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
import { waitFor } from './helpers.js';

const PROMETHEUS = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
const available = existsSync(PROMETHEUS);
if (!available) {
  const message = `the Prometheus e2e test needs ${PROMETHEUS} (apt-get install -y prometheus, or set PROMETHEUS_PATH)`;
  if (process.env.CI === 'true') throw new Error(`CI: ${message}`);
  console.warn(`\n!!!!!!!!\n!!! SKIPPED: ${message}\n!!!!!!!!\n`);
}
const describeWithPrometheus = available ? describe : describe.skip;

/** A port nobody listens on right now (Prometheus takes a fixed listen address). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Series {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

describeWithPrometheus('Prometheus scrapes the executor', () => {
  let executor: RunningExecutor;
  let prometheus: ChildProcess;
  let dir: string;
  let api: string;

  beforeAll(async () => {
    executor = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: 0, logLevel: 'error', demo: { chunkDelayMs: 0 } });
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
    const byBinding = Object.fromEntries((await query(promql)).map((s) => [s.metric.binding, Number(s.value[1])]));
    expect(byBinding).toEqual({ JSONRPC: 1, 'HTTP+JSON': 1, GRPC: 1, WEBSOCKET: 1 });
    expect((await query('up{job="a2a"}'))[0]?.value[1]).toBe('1');
    expect((await query('a2a_task_state_transitions_total{job="a2a",state="TASK_STATE_COMPLETED"}'))[0]?.value[1]).toBe('4');
    expect((await query('process_resident_memory_bytes{job="a2a"}')).length).toBe(1);
  });
});
