/**
 * The shapes a task run is built from and reports with, apart from the run so the handler's
 * modules (start, cancel, cluster work) can name them without the run's code.
 * @internal
 */
import type { Message, SendMessageConfiguration, StreamResponse, Task, TaskState } from '@a2a-polyglot/model';
import type { Principal } from './auth.js';
import type { EventLog } from './event-log.js';
import type { Logger } from './logger.js';
import type { CallObserver } from './observer.js';
import type { PushDispatcher } from './push/push-dispatcher.js';
import type { TaskLease, TaskStore } from './task-store.js';

/** Collaborators of a run. */
export interface RunDeps {
  readonly store: TaskStore;
  readonly log: EventLog;
  readonly push: PushDispatcher;
  /** The run's logger, already carrying its `taskId` (the run's lines add no task id of their own). */
  readonly logger: Logger;
  /**
   * Durable mode (a store shared by several instances): every event is saved, under this
   * instance's lease, before it is logged, so any instance reads the same task and the
   * store's version check arbitrates between writers. Undefined: the in-process fast path
   * (events logged at once, the task saved on state changes only).
   */
  readonly lease?: TaskLease;
  /** Told of every run and every state the task enters (metrics, traces). */
  readonly observer?: CallObserver;
}

/** Who and what started the run. */
export interface RunInit {
  readonly tenant: string;
  readonly owner: string | undefined;
  readonly principal: Principal | undefined;
  readonly taskId: string;
  readonly contextId: string;
  readonly message: Message;
  /** The stored task for a follow-up (or an idle task being canceled); undefined for a new task. */
  readonly existing: { task: Task; version: number } | undefined;
  /**
   * A queued run of the message that created `existing`: the agent sees no prior task
   * (`ExecutionContext.task` undefined), as it would have on the instance that received it.
   */
  readonly createdFor?: boolean;
  readonly configuration: SendMessageConfiguration | undefined;
  readonly metadata: Record<string, unknown> | undefined;
  readonly extensions: readonly string[];
  /** The client called SendStreamingMessage (see `ExecutionContext.streaming`). */
  readonly streaming: boolean;
}

/** How a run first answered: with a message (no task) or by creating/continuing a task. */
export type FirstAnswer = { readonly kind: 'message'; readonly message: Message } | { readonly kind: 'task' };

/** An event applied to the live task, waiting (durable mode) to be saved with its group. */
export interface AppliedEvent {
  readonly event: StreamResponse;
  readonly seq: number;
  readonly state: TaskState | undefined;
  readonly creating: boolean;
}
