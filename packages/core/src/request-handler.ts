import {
  TaskState,
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetExtendedAgentCardRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  type ListTasksResponse,
  type SendMessageRequest,
  type SendMessageResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
} from '@a2a-polyglot/model';
import { A2AError, errors } from './a2a-error.js';
import type { AgentExecutor } from './agent-executor.js';
import type { Authenticator, Principal } from './auth.js';
import type { CallContext } from './call-context.js';
import { A2AErrorCode } from './error-code.js';
import { InMemoryEventLog, taskLogKey, type EventLog } from './event-log.js';
import { followTask, singleEventStream, type EventStream } from './event-stream.js';
import { InMemoryTaskStore } from './in-memory-task-store.js';
import { consoleLogger, type Logger } from './logger.js';
import { InMemoryPushConfigStore, type PushConfigStore } from './push/push-config-store.js';
import { PushDispatcher } from './push/push-dispatcher.js';
import { FetchPushSender, type PushSender } from './push/push-sender.js';
import { checkWebhookUrl } from './push/webhook-url.js';
import { checkOutputModes, checkVersion, negotiateExtensions, validateHistoryLength, validateMessage } from './request-validation.js';
import { taskView } from './task-events.js';
import { TaskRun, type RunDeps } from './task-run.js';
import type { TaskSignal, TaskSignals } from './task-signals.js';
import { isInterrupted, isSettled, isTerminal } from './task-state.js';
import { isVersionConflict, type StoredTask, type TaskLease, type TaskStore } from './task-store.js';
import { newId, sleep } from './util.js';

/** Everything a {@link RequestHandler} is built from. Only `card` and `executor` are required. */
export interface RequestHandlerOptions {
  /** The public agent card; its `capabilities` gate streaming, push and the extended card. */
  readonly card: AgentCard;
  readonly executor: AgentExecutor;
  /**
   * Where tasks live; the in-memory store when undefined. Without {@link cluster}, a running
   * task is saved once per burst of state changes, at the end of the turn, and readers of the
   * running task see the live copy: right for the in-memory store. Stores that outlive the
   * process belong with `cluster` set, where every event is saved before it is published.
   */
  readonly taskStore?: TaskStore;
  readonly eventLog?: EventLog;
  readonly pushConfigStore?: PushConfigStore;
  readonly pushSender?: PushSender;
  /** Authentication for every operation but card discovery. Off when undefined. */
  readonly authenticator?: Authenticator;
  /** Builds the extended card for an authenticated caller. */
  readonly extendedCard?: (principal: Principal | undefined) => AgentCard | Promise<AgentCard>;
  readonly logger?: Logger;
  /** Accept webhooks on loopback/private addresses (tests, single-host setups). Default false. */
  readonly allowPrivateWebhooks?: boolean;
  /** How long the agent's cancel hook may take before the task is marked CANCELED anyway. Default 5 s. */
  readonly cancelHookTimeoutMs?: number;
  /**
   * Durable mode, for stores that outlive the process or are shared by several instances
   * (SQLite, PostgreSQL). Off when undefined: the in-process fast path.
   */
  readonly cluster?: ClusterOptions;
}

/**
 * How an instance takes part in durable, multi-instance operation. With these set, every
 * task event is saved before it is logged (so every instance reads the same task), the
 * instance holds a lease on each task it executes, renews it while the task runs, and sweeps
 * tasks whose instance died; a cancel served elsewhere reaches the run through `signals`.
 */
export interface ClusterOptions {
  /** This instance's id (lease owner). Keep it stable across restarts to recover its tasks at once. */
  readonly instanceId: string;
  /** How long a lease lasts without renewal; renewed every third of it. Default 30 s. */
  readonly leaseMs?: number;
  /** How often to look for tasks whose lease ran out. Default 10 s. */
  readonly sweepIntervalMs?: number;
  /** How a cancel served by another instance reaches the run. Default: none (one instance). */
  readonly signals?: TaskSignals;
}

/**
 * The status message of a task whose instance stopped (crashed, was killed) while it ran: the
 * lease sweep moves such a task to FAILED with it.
 */
