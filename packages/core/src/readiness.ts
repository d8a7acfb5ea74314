/**
 * One dependency a service needs to do its work (the task store, the Redis event log), with
 * a cheap probe. The host (the executor) knows its backends; the core only runs the probes.
 */
export interface ReadinessCheck {
  /** Short name shown in the readiness report (`store`, `event-log`). */
  readonly name: string;
  /** Resolves when the dependency answers; rejects (or never settles) when it does not. */
  probe(): Promise<void>;
}

/** The outcome of one probe. */
export interface ReadinessCheckResult {
  readonly name: string;
  readonly ok: boolean;
  /** Why the probe failed, as one line (no stack). */
  readonly error?: string;
}

/** Whether the service should receive traffic, and why not. */
export interface ReadinessReport {
  readonly ready: boolean;
  /** True once shutdown began: the service finishes what it has and takes nothing new. */
  readonly draining: boolean;
  readonly checks: readonly ReadinessCheckResult[];
}

/** Settings of {@link checkReadiness}. */
export interface ReadinessOptions {
  /** Whether shutdown has begun (e.g. `() => handler.draining`). */
  readonly draining: () => boolean;
  readonly checks?: readonly ReadinessCheck[];
  /** A probe that has not answered after this long counts as failed. Default 2000. */
  readonly timeoutMs?: number;
}

/**
 * Runs every probe at once, each bounded by `timeoutMs`, and folds them into one report:
 * ready only when not draining and every dependency answered. Never rejects, so a health
 * endpoint can always answer (a hung backend must not hang the probe that reports it).
 */
export async function checkReadiness(options: ReadinessOptions): Promise<ReadinessReport> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const draining = options.draining();
  const checks = await Promise.all((options.checks ?? []).map((check) => runProbe(check, timeoutMs)));
  return { ready: !draining && checks.every((c) => c.ok), draining, checks };
}

async function runProbe(check: ReadinessCheck, timeoutMs: number): Promise<ReadinessCheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref?.();
  });
  try {
    await Promise.race([check.probe(), timeout]);
    return { name: check.name, ok: true };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { name: check.name, ok: false, error: text.split('\n')[0] };
  } finally {
    clearTimeout(timer);
  }
}
