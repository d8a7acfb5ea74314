import type { Logger } from './logger.js';
import { DEFAULT_QUEUE_CONCURRENCY, DEFAULT_QUEUE_POLL_MS, type ClaimedRun, type ClaimEnd, type QueueOptions } from './run-queue.js';

/** What a {@link QueueWorker} works with. */
export interface QueueWorkerDeps {
  readonly options: QueueOptions;
  /** This instance's id: the owner of its claims (the cluster's instance id). */
  readonly worker: string;
  /** How long a claim lasts without a heartbeat; renewed every third of it. */
  readonly leaseMs: number;
  readonly logger: Logger;
  /** Runs one claimed entry to its end here, and says what becomes of the entry (see {@link ClaimEnd}). */
  readonly execute: (claimed: ClaimedRun) => Promise<ClaimEnd>;
}

/**
 * The worker side of the run queue for one agent: claims entries while it has room
 * ({@link QueueOptions.concurrency}), heartbeats the claims it holds, and acks each when its
 * run ends (or hands it back, see {@link ClaimEnd}). Idle, it looks again every `pollMs`, or at once when this process enqueued.
 * @internal
 */
export class QueueWorker {
  private readonly held = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;
  private wake: (() => void) | undefined;
  private readonly heartbeatTimer: ReturnType<typeof setInterval>;
  private readonly loop: Promise<void>;

  constructor(private readonly deps: QueueWorkerDeps) {
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), Math.max(10, Math.floor(deps.leaseMs / 3)));
    (this.heartbeatTimer as { unref?: () => void }).unref?.();
    this.loop = this.claimLoop();
  }

  /** Something was enqueued here: look for work now rather than at the next poll. */
  notify(): void {
    this.wake?.();
  }

  /** Stops claiming; resolves once the claim loop returned (runs already claimed go on to their end). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  /** Resolves when every run claimed so far has ended (and its claim was acked or let go). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
    clearInterval(this.heartbeatTimer);
  }

  private async claimLoop(): Promise<void> {
    const { options, worker, leaseMs, logger } = this.deps;
    const concurrency = options.concurrency ?? DEFAULT_QUEUE_CONCURRENCY;
    while (!this.stopped) {
      if (this.held.size >= concurrency) {
        await this.pause();
        continue;
      }
      let claimed: ClaimedRun | undefined;
      try {
        claimed = await options.queue.claim(options.agent, worker, leaseMs);
      } catch (error) {
        logger.warn({ err: error }, 'claiming from the run queue failed');
      }
      if (this.stopped && claimed) {
        // Stopped while claiming: leave the entry to its lease, another worker takes it.
        break;
      }
      if (claimed) this.start(claimed);
      else await this.pause();
    }
  }

  private start(claimed: ClaimedRun): void {
    const { options, worker, logger } = this.deps;
    this.held.add(claimed.id);
    const done = this.deps
      .execute(claimed)
      .catch((error: unknown): ClaimEnd => {
        logger.error({ err: error, taskId: claimed.run.taskId }, 'a queued run failed');
        return 'ack';
      })
      .then(async (end) => {
        if (end === 'ack') await options.queue.ack(claimed.id, worker);
        else if (end === 'release') await options.queue.release(claimed.id, worker);
      })
      .catch((error: unknown) =>
        logger.warn({ err: error, taskId: claimed.run.taskId }, 'acking or releasing a queued run failed; it will be claimed again once its lease runs out'),
      )
      .finally(() => {
        this.held.delete(claimed.id);
        this.running.delete(done);
        this.wake?.();
      });
    this.running.add(done);
  }

  /** Waits for the poll interval, or less when woken. */
  private pause(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.deps.options.pollMs ?? DEFAULT_QUEUE_POLL_MS);
      this.wake = done;
    });
  }

  private async heartbeat(): Promise<void> {
    const { options, worker, leaseMs, logger } = this.deps;
    if (this.held.size === 0) return;
    try {
      const lost = await options.queue.heartbeat(worker, [...this.held], leaseMs);
      if (lost.length > 0) logger.warn({ entries: lost }, 'run queue claims were lost; their runs go on under their task leases');
    } catch (error) {
      logger.warn({ err: error }, 'renewing run queue claims failed');
    }
  }
}
