import type { Logger } from '@a2a-polyglot/core';

/**
 * What a shutdown may take beyond `shutdownGraceMs`: failing the tasks still running, flushing
 * push deliveries (at most 5 s), draining gRPC calls (3 s) and closing the stores. Documented
 * in the README: SIGTERM ends the process within `shutdownGraceMs` + this margin, whatever the
 * backends do (an unreachable Redis or database must not keep the process alive).
 */
export const SHUTDOWN_MARGIN_MS = 10_000;

/** The whole close, for a given grace period: {@link SHUTDOWN_MARGIN_MS} beyond it. */
export function shutdownDeadlineMs(graceMs: number): number {
  return graceMs + SHUTDOWN_MARGIN_MS;
}

/**
 * Runs the close steps in order, each bounded by the time left until `deadline` (epoch ms):
 * a step that fails or runs out of time is logged and the next one runs, so one hanging
 * backend cannot keep the others (or the process) from closing. Resolves by the deadline.
 */
export async function closeSteps(steps: ReadonlyArray<readonly [name: string, run: () => Promise<unknown>]>, deadline: number, logger: Logger): Promise<void> {
  for (const [name, run] of steps) {
    const left = Math.max(0, deadline - Date.now());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left)));
    try {
      const outcome = await Promise.race([Promise.resolve().then(run), timedOut]);
      if (outcome === 'timeout') logger.warn(`Shutdown: ${name} did not finish before the shutdown deadline; going on without it`);
    } catch (error) {
      logger.warn({ err: (error as Error)?.message ?? String(error) }, `Shutdown: ${name} failed`);
    } finally {
      clearTimeout(timer);
    }
  }
}
