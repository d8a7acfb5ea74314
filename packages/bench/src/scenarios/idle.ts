import type { IdleJob, IdleResult } from '../load/job.js';
import type { RunContext } from '../orchestrator/context.js';
import { startLoadProcess, startServerProcess } from '../orchestrator/server-process.js';
import { buildRequest } from '../requests.js';
import type { IdleMemoryResult } from '../results.js';
import type { Target } from '../targets.js';

const MB = 1024 * 1024;
/** Streams opened and closed before the baseline is read. */
const WARMUP_STREAMS = 200;

/** The targets held at the large idle count too: each ceiling and each of our streaming bindings once. */
export const LARGE_IDLE_TARGETS: readonly string[] = ['raw-http', 'ours-jsonrpc', 'ours-grpc', 'raw-ws', 'ours-ws'];

/**
 * Memory per open idle stream: a server's RSS and heap after a forced GC (fresh, then warmed
 * up by opening and closing 200 streams), then again with N streams open (each has received
 * its first event and then waits), both measured in the server process. Per-stream cost =
 * difference / N.
 */
export async function runIdleTarget(ctx: RunContext, target: Target, rep: number, n = ctx.config.idleStreams): Promise<IdleMemoryResult> {
  // ~4 ms per stream to open on a loaded server; the default leaves room for 10,000.
  const openTimeoutMs = Math.max(60_000, n * 10);
  const base = { rep, targetId: target.id, family: target.family, binding: target.binding, streams: n };
  const empty = {
    opened: 0,
    failed: 0,
    connections: 0,
    openMs: 0,
    idleRssMB: NaN,
    idleHeapMB: NaN,
    openRssMB: NaN,
    openHeapMB: NaN,
    rssKBPerStream: NaN,
    heapKBPerStream: NaN,
  };
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  try {
    server = await startServerProcess(ctx, target.server);
  } catch (error) {
    return { ...base, ...empty, failure: (error as Error).message };
  }
  const load = await startLoadProcess(ctx).catch((e: Error) => e);
  try {
    if (load instanceof Error) return { ...base, ...empty, failure: load.message };
    const port = server.ports[target.port];
    if (!port) return { ...base, ...empty, failure: `no ${target.port} port` };
    // Warm-up, the same for every target: open and close some streams first, so that code the
    // server compiles on its first requests is in the baseline, not charged to the streams.
    const warm: IdleJob = {
      request: buildRequest(target, { mode: 'idle' }, port),
      streams: Math.min(WARMUP_STREAMS, n),
      openConcurrency: 64,
      timeoutMs: 60_000,
    };
    await load.ipc.call<IdleResult>('idle-open', warm, 90_000);
    await load.ipc.call('idle-close', undefined, 30_000);
    await new Promise((r) => setTimeout(r, 300));
    const idle = await server.usage(true);
    const job: IdleJob = { request: buildRequest(target, { mode: 'idle' }, port), streams: n, openConcurrency: 64, timeoutMs: openTimeoutMs };
    const opened = await load.ipc.call<IdleResult>('idle-open', job, openTimeoutMs + 30_000);
    await new Promise((r) => setTimeout(r, 500));
    const open = await server.usage(true);
    const count = Math.max(1, opened.opened);
    const row: IdleMemoryResult = {
      ...base,
      opened: opened.opened,
      failed: opened.failed,
      connections: opened.connections,
      openMs: opened.ms,
      idleRssMB: idle.rss / MB,
      idleHeapMB: idle.heapUsed / MB,
      openRssMB: open.rss / MB,
      openHeapMB: open.heapUsed / MB,
      rssKBPerStream: (open.rss - idle.rss) / 1024 / count,
      heapKBPerStream: (open.heapUsed - idle.heapUsed) / 1024 / count,
      firstError: opened.firstError,
    };
    ctx.log(
      `  idle rep ${rep + 1} ${target.id.padEnd(18)} ${opened.opened}/${n} open in ${opened.ms} ms; RSS ${row.idleRssMB.toFixed(1)} → ${row.openRssMB.toFixed(1)} MB (${row.rssKBPerStream.toFixed(1)} KB/stream), heap ${row.heapKBPerStream.toFixed(1)} KB/stream`,
    );
    if (opened.failed > 0) ctx.notice(`idle ${target.id}: ${opened.failed} of ${n} streams did not open (first: ${opened.firstError})`);
    await load.ipc.call('idle-close', undefined, Math.max(30_000, n * 5)).catch(() => undefined);
    return row;
  } catch (error) {
    return { ...base, ...empty, failure: (error as Error).message };
  } finally {
    if (!(load instanceof Error)) await load.stop();
    await server.stop();
  }
}