export const ABANDONED_TASK_MESSAGE = 'The instance running this task stopped before the task finished';

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_SWEEP_INTERVAL_MS = 10_000;
/** How long a resume waits for the log to catch up with a snapshot that is ahead of it. */
const LOG_CATCH_UP_MS = 1000;
/** Attempts of a cancel that keeps losing races against the running task's writes. */
const CANCEL_ATTEMPTS = 8;

/** What the preamble of every operation established. */
interface Caller {
  readonly principal: Principal | undefined;
  readonly owner: string | undefined;
  readonly tenant: string;
  readonly extensions: readonly string[];
}

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;
/** How long a follow-up waits for the previous run of an interrupted task to return. */
const FOLLOW_UP_WAIT_MS = 1000;

/**
 * Every A2A operation, implemented once. Bindings decode their wire format into the proto
 * request types, call one method here with a {@link CallContext}, and encode the result or
 * the {@link A2AError} in their own terms; no method here knows which wire carried the call.
 */
export class RequestHandler {
  readonly card: AgentCard;
  private readonly executor: AgentExecutor;
  private readonly store: TaskStore;
  private readonly log: EventLog;
  private readonly pushConfigs: PushConfigStore;
  private readonly push: PushDispatcher;
  private readonly logger: Logger;
  private readonly runs = new Map<string, TaskRun>();
  /** Keys of tasks whose follow-up or cancel is being set up (guards the async gap). */
  private readonly reserved = new Set<string>();
  private shuttingDown = false;
  private readonly lease: TaskLease | undefined;
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private unsubscribeSignals: (() => void) | undefined;
  private renewing = false;
  private sweeping: Promise<number> | undefined;

  constructor(private readonly options: RequestHandlerOptions) {
    this.card = options.card;
    this.executor = options.executor;
    this.logger = options.logger ?? consoleLogger('warn');
    this.store = options.taskStore ?? new InMemoryTaskStore();
    this.log = options.eventLog ?? new InMemoryEventLog();
    this.pushConfigs = options.pushConfigStore ?? new InMemoryPushConfigStore();
    this.push = new PushDispatcher(this.pushConfigs, options.pushSender ?? new FetchPushSender({ logger: this.logger }), this.logger);
    const cluster = options.cluster;
    if (cluster) {
      const leaseMs = cluster.leaseMs ?? DEFAULT_LEASE_MS;
      this.lease = { owner: cluster.instanceId, ttlMs: leaseMs };
      this.unsubscribeSignals = cluster.signals?.subscribe((signal) => this.onSignal(signal));
      if (this.store.renewLeases) this.every(Math.max(10, Math.floor(leaseMs / 3)), () => this.renewLeases());
      if (this.store.abandoned) this.every(cluster.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS, () => this.recoverAbandoned());
    }
  }

  private every(ms: number, job: () => Promise<unknown>): void {
    const timer = setInterval(() => void job().catch((error: unknown) => this.logger.warn('background task failed', { error })), ms);
    // Never keep a process alive for housekeeping.
    (timer as { unref?: () => void }).unref?.();
    this.timers.push(timer);
  }

  private deps(): RunDeps {
    return { store: this.store, log: this.log, push: this.push, logger: this.logger, lease: this.lease };
  }

  /** The public card (discovery is never authenticated). */
  getAgentCard(): AgentCard {
    return this.card;
  }

  // ---------------------------------------------------------------- messages

  /** SendMessage: blocking by default, `returnImmediately` returns after the first answer. */
  async sendMessage(request: SendMessageRequest, ctx: CallContext): Promise<SendMessageResponse> {
    const { run } = await this.startRun(request, ctx, false);
    // An agent that answers at once has settled by now: no waiting, no abort listener.
    const first = run.first.value ?? (await run.first.promise);
    if (first.kind === 'message') return { payload: { $case: 'message', value: first.message } };
    if (!request.configuration?.returnImmediately && !run.settled.settled) await waitOrAbort(run.settled.promise, ctx.signal);
    return { payload: { $case: 'task', value: await this.runTask(run, request.configuration?.historyLength) } };
  }

