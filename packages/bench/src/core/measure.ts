/** CPU time of `calls` sequential calls of `op`, µs (user + system of this process). */
export async function cpuOfCalls(calls: number, op: (i: number) => Promise<void>, offset = 0): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await op(offset + i);
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

/** Figures of one case over its repetitions: µs of CPU per unit, each repetition separately. */
export interface CoreCaseFigures {
  readonly perUnitUs: readonly number[];
  readonly calls: number;
}

/**
 * Runs `op` `warmupCalls` times unmeasured (JIT, inline caches, pools), then `reps` windows of
 * `calls` calls, each measured by process CPU time. Why CPU and not wall time: the budget is
 * about the work of one core, and CPU time is what another process on the machine disturbs
 * least. A GC before each window (when exposed) keeps one window's garbage out of the next.
 */
export async function measureCase(
  op: (i: number) => Promise<void>,
  options: { calls: number; warmupCalls: number; reps: number; unitsPerCall: number },
): Promise<CoreCaseFigures> {
  const gc = (globalThis as { gc?: () => void }).gc;
  let offset = 0;
  await cpuOfCalls(options.warmupCalls, op, offset);
  offset += options.warmupCalls;
  const perUnitUs: number[] = [];
  for (let rep = 0; rep < options.reps; rep++) {
    gc?.();
    const us = await cpuOfCalls(options.calls, op, offset);
    offset += options.calls;
    perUnitUs.push(us / (options.calls * options.unitsPerCall));
  }
  return { perUnitUs, calls: options.calls };
}
