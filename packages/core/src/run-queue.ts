import type { Message, SendMessageConfiguration } from '@a2a-polyglot/model';
import type { Principal } from './auth.js';

/**
 * Everything a worker needs to run a send that another instance received: the task it was
 * created as (the receiving instance stored it first, so every instance can read and follow
 * it) and the call's message and parameters, as the agent would have seen them there.
 */
export interface QueuedRun {
  /** The agent the send was for: a worker claims only its own agents' runs. */
  readonly agent: string;
  readonly tenant: string;
  readonly taskId: string;
  /** Principal that owns the task (scopes every read), when authentication is on. */
  readonly owner: string | undefined;
  readonly principal: Principal | undefined;
  /** The message, with `taskId` and `contextId` filled in. */
  readonly message: Message;
  readonly configuration: SendMessageConfiguration | undefined;
  readonly metadata: Record<string, unknown> | undefined;
  readonly extensions: readonly string[];
  /** The client called SendStreamingMessage (see `ExecutionContext.streaming`). */
  readonly streaming: boolean;
  /** The message answers an interrupted task (a follow-up) rather than creating one. */
  readonly followUp: boolean;
  /**
   * The task's version when it was enqueued: a claim that finds the task interrupted at another
   * version knows its run already ended (only the ack was lost).
   */
  readonly version: number;
}

/** A run a worker claimed: it holds the claim's lease until it acks or stops heartbeating. */
export interface ClaimedRun {
  /** The queue's id of the entry (ack and heartbeat name it). */
  readonly id: string;
  readonly run: QueuedRun;
  /** How many times the entry was claimed, this claim included: above 1, a worker holding it stopped. */
  readonly attempt: number;
}

/**
 * What becomes of a claimed entry once its run is over here: `ack` (done: removed), `keep`
 * (left to its lease, claimed again once that runs out: e.g. the task was still leased by the
 * worker that stopped), `release` (handed back by a worker shutting down: claimable at once).
 */
export type ClaimEnd = 'ack' | 'keep' | 'release';

/**
 * The work queue of an executor whose instances share their stores: the instance that receives
 * a send stores the task and enqueues its run; a worker on any instance claims it under a lease
 * it renews while the run lasts and acks when the run ends. A claim whose lease runs out (its
 * worker was killed) can be claimed again, by any worker. Backed by an existing engine
 * (PostgreSQL `FOR UPDATE SKIP LOCKED` in `@a2a-polyglot/stores`), never by the core.
 */
export interface RunQueue {
  enqueue(run: QueuedRun): Promise<void>;
  /**
   * Claims the oldest entry for `agent` that no live lease holds (never claimed, or its lease
   * ran out), for `worker`, with a lease of `leaseMs`; undefined when there is none.
   */
  claim(agent: string, worker: string, leaseMs: number): Promise<ClaimedRun | undefined>;
  /** Extends the leases `worker` holds on these entries; returns the ids it no longer holds. */
  heartbeat(worker: string, ids: readonly string[], leaseMs: number): Promise<string[]>;
  /** The run ended (or needs no run): the entry is removed, if `worker` still holds it. */
  ack(id: string, worker: string): Promise<void>;
  /**
   * `worker` hands the entry back (it is shutting down mid-run): claimable at once by any
   * worker, its attempts kept, so the next claim is a resumption. No-op unless `worker` holds it.
   */
  release(id: string, worker: string): Promise<void>;
  /** True while an entry for this task waits or is claimed: its recovery belongs to the queue, not the lease sweep. */
  holds(tenant: string, taskId: string): Promise<boolean>;
}

/**
 * How a {@link RequestHandler} uses a {@link RunQueue} (`RequestHandlerOptions.queue`; needs
 * `cluster`): whether sends it receives are enqueued, whether it works the queue, and what a
 * run whose worker stopped becomes.
 */
export interface QueueOptions {
  readonly queue: RunQueue;
  /** The agent's name in the queue; every instance serving the agent must use the same. */
  readonly agent: string;
  /** Sends received here are enqueued instead of run here (a frontend). Default true. */
  readonly enqueue?: boolean;
  /** This instance claims and runs queued runs of the agent (a worker). Default true. */
  readonly work?: boolean;
  /**
   * The agent may be run again from the start when its worker stopped mid-run: the task is
   * resumed on another worker ({@link RESUMED_TASK_MESSAGE}) instead of failed. A worker killed
   * outright leaves its claim to run out; one shutting down gracefully hands its unfinished
   * runs back at once. Right for an agent whose effects are idempotent. Default false: such a
   * task is FAILED, as without a queue.
   */
  readonly retryable?: boolean;
  /** How often an idle worker looks for work; an enqueue in this process wakes it at once. Default 100 ms. */
  readonly pollMs?: number;
  /** Most queued runs this instance executes at once. Default 16. */
  readonly concurrency?: number;
}

/** Default of {@link QueueOptions.pollMs}. */
export const DEFAULT_QUEUE_POLL_MS = 100;

/** Default of {@link QueueOptions.concurrency}. */
export const DEFAULT_QUEUE_CONCURRENCY = 16;

/**
 * The status message of the WORKING event a resumed run writes first: its worker stopped and
 * the run starts again from the task's message on another worker (retryable agents only).
 */
export const RESUMED_TASK_MESSAGE = 'The worker running this task stopped; the task was resumed on another worker';