  /** The task of a run: its live view, or, once the run lost the task, what the store holds. */
  private async runTask(run: TaskRun, historyLength: number | undefined): Promise<Task> {
    const view = run.view(historyLength);
    if (view) return view.task;
    const stored = await this.store.get(run.tenant, run.taskId);
    if (!stored) throw run.failure ?? errors.taskNotFound(run.taskId);
    return taskView(stored.task, historyLength);
  }

  /**
   * SendStreamingMessage. Resolves once the agent has answered (pre-stream errors reject, so
   * bindings can answer them as plain errors); the stream then carries the Task first and
   * every event after it.
   */
  async sendStreamingMessage(request: SendMessageRequest, ctx: CallContext): Promise<EventStream> {
    this.requireStreaming();
    const { run, start } = await this.startRun(request, ctx, true);
    const first = await run.first.promise;
    if (first.kind === 'message') return singleEventStream({ payload: { $case: 'message', value: first.message } });
    // The task could not even be created (store down): a plain error, before any stream.
    if (run.failure && !run.view() && !start) await this.runTask(run, undefined);
    const snapshot = () => this.snapshot(run.tenant, run.taskId);
    const key = taskLogKey(run.tenant, run.taskId);
    if (start) return followTask(this.log, key, { first: { seq: start.seq, event: { payload: { $case: 'task', value: start.task } } }, afterSeq: start.seq }, snapshot, ctx.signal);
    return followTask(this.log, key, { afterSeq: 0 }, snapshot, ctx.signal);
  }

  /** Starts a run; for a follow-up, `start` is the task as the run found it (where its stream starts). */
  private async startRun(request: SendMessageRequest, ctx: CallContext, streaming: boolean): Promise<{ run: TaskRun; start: { task: Task; seq: number } | undefined }> {
    const caller = await this.begin(ctx, request.tenant);
    const message = validateMessage(request.message);
    validateHistoryLength(request.configuration?.historyLength, 'configuration.historyLength');
    checkOutputModes(request.configuration, this.card);
    const inlinePush = request.configuration?.taskPushNotificationConfig;
    if (inlinePush) this.requirePush();

    let existing: StoredTask | undefined;
    let key: string;
    let taskId: string;
    let contextId: string;
    if (message.taskId) {
      taskId = message.taskId;
      key = runKey(caller.tenant, taskId);
      const active = this.runs.get(key);
      // A run that just reported an interrupted state is usually a few ticks from returning.
      if (active?.state !== undefined && isInterrupted(active.state)) await within(active.ended.promise, FOLLOW_UP_WAIT_MS);
      if (this.runs.has(key) || this.reserved.has(key)) {
        throw errors.unsupported(`Task ${taskId} is still working; send follow-ups when it is input-required or auth-required`);
      }
      this.reserved.add(key);
      try {
        existing = await this.loadStored(caller, taskId);
      } finally {
        this.reserved.delete(key);
      }
      if (message.contextId && message.contextId !== existing.task.contextId) {
        throw errors.invalidParams(`contextId ${message.contextId} does not match task ${taskId} (context ${existing.task.contextId})`, [
          { field: 'message.contextId', description: 'does not match the task' },
        ]);
      }
      const state = existing.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
      if (isTerminal(state)) throw errors.unsupported(`Task ${taskId} is ${TaskState[state]}; terminal tasks accept no messages`);
      if (this.runs.has(key)) throw errors.unsupported(`Task ${taskId} is still working`);
      contextId = existing.task.contextId;
    } else {
      taskId = newId();
      key = runKey(caller.tenant, taskId);
      contextId = message.contextId || newId();
    }

    const newRun = (stored: StoredTask | undefined) =>
      new TaskRun(this.deps(), {
        tenant: caller.tenant,
        owner: caller.owner,
        principal: caller.principal,
        taskId,
        contextId,
        message: { ...message, taskId, contextId },
        existing: stored && { task: stored.task, version: stored.version },
        configuration: request.configuration,
        metadata: request.metadata,
        extensions: caller.extensions,
        streaming,
      });
    let run = newRun(existing);
    if (existing) run = await this.claimFollowUp(caller, key, run, newRun);
    this.runs.set(key, run);
    if (inlinePush) {
      try {
        await this.savePushConfig(caller.tenant, { ...inlinePush, taskId });
      } catch (error) {
        this.runs.delete(key);
        run.finish();
        throw error;
      }
    }
    const start = existing ? run.view() : undefined;
    void run
      .execute(this.executor)
      .catch((error: unknown) => this.logger.error('run failed', { taskId, error }))
      .finally(() => {
        if (this.runs.get(key) === run) this.runs.delete(key);
      });
    if (inlinePush) {
      void run.first.promise.then((first) => {
        if (first.kind === 'message') void this.pushConfigs.deleteAll(caller.tenant, taskId);
      });
    }
    return { run, start };
  }

