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
import type { CallContext } from './call-context.js';
import { ClusterCoordinator } from './cluster-coordinator.js';
import { A2AErrorCode } from './error-code.js';
import { InMemoryEventLog, taskLogKey, type EventLog } from './event-log.js';
import { followTask, singleEventStream, type EventStream } from './event-stream.js';
import { InMemoryTaskStore } from './in-memory-task-store.js';
import { estimateBytes } from './estimate-size.js';
import type { CallObserver } from './observer.js';
import type { OperationHandler } from './operation-handler.js';
import { silentLogger, type Logger } from './logger.js';
import { InMemoryPushConfigStore } from './push/push-config-store.js';
import { PushConfigOperations } from './push/push-config-operations.js';
import { PushDispatcher } from './push/push-dispatcher.js';
import { HttpPushSender } from './push/push-sender.js';
import { cancelWhenCallerLeaves, DEFAULT_BACKGROUND_EXECUTION, refuseReturnImmediately } from './caller-bound-run.js';
import { runKey, waitOrAbort, within, type Caller } from './request-handler-helpers.js';
import type { Principal } from './auth.js';
import { DEFAULT_CANCEL_HOOK_TIMEOUT_MS, type RequestHandlerOptions } from './request-handler-options.js';
import { addressBudgetKey } from './rate-limit.js';
import { checkOutputModes, checkVersion, negotiateExtensions, validateHistoryLength, validateMessage } from './request-validation.js';
import { idleRun, TaskCanceler } from './task-cancel.js';
import { taskView } from './task-events.js';
import { TaskQueries } from './task-queries.js';
import { TaskRun, type RunDeps } from './task-run.js';
import { isInterrupted, isTerminal } from './task-state.js';
import { isVersionConflict, type StoredTask, type TaskStore } from './task-store.js';
import { newId, sleep } from './util.js';
import { isThenable } from './serial-queue.js';

export { ABANDONED_TASK_MESSAGE } from './cluster-coordinator.js';
export type { ClusterOptions, RequestHandlerOptions } from './request-handler-options.js';
export { DEFAULT_LIST_TASKS_MAX_BYTES, MAX_PAGE_SIZE } from './request-handler-options.js';

/** How long a follow-up waits for the previous run of an interrupted task to return. */
const FOLLOW_UP_WAIT_MS = 1000;

/**
 * Every A2A operation, implemented once. Bindings decode their wire format into the proto
 * request types, call one method here with a {@link CallContext}, and encode the result or
 * the {@link A2AError} in their own terms; no method here knows which wire carried the call.
 *
 * This class runs the preamble every operation shares and owns the task runs (start,
 * follow-up, shutdown); reads ({@link TaskQueries}), CancelTask ({@link TaskCanceler}), push
 * configs ({@link PushConfigOperations}) and durable-mode housekeeping
 * ({@link ClusterCoordinator}) live in their own modules.
 */
export class RequestHandler implements OperationHandler {
  readonly card: AgentCard;
  /**
   * Whether bindings reject unknown request members ({@link RequestHandlerOptions.strictRequests}).
   * Exposed because decoding happens in the bindings, before the handler is called; each
   * passes it to `decodeJsonRequest`.
   */
  readonly strictRequests: boolean;
  /** {@link RequestHandlerOptions.backgroundExecution}: false ties each send's task to its caller. */
  readonly backgroundExecution: boolean;
  private readonly executor: AgentExecutor;
  private readonly store: TaskStore;
  private readonly log: EventLog;
  private readonly push: PushDispatcher;
  private readonly logger: Logger;
  /** Metrics / traces seam (see CallObserver); the OPERATIONS table reports every call to it. */
  readonly observer: CallObserver | undefined;
  /** Runs executing in this process, by {@link runKey}: added and removed here only. */
  private readonly runs = new Map<string, TaskRun>();
  /** Keys of tasks whose follow-up or cancel is being set up (guards the async gap). */
  private readonly reserved = new Set<string>();
  private shuttingDown = false;
  private readonly tasks: TaskQueries;
  private readonly pushConfigs: PushConfigOperations;
  private readonly canceler: TaskCanceler;
  /** Lease renewal, the sweep of abandoned tasks and cancel signals: durable mode only. */
  private readonly cluster: ClusterCoordinator | undefined;

