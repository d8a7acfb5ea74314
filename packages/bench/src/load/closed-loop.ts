/** Outcome of one operation (a unary call, or one whole stream). */
export interface OpOutcome {
  readonly ok: boolean;
  /** Events received (1 for a unary call). */
  readonly events: number;
  /** hrtime (ns) when the first event arrived, for streams. */
  readonly firstEventAt?: bigint;
  readonly error?: string;
}

/**
 * One closed-loop worker: runs one operation at a time and reports it through `done`
 * (never synchronously). A slot owns its connection and reopens it after a failure.
 */
export interface Slot {
  run(done: (outcome: OpOutcome) => void): void;
  close(): void;
}

/** Timing of a closed-loop run, as a load job asks for it. */
export interface LoopTiming {
  /** Unrecorded load first. */
  readonly warmupMs: number;
  /** Length of the measured window. */
  readonly durationMs: number;
  /** Keep the window open past `durationMs` until this many ops completed, up to `maxWindowMs`. */
  readonly minOps?: number;
  readonly maxWindowMs?: number;
  /** Stop the window as soon as this many ops completed in it (sustained run). */
  readonly stopAfterOps?: number;
  /** How long to wait for ops still in flight after the window. Default 10 s. */
  readonly drainMs?: number;
  /** Report progress this often during the window (default 1 s). */
  readonly progressEveryMs?: number;
}

/** Timing of a closed-loop run and the callbacks that watch it. */
export interface LoopOptions extends LoopTiming {
  /** Called when the window opens and closes (to read the server's CPU time). */
  readonly onWindowOpen?: () => void;
  readonly onWindowClose?: () => void;
  /** Called every `progressEveryMs` during the window with the ops completed so far. */
  readonly onProgress?: (ops: number, elapsedMs: number) => void;
}

/** What one window measured. */
export interface LoopStats {
  readonly ops: number;
  readonly errors: number;
  readonly events: number;
  readonly windowMs: number;
  /** Latency of every op completed in the window, µs. */
  readonly latenciesUs: number[];
  /** Time to first event of every stream completed in the window, µs. */
  readonly ttfeUs: number[];
  /** Smallest and largest event count of a successful op in the window. */
  readonly eventsMin: number;
  readonly eventsMax: number;
  readonly warmupErrors: number;
  readonly firstError?: string;
  /** Ops still in flight when the drain gave up. */
  readonly abandoned: number;
}

const RETRY_DELAY_MS = 20;

/**
 * Runs `slots` in a closed loop: each starts its next operation as soon as the previous one
 * ends. Counts every operation that completes inside the window and its latency (hrtime,
 * µs resolution); after the window no new operation starts and those in flight drain.
 */
export function runClosedLoop(slots: readonly Slot[], options: LoopOptions): Promise<LoopStats> {
  return new Promise((resolve) => {
    type Phase = 'warmup' | 'window' | 'drain' | 'done';
    let phase: Phase = 'warmup';
    let windowStart = 0n;
    let windowEnd = 0n;
    let inFlight = 0;
    let ops = 0;
    let errors = 0;
    let warmupErrors = 0;
    let events = 0;
    let eventsMin = Number.POSITIVE_INFINITY;
    let eventsMax = 0;
    let firstError: string | undefined;
    const latenciesUs: number[] = [];
    const ttfeUs: number[] = [];
    const timers: NodeJS.Timeout[] = [];

    const launch = (slot: Slot) => {
      if (phase === 'drain' || phase === 'done') return;
      inFlight++;
      const t0 = process.hrtime.bigint();
      slot.run((outcome) => {
        inFlight--;
        const t1 = process.hrtime.bigint();
        if (phase === 'window') {
          if (outcome.ok) {
            ops++;
            events += outcome.events;
            if (outcome.events < eventsMin) eventsMin = outcome.events;
            if (outcome.events > eventsMax) eventsMax = outcome.events;
            latenciesUs.push(Number(t1 - t0) / 1000);
            if (outcome.firstEventAt !== undefined) ttfeUs.push(Number(outcome.firstEventAt - t0) / 1000);
            if (options.stopAfterOps !== undefined && ops >= options.stopAfterOps) closeWindow();
          } else {
            errors++;
            firstError ??= outcome.error ?? 'failed';
          }
        } else if (phase === 'warmup' && !outcome.ok) {
          warmupErrors++;
          firstError ??= outcome.error ?? 'failed';
        }
        if (phase === 'drain') {
          if (inFlight === 0) finish();
          return;
        }
        if (outcome.ok) launch(slot);
        else timers.push(setTimeout(() => launch(slot), RETRY_DELAY_MS));
      });
    };

    const openWindow = () => {
      if (phase !== 'warmup') return;
      options.onWindowOpen?.();
      windowStart = process.hrtime.bigint();
      phase = 'window';
      timers.push(setTimeout(maybeClose, options.durationMs));
      const onProgress = options.onProgress;
      if (onProgress) {
        const every = options.progressEveryMs ?? 1000;
        const tick = () => {
          if (phase !== 'window') return;
          onProgress(ops, Number(process.hrtime.bigint() - windowStart) / 1e6);
          timers.push(setTimeout(tick, every));
        };
        timers.push(setTimeout(tick, every));
      }
    };

    const maybeClose = () => {
      if (phase !== 'window') return;
      const elapsed = Number(process.hrtime.bigint() - windowStart) / 1e6;
      if (options.minOps !== undefined && ops < options.minOps && elapsed < (options.maxWindowMs ?? options.durationMs)) {
        timers.push(setTimeout(maybeClose, 50));
        return;
      }
      closeWindow();
    };

    const closeWindow = () => {
      if (phase !== 'window') return;
      windowEnd = process.hrtime.bigint();
      phase = 'drain';
      options.onWindowClose?.();
      if (inFlight === 0) finish();
      else timers.push(setTimeout(finish, options.drainMs ?? 10_000));
    };

    const finish = () => {
      if (phase === 'done') return;
      phase = 'done';
      for (const t of timers) clearTimeout(t);
      const abandoned = inFlight;
      resolve({
        ops,
        errors,
        events,
        windowMs: Number(windowEnd - windowStart) / 1e6,
        latenciesUs,
        ttfeUs,
        eventsMin: ops > 0 ? eventsMin : 0,
        eventsMax,
        warmupErrors,
        firstError,
        abandoned,
      });
    };

    for (const slot of slots) launch(slot);
    if (options.warmupMs > 0) timers.push(setTimeout(openWindow, options.warmupMs));
    else openWindow();
  });
}