  /**
   * Records a follow-up as the run's first write. In durable mode that write claims the task's
   * lease, which fails while another instance's run of the same task is still ending (it keeps
   * the lease a few ticks after reporting input-required): retried, on a fresh copy, for up to
   * {@link FOLLOW_UP_WAIT_MS}.
   */
  private async claimFollowUp(caller: Caller, key: string, run: TaskRun, newRun: (stored: StoredTask) => TaskRun): Promise<TaskRun> {
    const deadline = Date.now() + FOLLOW_UP_WAIT_MS;
    this.reserved.add(key);
    try {
      for (;;) {
        try {
          await run.recordFollowUp();
          return run;
        } catch (error) {
          if (!isVersionConflict(error)) throw error;
          if (Date.now() > deadline) throw errors.unsupported(`Task ${run.taskId} is still working; send follow-ups when it is input-required or auth-required`);
        }
        await sleep(25);
        const stored = await this.loadStored(caller, run.taskId);
        const state = stored.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
        if (isTerminal(state)) throw errors.unsupported(`Task ${run.taskId} is ${TaskState[state]}; terminal tasks accept no messages`);
        if (!isInterrupted(state)) throw errors.unsupported(`Task ${run.taskId} is still working; send follow-ups when it is input-required or auth-required`);
        run = newRun(stored);
      }
    } finally {
      this.reserved.delete(key);
    }
  }

  // ---------------------------------------------------------------- tasks

  /** GetTask with `historyLength` semantics of spec §7. */
  async getTask(request: GetTaskRequest, ctx: CallContext): Promise<Task> {
    const caller = await this.begin(ctx, request.tenant);
    const historyLength = validateHistoryLength(request.historyLength);
    requireId(request.id, 'id');
    const live = this.runs.get(runKey(caller.tenant, request.id));
    if (live?.view() && (await this.visible(caller, request.id))) return live.view(historyLength)!.task;
    const stored = await this.loadStored(caller, request.id);
    return taskView(stored.task, historyLength);
  }