  constructor(private readonly options: RequestHandlerOptions) {
    this.card = options.card;
    this.strictRequests = options.strictRequests ?? false;
    this.backgroundExecution = options.backgroundExecution ?? DEFAULT_BACKGROUND_EXECUTION;
    this.executor = options.executor;
    this.logger = options.logger ?? silentLogger;
    this.observer = options.observer;
    this.store = options.taskStore ?? new InMemoryTaskStore();
    this.log = options.eventLog ?? new InMemoryEventLog();
    const pushConfigStore = options.pushConfigStore ?? new InMemoryPushConfigStore();
    const allowPrivateNetworks = options.allowPrivateWebhooks ?? false;
    const pushSender = options.pushSender ?? new HttpPushSender({ logger: this.logger, allowPrivateNetworks });
    this.push = new PushDispatcher(pushConfigStore, pushSender, this.logger);
    this.tasks = new TaskQueries(this.store, this.log, this.runs, options.listTasksMaxBytes);
    this.pushConfigs = new PushConfigOperations(pushConfigStore, this.tasks, allowPrivateNetworks);
    const { executor, store, runs, logger } = this;
    const cancelHookTimeoutMs = options.cancelHookTimeoutMs ?? DEFAULT_CANCEL_HOOK_TIMEOUT_MS;
    const runDeps = () => this.deps();
    if (options.cluster) {
      const idleRunOf = (stored: StoredTask) => idleRun(runDeps(), stored, undefined, undefined, []);
      this.cluster = new ClusterCoordinator({ cluster: options.cluster, store, runs, executor, cancelHookTimeoutMs, logger, idleRun: idleRunOf });
    }
    this.canceler = new TaskCanceler({ runs, reserved: this.reserved, tasks: this.tasks, executor, cancelHookTimeoutMs, cluster: this.cluster, runDeps });
  }

  private deps(): RunDeps {
    return { store: this.store, log: this.log, push: this.push, logger: this.logger, lease: this.cluster?.lease, observer: this.observer };
  }

  /** The public card (discovery is never authenticated). */
  getAgentCard(): AgentCard {
    return this.card;
  }

  // ---------------------------------------------------------------- messages

  /** SendMessage: blocking by default, `returnImmediately` returns after the first answer. */
  async sendMessage(request: SendMessageRequest, ctx: CallContext): Promise<SendMessageResponse> {
    const { run, caller } = await this.startRun(request, ctx, false);
    // An agent that answers at once has settled by now: no waiting, no abort listener.
    const first = run.first.value ?? (await run.first.promise);
    if (first.kind === 'message') return { payload: { $case: 'message', value: first.message } };
    if (!this.backgroundExecution) this.followCaller(run, caller, ctx);
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
    const { run, start, caller } = await this.startRun(request, ctx, true);
    const first = await run.first.promise;
    if (first.kind === 'message') return singleEventStream({ payload: { $case: 'message', value: first.message } });
    // The stream is the caller: a client that drops it is gone (see backgroundExecution).
    if (!this.backgroundExecution) this.followCaller(run, caller, ctx);
    // The task could not even be created (store down): a plain error, before any stream.
    if (run.failure && !run.view() && !start) await this.runTask(run, undefined);
    const snapshot = () => this.tasks.snapshot(run.tenant, run.taskId);
    const key = taskLogKey(run.tenant, run.taskId);
    if (start)
      return followTask(
        this.log,
        key,
        { first: { seq: start.seq, event: { payload: { $case: 'task', value: start.task } } }, afterSeq: start.seq },
        snapshot,
        ctx.signal,
      );
    return followTask(this.log, key, { afterSeq: 0 }, snapshot, ctx.signal);
  }

  /** Background execution off: the run's task is canceled, as by CancelTask, when the caller leaves first. */
  private followCaller(run: TaskRun, caller: Caller, ctx: CallContext): void {
    cancelWhenCallerLeaves(run, ctx.signal, () => this.canceler.cancel(caller, { tenant: run.tenant, id: run.taskId, metadata: undefined }), this.logger);
  }

