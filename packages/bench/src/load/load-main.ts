/**
 * Entry of a load-generator child process. Answers `run` (a closed-loop measurement),
 * `idle-open` / `idle-close` (hold many idle streams) from the orchestrator.
 */
import { emitEvent, serveIpc } from '../ipc.js';
import { summarizeLatencies } from '../stats.js';
import { checkOutcome, type Observed } from './checks.js';
import { runClosedLoop } from './closed-loop.js';
import { openIdleStreams, type IdleHold } from './idle.js';
import type { IdleJob, IdleResult, LoadJob, LoadResult } from './job.js';
import { readCpuTicks } from './proc-stat.js';
import { createSlots } from './slots.js';

/** Runs one closed-loop job and summarizes it. */
export async function runJob(job: LoadJob, onProgress?: (ops: number, elapsedMs: number) => void): Promise<LoadResult> {
  let seen: Observed | undefined;
  const { slots, close } = createSlots(job.request, job.concurrency, (o) => (seen = o));
  let cpuStart: number | undefined;
  let cpuEnd: number | undefined;
  try {
    const stats = await runClosedLoop(slots, {
      warmupMs: job.warmupMs,
      durationMs: job.durationMs,
      minOps: job.minOps,
      maxWindowMs: job.maxWindowMs,
      stopAfterOps: job.stopAfterOps,
      drainMs: job.drainMs,
      progressEveryMs: job.progressEveryMs,
      onProgress,
      onWindowOpen: () => (cpuStart = readCpuTicks(job.serverPid)),
      onWindowClose: () => (cpuEnd = readCpuTicks(job.serverPid)),
    });
    const serverCpuUs = cpuStart !== undefined && cpuEnd !== undefined ? ((cpuEnd - cpuStart) * 1e6) / job.clkTck : undefined;
    return {
      ops: stats.ops,
      errors: stats.errors,
      events: stats.events,
      windowMs: stats.windowMs,
      latency: summarizeLatencies(stats.latenciesUs),
      ttfe: summarizeLatencies(stats.ttfeUs),
      eventsMin: stats.eventsMin,
      eventsMax: stats.eventsMax,
      serverCpuUs,
      warmupErrors: stats.warmupErrors,
      firstError: stats.firstError,
      abandoned: stats.abandoned,
      check: seen ? checkOutcome(job.request.check, seen) : 'not checked (no operation completed)',
    };
  } finally {
    close();
  }
}

if (require.main === module) {
  let hold: IdleHold | undefined;
  serveIpc({
    run: (job: LoadJob) => runJob(job, job.progressEveryMs ? (ops, elapsedMs) => emitEvent('progress', { ops, elapsedMs }) : undefined),
    'idle-open': async (job: IdleJob): Promise<IdleResult> => {
      hold?.close();
      const opened = await openIdleStreams(job);
      hold = opened.hold;
      return opened.result;
    },
    'idle-close': () => {
      hold?.close();
      hold = undefined;
      return true;
    },
  });
  emitEvent('ready');
}