  /** ListTasks: newest status first, cursor pagination, caller-scoped. */
  async listTasks(request: ListTasksRequest, ctx: CallContext): Promise<ListTasksResponse> {
    const caller = await this.begin(ctx, request.tenant);
    const historyLength = validateHistoryLength(request.historyLength);
    const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
    if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw errors.invalidParams(`pageSize must be between 1 and ${MAX_PAGE_SIZE}`, [{ field: 'pageSize', description: `1..${MAX_PAGE_SIZE}` }]);
    }
    if (request.statusTimestampAfter !== undefined && Number.isNaN(Date.parse(request.statusTimestampAfter))) {
      throw errors.invalidParams('statusTimestampAfter must be an RFC 3339 timestamp', [{ field: 'statusTimestampAfter', description: 'not a timestamp' }]);
    }
    const page = await this.store.list({
      tenant: caller.tenant,
      owner: caller.owner,
      contextId: request.contextId || undefined,
      state: request.status === TaskState.TASK_STATE_UNSPECIFIED ? undefined : request.status,
      statusTimestampAfter: request.statusTimestampAfter === undefined ? undefined : new Date(request.statusTimestampAfter).toISOString(),
      pageSize,
      pageToken: request.pageToken,
    });
    const includeArtifacts = request.includeArtifacts ?? false;
    const tasks = page.tasks.map((stored) => {
      const live = this.runs.get(runKey(caller.tenant, stored.task.id))?.view();
      return taskView(live?.task ?? stored.task, historyLength, includeArtifacts);
    });
    return { tasks, nextPageToken: page.nextPageToken, pageSize, totalSize: page.totalSize };
  }

  /** CancelTask: best effort, returns the task as CANCELED; terminal ⇒ TaskNotCancelable. */
  async cancelTask(request: CancelTaskRequest, ctx: CallContext): Promise<Task> {
    const caller = await this.begin(ctx, request.tenant);
    requireId(request.id, 'id');
    const key = runKey(caller.tenant, request.id);
    const active = this.runs.get(key);
    if (active && (await this.visible(caller, request.id))) {
      try {
        return await active.cancel(this.executor, this.options.cancelHookTimeoutMs ?? 5000);
      } catch (error) {
        // Lost a race with another instance's write: cancel from the store below.
        if (!isVersionConflict(error)) throw error;
      }
    }
    if (this.reserved.has(key)) throw new A2AError(A2AErrorCode.TaskNotCancelable, `Task ${request.id} is changing state; retry`);
    this.reserved.add(key);
    try {
      for (let attempt = 1; ; attempt++) {
        const stored = await this.loadStored(caller, request.id);
        const state = stored.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
        if (isTerminal(state)) {
          throw new A2AError(A2AErrorCode.TaskNotCancelable, `Task ${request.id} is ${TaskState[state]} and cannot be canceled`, { metadata: { taskId: request.id } });
        }
        const idle = this.idleRun(stored, caller.principal, request.metadata, caller.extensions);
        try {
          // The agent may hold upstream work for an interrupted task (a run awaiting approval).
          const task = await idle.cancel(this.executor, this.options.cancelHookTimeoutMs ?? 5000);
          // Whichever instance runs the task stops it (its next write would be refused anyway).
          const signals = this.options.cluster?.signals;
          if (signals) void signals.publish({ kind: 'canceled', tenant: caller.tenant, taskId: request.id, origin: this.lease!.owner }).catch((error: unknown) => this.logger.warn('publishing a cancel signal failed', { taskId: request.id, error }));
          return task;
        } catch (error) {
          // The running task wrote in between: reload and try again.
          if (!isVersionConflict(error) || attempt >= CANCEL_ATTEMPTS) throw error;
        } finally {
          idle.finish();
        }
      }
    } finally {
      this.reserved.delete(key);
    }
  }

  /** A run with no agent over a stored task: cancel of an idle task, failing an abandoned one. */
  private idleRun(stored: StoredTask, principal: Principal | undefined, metadata: Record<string, unknown> | undefined, extensions: readonly string[]): TaskRun {
    return new TaskRun(this.deps(), {
      tenant: stored.tenant,
      owner: stored.owner,
      principal,
      taskId: stored.task.id,
      contextId: stored.task.contextId,
      message: stored.task.history[stored.task.history.length - 1] ?? ({} as never),
      existing: { task: stored.task, version: stored.version },
      configuration: undefined,
      metadata,
      extensions,
      streaming: false,
    });
  }

  /**
   * SubscribeToTask: the current Task first, then live events. With `resumeAfterSeq` (SSE
   * Last-Event-ID, the resume field of gRPC/WebSocket) it replays exactly the events after
   * that number while the log holds them, even for a task that has since ended; otherwise it
   * falls back to the snapshot.
   */
  async subscribeToTask(request: SubscribeToTaskRequest, ctx: CallContext, resumeAfterSeq?: number): Promise<EventStream> {
    this.requireStreaming();
    const caller = await this.begin(ctx, request.tenant);
    requireId(request.id, 'id');
    const snapshot = await this.snapshotFor(caller, request.id);
    const snapshotSource = () => this.snapshot(caller.tenant, request.id);
    const key = taskLogKey(caller.tenant, request.id);
    if (resumeAfterSeq !== undefined && resumeAfterSeq >= 0 && resumeAfterSeq <= snapshot.seq) {
      let read = await this.log.readAfter(key, resumeAfterSeq, 1);
      if (!read.gap && read.events.length === 0 && resumeAfterSeq < snapshot.seq) {
        // The snapshot is ahead of the log: an event is being saved and not yet logged (durable
        // mode saves first). Give the log a moment to catch up before giving up on the resume.
        const catchUp = new AbortController();
        const timer = setTimeout(() => catchUp.abort(), LOG_CATCH_UP_MS);
        ctx.signal?.addEventListener('abort', () => catchUp.abort(), { once: true });
        await this.log.waitFor(key, resumeAfterSeq, catchUp.signal);
        clearTimeout(timer);
        read = await this.log.readAfter(key, resumeAfterSeq, 1);
      }
      const terminal = isTerminal(snapshot.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
      // Resume only when the log still holds what comes after the cursor (or nothing came yet).
      if (!read.gap && (read.events.length > 0 || (!terminal && resumeAfterSeq === snapshot.seq))) {
        return followTask(this.log, key, { afterSeq: resumeAfterSeq }, snapshotSource, ctx.signal);
      }
    }
    const state = snapshot.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (isTerminal(state)) throw errors.unsupported(`Task ${request.id} is ${TaskState[state]}; terminal tasks cannot be subscribed to`);
    return followTask(this.log, key, { first: { seq: snapshot.seq, event: { payload: { $case: 'task', value: snapshot.task } } }, afterSeq: snapshot.seq }, snapshotSource, ctx.signal);
  }

  // ---------------------------------------------------------------- push configs

  async createTaskPushNotificationConfig(request: TaskPushNotificationConfig, ctx: CallContext): Promise<TaskPushNotificationConfig> {
    this.requirePush();
    const caller = await this.begin(ctx, request.tenant);
    requireId(request.taskId, 'taskId');
    await this.loadStoredOrLive(caller, request.taskId);
    return this.savePushConfig(caller.tenant, request);
  }

  async getTaskPushNotificationConfig(request: GetTaskPushNotificationConfigRequest, ctx: CallContext): Promise<TaskPushNotificationConfig> {
    this.requirePush();
    const caller = await this.begin(ctx, request.tenant);
    requireId(request.taskId, 'taskId');
    requireId(request.id, 'id');
    await this.loadStoredOrLive(caller, request.taskId);
    const config = await this.pushConfigs.get(caller.tenant, request.taskId, request.id);
    if (!config) throw new A2AError(A2AErrorCode.TaskNotFound, `Push notification config ${request.id} not found for task ${request.taskId}`, { metadata: { taskId: request.taskId, configId: request.id } });
    return config;
  }

  async listTaskPushNotificationConfigs(request: ListTaskPushNotificationConfigsRequest, ctx: CallContext): Promise<ListTaskPushNotificationConfigsResponse> {
    this.requirePush();
    const caller = await this.begin(ctx, request.tenant);
    requireId(request.taskId, 'taskId');
    await this.loadStoredOrLive(caller, request.taskId);
    const all = await this.pushConfigs.list(caller.tenant, request.taskId);
    const pageSize = request.pageSize > 0 ? Math.min(request.pageSize, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
    const offset = request.pageToken ? Number.parseInt(request.pageToken, 10) : 0;
    if (!Number.isInteger(offset) || offset < 0 || String(offset) !== (request.pageToken || '0')) {
      throw errors.invalidParams('Invalid pageToken', [{ field: 'pageToken', description: 'not a token this server issued' }]);
    }
    const configs = all.slice(offset, offset + pageSize);
    return { configs, nextPageToken: offset + pageSize < all.length ? String(offset + pageSize) : '' };
  }

  /** Idempotent: deleting a missing config succeeds (spec §4). */
  async deleteTaskPushNotificationConfig(request: DeleteTaskPushNotificationConfigRequest, ctx: CallContext): Promise<void> {
    this.requirePush();
    const caller = await this.begin(ctx, request.tenant);
    requireId(request.taskId, 'taskId');
    requireId(request.id, 'id');
    await this.loadStoredOrLive(caller, request.taskId);
    await this.pushConfigs.delete(caller.tenant, request.taskId, request.id);
  }

  // ---------------------------------------------------------------- card

  /** GetExtendedAgentCard: gated by `capabilities.extendedAgentCard`, always authenticated when auth is on. */
  async getExtendedAgentCard(request: GetExtendedAgentCardRequest, ctx: CallContext): Promise<AgentCard> {
    const caller = await this.begin(ctx, request.tenant);
    if (!this.card.capabilities?.extendedAgentCard) throw errors.unsupported('This agent does not offer an extended agent card');
    if (!this.options.extendedCard) throw new A2AError(A2AErrorCode.ExtendedAgentCardNotConfigured);
    return this.options.extendedCard(caller.principal);
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Stops accepting work (new calls get Unavailable), gives running tasks `graceMs` to
   * finish, then fails the rest visibly with a status message, and flushes push deliveries.
   */
  async shutdown(graceMs = 10_000): Promise<void> {
    this.shuttingDown = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    this.unsubscribeSignals?.();
    this.unsubscribeSignals = undefined;
    // Cancel the race timers once settled, so a host that waits for the event loop to drain
    // does not stay alive for the rest of the grace period.
    const timers = new AbortController();
    const wait = (ms: number) => sleep(ms, timers.signal).catch(() => undefined);
    try {
      const running = [...this.runs.values()];
      await Promise.race([Promise.all(running.map((r) => r.ended.promise)), wait(graceMs)]);
      await Promise.all([...this.runs.values()].map((r) => r.abort('The server shut down before the task finished')));
      await Promise.race([this.push.idle(), wait(Math.min(graceMs, 5000))]);
    } finally {
      timers.abort();
    }
  }

  /** Number of tasks currently executing (health, tests). */
  get activeRuns(): number {
    return this.runs.size;
  }

  // ---------------------------------------------------------------- durable mode

  /**
   * The lease sweep: moves tasks whose instance stopped to FAILED ({@link ABANDONED_TASK_MESSAGE})
   * and frees stale leases on interrupted tasks. Runs periodically in durable mode; call it
   * once at startup with `includeOwn` to recover at once what this instance (same instance id)
   * was running when it died. Concurrent sweeps on several instances are safe: the store's
   * version check lets one of them win. Resolves with the number of tasks failed.
   */
  recoverAbandoned(options: { readonly includeOwn?: boolean } = {}): Promise<number> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = this.sweep(options.includeOwn ?? false).finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweep(includeOwn: boolean): Promise<number> {
    const store = this.store;
    if (!store.abandoned || !this.lease || this.shuttingDown) return 0;
    const limit = 100;
    let failed = 0;
    // Bounded: a few batches per pass; the next pass picks up the rest.
    for (let batch = 0; batch < 10; batch++) {
      const found = await store.abandoned({ owner: includeOwn ? this.lease.owner : undefined, limit });
      let progressed = false;
      for (const stored of found) {
        if (this.runs.has(runKey(stored.tenant, stored.task.id))) continue;
        const state = stored.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
        try {
          if (!isSettled(state)) {
            const run = this.idleRun(stored, undefined, undefined, []);
            try {
              if (await run.abort(ABANDONED_TASK_MESSAGE)) {
                failed++;
                progressed = true;
                this.logger.warn('failed a task whose instance stopped', { taskId: stored.task.id, tenant: stored.tenant });
              }
            } finally {
              run.finish();
            }
          } else {
            // Interrupted or terminal with a leftover lease: just let the lease go.
            await store.save(stored, stored.version);
            progressed = true;
          }
        } catch (error) {
          if (!isVersionConflict(error)) throw error;
        }
      }
      if (found.length < limit || !progressed) break;
    }
    return failed;
  }

  /** Renews this instance's leases; a run whose lease is gone was taken over and stops. */
  private async renewLeases(): Promise<void> {
    const store = this.store;
    if (!store.renewLeases || !this.lease || this.renewing) return;
    const held = [...this.runs.values()].filter((run) => run.holdsLease);
    if (held.length === 0) return;
    this.renewing = true;
    try {
      const lost = await store.renewLeases(this.lease.owner, held.map((run) => ({ tenant: run.tenant, taskId: run.taskId })), this.lease.ttlMs);
      for (const ref of lost) {
        const run = this.runs.get(runKey(ref.tenant, ref.taskId));
        if (run?.holdsLease) void run.takenOver(this.executor, this.options.cancelHookTimeoutMs ?? 5000, 'The task was taken over by another instance');
      }
    } finally {
      this.renewing = false;
    }
  }

  private onSignal(signal: TaskSignal): void {
    if (signal.origin === this.lease?.owner || signal.kind !== 'canceled') return;
    const run = this.runs.get(runKey(signal.tenant, signal.taskId));
    if (run) void run.takenOver(this.executor, this.options.cancelHookTimeoutMs ?? 5000, 'Task canceled');
  }

  // ---------------------------------------------------------------- helpers

  /** The preamble of every operation: availability, version, extensions, authentication, tenant. */
  private async begin(ctx: CallContext, requestTenant: string): Promise<Caller> {
    if (this.shuttingDown) throw new A2AError(A2AErrorCode.Unavailable, 'The server is shutting down');
    checkVersion(ctx);
    const extensions = negotiateExtensions(ctx, this.card);
    const principal = this.options.authenticator ? await this.options.authenticator.authenticate(ctx) : undefined;
    return { principal, owner: principal?.id, tenant: ctx.pathTenant ?? requestTenant ?? '', extensions };
  }

  private requireStreaming(): void {
    if (!this.card.capabilities?.streaming) throw errors.unsupported('This agent does not support streaming');
  }

  private requirePush(): void {
    if (!this.card.capabilities?.pushNotifications) throw new A2AError(A2AErrorCode.PushNotificationNotSupported);
  }

  private async savePushConfig(tenant: string, config: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    if (!config.url) throw errors.invalidParams('url is required', [{ field: 'url', description: 'required' }]);
    checkWebhookUrl(config.url, this.options.allowPrivateWebhooks ?? false);
    if (config.authentication && !config.authentication.scheme) {
      throw errors.invalidParams('authentication.scheme is required', [{ field: 'authentication.scheme', description: 'required' }]);
    }
    const saved: TaskPushNotificationConfig = { ...config, id: config.id || newId(), tenant };
    await this.pushConfigs.put(tenant, saved);
    return saved;
  }

  /** Loads a stored task the caller may see, or throws TaskNotFound (never "forbidden"). */
  private async loadStored(caller: Caller, taskId: string): Promise<StoredTask> {
    const stored = await this.store.get(caller.tenant, taskId);
    if (!stored || (caller.owner !== undefined && stored.owner !== caller.owner)) throw errors.taskNotFound(taskId);
    return stored;
  }

  private async loadStoredOrLive(caller: Caller, taskId: string): Promise<void> {
    if (this.runs.get(runKey(caller.tenant, taskId))?.view() && (await this.visible(caller, taskId))) return;
    await this.loadStored(caller, taskId);
  }

  private async visible(caller: Caller, taskId: string): Promise<boolean> {
    if (caller.owner === undefined) return true;
    const stored = await this.store.get(caller.tenant, taskId);
    if (!stored || stored.owner !== caller.owner) throw errors.taskNotFound(taskId);
    return true;
  }

  /** The freshest consistent (task, seq) pair: the live run if any, else the store. */
  private async snapshot(tenant: string, taskId: string): Promise<{ task: Task; seq: number } | undefined> {
    const live = this.runs.get(runKey(tenant, taskId))?.view();
    if (live) return live;
    const stored = await this.store.get(tenant, taskId);
    return stored && { task: taskView(stored.task), seq: stored.version };
  }

  private async snapshotFor(caller: Caller, taskId: string): Promise<{ task: Task; seq: number }> {
    const live = this.runs.get(runKey(caller.tenant, taskId))?.view();
    if (live && (await this.visible(caller, taskId))) return live;
    const stored = await this.loadStored(caller, taskId);
    return { task: taskView(stored.task), seq: stored.version };
  }
}

function runKey(tenant: string, taskId: string): string {
  return `${tenant}\u0000${taskId}`;
}

function requireId(value: string, field: string): void {
  if (!value) throw errors.invalidParams(`${field} is required`, [{ field, description: 'required' }]);
}

/** Waits for `promise` at most `ms` (never rejects). */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Waits for `promise`, or until the caller's signal aborts (the run itself goes on). */
function waitOrAbort(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new A2AError(A2AErrorCode.DeadlineExceeded, 'The caller went away'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new A2AError(A2AErrorCode.DeadlineExceeded, 'The caller went away'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      reject,
    );
  });
}