  /** Starts a run; for a follow-up, `start` is the task as the run found it (where its stream starts). */
  private async startRun(
    request: SendMessageRequest,
    ctx: CallContext,
    streaming: boolean,
  ): Promise<{ run: TaskRun; start: { task: Task; seq: number } | undefined; caller: Caller }> {
    const begun = this.begin(ctx, request.tenant);
    const caller = isThenable(begun) ? await begun : begun;
    // Refused after authentication, before any work; streams ignore returnImmediately (spec).
    if (!streaming && !this.backgroundExecution) refuseReturnImmediately(request);
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
      // Ownership before any rule that depends on the task: someone else's task answers
      // TaskNotFound, exactly like an unknown id, never "still working".
      await this.tasks.visible(caller, taskId);
      const active = this.runs.get(key);
      // A run that just reported an interrupted state is usually a few ticks from returning.
      if (active?.state !== undefined && isInterrupted(active.state)) await within(active.ended.promise, FOLLOW_UP_WAIT_MS);
      if (this.runs.has(key) || this.reserved.has(key)) {
        throw errors.unsupported(`Task ${taskId} is still working; send follow-ups when it is input-required or auth-required`);
      }
      this.reserved.add(key);
      try {
        existing = await this.tasks.loadStored(caller, taskId);
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

    // A stream is read from the event log: with the log unreachable the client would get an
    // error and no task id while the task ran anyway (and its retry ran it twice). Refuse
    // before anything is stored or executed.
    if (streaming) await this.requireEventLog(caller.tenant, taskId);
    // A bounded store full of running tasks refuses a new one here, before it has an id anywhere.
    if (!existing) this.store.admitNewTask?.(caller.tenant, estimateBytes(message));

    // The run logs to the call that started it (binding, request id, trace id) and its task
    // (already on the call's logger when the message named the task).
    const runLogger = message.taskId && ctx.logger ? ctx.logger : (ctx.logger ?? this.logger).child({ taskId });
    const newRun = (stored: StoredTask | undefined) =>
      new TaskRun(
        { ...this.deps(), logger: runLogger },
        {
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
        },
      );
    let run = newRun(existing);
    if (existing) run = await this.claimFollowUp(caller, key, run, newRun);
    this.runs.set(key, run);
    if (inlinePush) {
      try {
        await this.pushConfigs.save(caller.tenant, { ...inlinePush, taskId });
      } catch (error) {
        this.runs.delete(key);
        run.finish();
        throw error;
      }
    }
    const start = existing ? run.view() : undefined;
    // One reaction for both outcomes (catch + finally cost two more promises per request).
    const forget = (): void => {
      if (this.runs.get(key) === run) this.runs.delete(key);
    };
    void run.execute(this.executor).then(forget, (error: unknown) => {
      runLogger.error({ err: error }, 'run failed');
      forget();
    });
    if (inlinePush) {
      void run.first.promise.then((first) => {
        if (first.kind === 'message') void this.pushConfigs.deleteAll(caller.tenant, taskId);
      });
    }
    return { run, start, caller };
  }

  /**
   * Answers Unavailable unless the event log answers a read of the task's log now. Streaming
   * sends call it before any work, so a client refused for an unreachable log (e.g. Redis down)
   * knows that nothing was stored or executed and can retry safely.
   */
  private async requireEventLog(tenant: string, taskId: string): Promise<void> {
    try {
      await this.log.lastSeq(taskLogKey(tenant, taskId));
    } catch (error) {
      if (error instanceof A2AError) throw error;
      throw new A2AError(A2AErrorCode.Unavailable, 'The event log is unavailable; retry later', { cause: error });
    }
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
          if (Date.now() > deadline)
            throw errors.unsupported(`Task ${run.taskId} is still working; send follow-ups when it is input-required or auth-required`);
        }
        await sleep(25);
        const stored = await this.tasks.loadStored(caller, run.taskId);
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
    return this.tasks.get(await this.begin(ctx, request.tenant), request);
  }

  /** ListTasks: newest status first, cursor pagination, caller-scoped. */
  async listTasks(request: ListTasksRequest, ctx: CallContext): Promise<ListTasksResponse> {
    return this.tasks.list(await this.begin(ctx, request.tenant), request);
  }

  /** CancelTask: best effort, returns the task as CANCELED; terminal ⇒ TaskNotCancelable. */
  async cancelTask(request: CancelTaskRequest, ctx: CallContext): Promise<Task> {
    return this.canceler.cancel(await this.begin(ctx, request.tenant), request);
  }

  /**
   * SubscribeToTask: the current Task first, then live events. With `resumeAfterSeq` (SSE
   * Last-Event-ID, the resume field of gRPC/WebSocket) it replays exactly the events after
   * that number while the log holds them, even for a task that has since ended; otherwise it
   * falls back to the snapshot.
   */
  async subscribeToTask(request: SubscribeToTaskRequest, ctx: CallContext, resumeAfterSeq?: number): Promise<EventStream> {
    this.requireStreaming();
    return this.tasks.subscribe(await this.begin(ctx, request.tenant), request, ctx, resumeAfterSeq);
  }

