/**
 * Entry of a server child process: `node server-main.js <kind> [json option]`. Starts one server kind on
 * loopback, reports its ports, then answers `usage` requests (CPU time, memory, optionally
 * after a forced GC; run with --expose-gc) until the orchestrator disconnects.
 */
import { emitEvent, serveIpc } from '../ipc.js';
import { startOursServer, type OursStorage } from './ours-server.js';
import { startRawGrpcServer } from './raw-grpc-server.js';
import { startRawHttpServer } from './raw-http-server.js';
import { startRawWsServer } from './raw-ws-server.js';
import { startSdkServer } from './sdk-server.js';
import type { StartedServer } from './started-server.js';

/** The server kinds a child can run; `option` is the child's optional JSON argument. */
export const SERVER_KINDS: Readonly<Record<string, (option?: unknown) => Promise<StartedServer>>> = {
  ours: (option) => startOursServer((option ?? {}) as OursStorage),
  'ours-bare': (option) => startOursServer({ ...((option ?? {}) as OursStorage), bare: true }),
  sdk: startSdkServer,
  'raw-http': startRawHttpServer,
  'raw-grpc': startRawGrpcServer,
  'raw-ws': startRawWsServer,
};

/** What `usage` returns. */
export interface ServerUsage {
  readonly pid: number;
  /** process.cpuUsage() user + system, µs since start. */
  readonly cpuUs: number;
  readonly rss: number;
  readonly heapUsed: number;
  readonly external: number;
}

async function main(): Promise<void> {
  const kind = process.argv[2] ?? '';
  const start = SERVER_KINDS[kind];
  serveIpc({
    usage: (payload: { gc?: boolean } | undefined): ServerUsage => {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (payload?.gc && gc) {
        gc();
        gc();
      }
      const cpu = process.cpuUsage();
      const mem = process.memoryUsage();
      return { pid: process.pid, cpuUs: cpu.user + cpu.system, rss: mem.rss, heapUsed: mem.heapUsed, external: mem.external };
    },
  });
  if (!start) {
    emitEvent('failed', { error: `unknown server kind ${JSON.stringify(kind)}` });
    return;
  }
  try {
    const raw = process.argv[3];
    const started = await start(raw ? JSON.parse(raw) : undefined);
    emitEvent('ready', { pid: process.pid, ports: started.ports, notes: started.notes ?? [] });
  } catch (error) {
    emitEvent('failed', { error: (error as Error)?.message ?? String(error) });
  }
}

process.on('uncaughtException', (error) => {
  process.stderr.write(`[bench server ${process.argv[2]}] uncaught: ${error?.stack ?? error}\n`);
  process.exit(1);
});

void main();