  // ---------------------------------------------------------------- push configs

  async createTaskPushNotificationConfig(request: TaskPushNotificationConfig, ctx: CallContext): Promise<TaskPushNotificationConfig> {
    this.requirePush();
    return this.pushConfigs.create(await this.begin(ctx, request.tenant), request);
  }

  async getTaskPushNotificationConfig(request: GetTaskPushNotificationConfigRequest, ctx: CallContext): Promise<TaskPushNotificationConfig> {
    this.requirePush();
    return this.pushConfigs.get(await this.begin(ctx, request.tenant), request);
  }

  async listTaskPushNotificationConfigs(request: ListTaskPushNotificationConfigsRequest, ctx: CallContext): Promise<ListTaskPushNotificationConfigsResponse> {
    this.requirePush();
    return this.pushConfigs.list(await this.begin(ctx, request.tenant), request);
  }

  /** Idempotent: deleting a missing config succeeds (spec §4). */
  async deleteTaskPushNotificationConfig(request: DeleteTaskPushNotificationConfigRequest, ctx: CallContext): Promise<void> {
    this.requirePush();
    return this.pushConfigs.delete(await this.begin(ctx, request.tenant), request);
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
   * finish, then fails the rest visibly with a status message (`reason`: a host that removes one
   * agent says so instead of "the server shut down"), and flushes push deliveries.
   */
  async shutdown(graceMs = 10_000, reason = 'The server shut down before the task finished'): Promise<void> {
    this.shuttingDown = true;
    this.cluster?.stop();
    // Cancel the race timers once settled, so a host that waits for the event loop to drain
    // does not stay alive for the rest of the grace period.
    const timers = new AbortController();
    const wait = (ms: number) => sleep(ms, timers.signal).catch(() => undefined);
    try {
      const running = [...this.runs.values()];
      await Promise.race([Promise.all(running.map((r) => r.ended.promise)), wait(graceMs)]);
      await Promise.all([...this.runs.values()].map((r) => r.abort(reason)));
      await Promise.race([this.push.idle(), wait(Math.min(graceMs, 5000))]);
    } finally {
      timers.abort();
    }
  }

  /** True once {@link shutdown} began: new calls are refused; health probes report not ready. */
  get draining(): boolean {
    return this.shuttingDown;
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
    return this.cluster ? this.cluster.recoverAbandoned(options.includeOwn ?? false) : Promise.resolve(0);
  }

  // ---------------------------------------------------------------- helpers

  /**
   * The preamble of every operation: availability, version, extensions, rate limits and
   * authentication, tenant. Answers synchronously (or throws) when there is neither an
   * authenticator nor a rate limiter: no promise on that path. Only async methods call it, so
   * a throw here still reaches the caller as a rejection.
   */
  private begin(ctx: CallContext, requestTenant: string): Caller | Promise<Caller> {
    if (this.shuttingDown) throw new A2AError(A2AErrorCode.Unavailable, 'The server is shutting down');
    checkVersion(ctx);
    const extensions = negotiateExtensions(ctx, this.card);
    const tenant = ctx.pathTenant ?? requestTenant ?? '';
    if (!this.options.authenticator && !this.options.rateLimiter) return { principal: undefined, owner: undefined, tenant, extensions };
    return this.admit(ctx).then((principal) => ({ principal, owner: principal?.id, tenant, extensions }));
  }

  /**
   * Rate limits and authentication of one call: the address budget is spent before
   * authentication (so bad credentials are limited too), the identity budget after it.
   */
  private async admit(ctx: CallContext): Promise<Principal | undefined> {
    const limiter = this.options.rateLimiter;
    if (limiter && ctx.remoteAddress) await limiter.consume('address', addressBudgetKey(ctx.remoteAddress));
    const principal = this.options.authenticator ? await this.options.authenticator.authenticate(ctx) : undefined;
    if (limiter && principal) await limiter.consume('identity', principal.id);
    return principal;
  }

  private requireStreaming(): void {
    if (!this.card.capabilities?.streaming) throw errors.unsupported('This agent does not support streaming');
  }

  private requirePush(): void {
    if (!this.card.capabilities?.pushNotifications) throw new A2AError(A2AErrorCode.PushNotificationNotSupported);
  }
}
