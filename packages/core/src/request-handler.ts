import type { AgentCard, SendMessageRequest, SendMessageResponse, Task } from '@a2a-polyglot/model';
import { A2AError, errors } from './a2a-error.js';
import type { AgentExecutor } from './agent-executor.js';
import { type BindingName, type CallContext, wireVersionOf } from './call-context.js';
import { beginCall, chargeArrival, requirePush, requireStreaming } from './call-preamble.js';
import { cancelWhenCallerLeaves, DEFAULT_BACKGROUND_EXECUTION } from './caller-bound-run.js';
import { ClusterCoordinator } from './cluster-coordinator.js';
import { A2AErrorCode } from './error-code.js';
import type { EventLog } from './event-log.js';
import { singleEventStream, type EventStream } from './event-stream.js';
import { DEFAULT_IDEMPOTENCY_WINDOW_MS, IdempotentSends, type ClaimedSend } from './idempotent-sends.js';
import { InMemoryEventLog } from './in-memory-event-log.js';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store.js';
import { InMemoryTaskStore } from './in-memory-task-store.js';
import { silentLogger, type Logger } from './logger.js';
import type { CallObserver } from './observer.js';
import type { OperationInterceptor } from './operation-interceptor.js';
// The operations' request and response types, from the one table of them.
import type { OperationRequest as Req, OperationResponse as Res } from './operation-types.js';
import type { ServedHandler } from './served-handler.js';
import { InMemoryPushConfigStore } from './push/push-config-store.js';
import { PushConfigOperations } from './push/push-config-operations.js';
import { PushDispatcher } from './push/push-dispatcher.js';
import { DefaultPushSender } from './push/default-push-sender.js';
import type { WebhookNetwork } from './push/webhook-transport.js';
import { waitOrAbort, type Caller } from './request-handler-helpers.js';
import { DEFAULT_CANCEL_HOOK_TIMEOUT_MS, type RequestHandlerOptions } from './request-handler-options.js';
import { RunRegistry } from './run-registry.js';
import { RunStarter, type StartedRun } from './run-start.js';
import { ConcurrencyCaps } from './concurrency-caps.js';
import { isThenable } from './serial-queue.js';
import { idleRun, TaskCanceler } from './task-cancel.js';
import { taskView } from './task-events.js';
import { answerTask } from './task-generation.js';
import { TaskQueries } from './task-queries.js';
import type { RunDeps, TaskRun } from './task-run.js';
import type { StoredTask, TaskLease, TaskStore } from './task-store.js';
import { QueueWorker } from './queue-worker.js';
import { executeClaimed } from './queued-run.js';
import { awaitTaskSettled } from './queued-send.js';
import type { QueuedRun, QueueOptions } from './run-queue.js';
import { sleep } from './util.js';

export { ABANDONED_TASK_MESSAGE } from './cluster-coordinator.js';
export type { ClusterOptions, RequestHandlerOptions } from './request-handler-options.js';
export { DEFAULT_LIST_TASKS_MAX_BYTES, MAX_PAGE_SIZE } from './request-handler-options.js';

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
export class RequestHandler implements ServedHandler {
  readonly card: AgentCard;
  /**
   * Whether bindings reject unknown request members ({@link RequestHandlerOptions.strictRequests}).
   * Exposed because decoding happens in the bindings, before the handler is called; each
   * passes it to `decodeJsonRequest`.
   */
  readonly strictRequests: boolean;
  /** {@link RequestHandlerOptions.backgroundExecution}: false ties each send's task to its caller. */
  readonly backgroundExecution: boolean;
  /**
   * {@link RequestHandlerOptions.experimental11}: the handler serves the draft A2A 1.1. Exposed
   * so the card lists 1.1 interfaces exactly when calls naming 1.1 are served.
   */
  readonly experimental11: boolean;
  private readonly executor: AgentExecutor;
  private readonly store: TaskStore;
  private readonly log: EventLog;
  private readonly push: PushDispatcher;
  /** The sender when the options name none (undefined when they do): see {@link useWebhookNetwork}. */
  private readonly defaultPushSender: DefaultPushSender | undefined;
  private readonly logger: Logger;
  /** Metrics / traces seam (see CallObserver); the OPERATIONS table reports every call to it. */
  readonly observer: CallObserver | undefined;
  /** {@link RequestHandlerOptions.interceptors}: the OPERATIONS table runs every call it dispatches through them. */
  readonly interceptors: readonly OperationInterceptor[];
  /** Runs executing in this process, and follow-ups or cancels being set up (the run starter registers its own). */
  private readonly runs = new RunRegistry();
  private shuttingDown = false;
  private readonly tasks: TaskQueries;
  private readonly pushConfigs: PushConfigOperations;
  private readonly canceler: TaskCanceler;
  /** Lease renewal, the sweep of abandoned tasks and cancel signals: durable mode only. */
  private readonly cluster: ClusterCoordinator | undefined;
  private readonly starter: RunStarter;
  /** Idempotent sends ({@link RequestHandlerOptions.idempotencyWindowMs}); undefined when off. */
  private readonly sends: IdempotentSends | undefined;
  /** Claims and runs queued sends ({@link RequestHandlerOptions.queue} with `work`); undefined otherwise. */
  private readonly worker: QueueWorker | undefined;
  /** Runs of claimed entries of a retryable agent executing here: a shutdown hands them back to the queue. */
  private readonly retryableRuns = new Set<TaskRun>();

  constructor(private readonly options: RequestHandlerOptions) {
    this.card = options.card;
    this.strictRequests = options.strictRequests ?? false;
    this.backgroundExecution = options.backgroundExecution ?? DEFAULT_BACKGROUND_EXECUTION;
    this.experimental11 = options.experimental11 ?? false;
    this.executor = options.executor;
    this.logger = options.logger ?? silentLogger;
    this.observer = options.observer;
    this.interceptors = options.interceptors ?? [];
    this.store = options.taskStore ?? new InMemoryTaskStore();
    this.log = options.eventLog ?? new InMemoryEventLog();
    const pushConfigStore = options.pushConfigStore ?? new InMemoryPushConfigStore();
    const allowPrivateNetworks = options.allowPrivateWebhooks ?? false;
    const defaultSender = new DefaultPushSender({ logger: this.logger, allowPrivateNetworks, encodings: options.webhookEncodings }, options.webhookNetwork);
    this.defaultPushSender = options.pushSender ? undefined : defaultSender;
    const pushSender = options.pushSender ?? defaultSender;
    this.push = new PushDispatcher(pushConfigStore, pushSender, this.logger, this.observer);
    this.tasks = new TaskQueries(this.store, this.log, this.runs, options.listTasksMaxBytes, options.longPollMaxMs);
    this.pushConfigs = new PushConfigOperations(pushConfigStore, this.tasks, allowPrivateNetworks, this.push);
    const { executor, store, runs, logger } = this;
    const cancelHookTimeoutMs = options.cancelHookTimeoutMs ?? DEFAULT_CANCEL_HOOK_TIMEOUT_MS;
    const runDeps = () => this.deps();
    const idleRunOf = (stored: StoredTask) => idleRun(runDeps(), stored, undefined, undefined, []);
    const queue = options.queue;
    if (queue && !options.cluster) throw new Error('RequestHandlerOptions.queue needs cluster: queued runs are claimed through the shared store');
    if (options.cluster) {
      // With a queue, a task whose entry it still holds is recovered by the queue, not failed by the sweep.
      const queued = queue && ((stored: StoredTask) => queue.queue.holds(stored.tenant, stored.task.id));
      this.cluster = new ClusterCoordinator({ cluster: options.cluster, store, runs, executor, cancelHookTimeoutMs, logger, idleRun: idleRunOf, queued });
    }
    this.canceler = new TaskCanceler({ runs, tasks: this.tasks, executor, cancelHookTimeoutMs, cluster: this.cluster, runDeps });
    const { card, log, backgroundExecution, tasks, pushConfigs } = this;
    const acceptAnyInputMode = options.acceptAnyInputMode ?? false;
    const caps = new ConcurrencyCaps(options.maxConcurrentTasks, options.maxConcurrentTasksPerIdentity);
    this.worker = queue && this.cluster && queue.work !== false ? this.startWorker(queue, this.cluster.lease) : undefined;
    const enqueue = queue && queue.enqueue !== false ? this.enqueueOn(queue) : undefined;
    this.starter = new RunStarter({
      card,
      executor,
      store,
      log,
      logger,
      backgroundExecution,
      acceptAnyInputMode,
      runs,
      caps,
      tasks,
      pushConfigs,
      runDeps,
      enqueue,
      idleRun: idleRunOf,
    });
    const windowMs = options.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
    if (windowMs > 0) this.sends = new IdempotentSends(options.idempotencyStore ?? new InMemoryIdempotencyStore(), windowMs, { tasks, runs, log }, logger);
  }

  /** The worker of {@link RequestHandlerOptions.queue}: claims the agent's queued runs and executes them here. */
  private startWorker(queue: QueueOptions, lease: TaskLease): QueueWorker {
    const { executor, store, logger, runs } = this;
    const runDeps = () => this.deps();
    const idleRunOf = (stored: StoredTask) => idleRun(runDeps(), stored, undefined, undefined, []);
    const retryable = queue.retryable ?? false;
    const deps = {
      agentName: this.card.name,
      executor,
      store,
      log: this.log,
      logger,
      runs,
      retryable,
      runDeps,
      idleRun: idleRunOf,
      retryableRuns: this.retryableRuns,
    };
    return new QueueWorker({ options: queue, worker: lease.owner, leaseMs: lease.ttlMs, logger, execute: (claimed) => executeClaimed(deps, claimed) });
  }

  /** How the run starter enqueues a send: under the queue's agent name, waking this instance's worker. */
  private enqueueOn(queue: QueueOptions): (run: Omit<QueuedRun, 'agent'>) => Promise<void> {
    return async (run) => {
      await queue.queue.enqueue({ ...run, agent: queue.agent });
      this.worker?.notify();
    };
  }

  private deps(): RunDeps {
    return { store: this.store, log: this.log, push: this.push, logger: this.logger, lease: this.cluster?.lease, observer: this.observer };
  }

  /**
   * Offers the network the default push sender should use, when the options named neither
   * `pushSender` nor `webhookNetwork` and no delivery has started; the first offer wins. Called
   * by the entry point that serves the handler: the node:http ones of `@a2a-polyglot/server`
   * offer the pinned node:http network (DNS pinning), so a handler served on Node keeps it
   * while the core itself imports no node:http; unoffered, the default is `fetch` (no pinning).
   */
  useWebhookNetwork(network: WebhookNetwork): void {
    this.defaultPushSender?.offer(network);
  }

  /**
   * Resolves when every webhook delivery queued so far has finished (retries included). For
   * runtimes that end a request's work with its response: a Worker hands it to
   * `ctx.waitUntil`, so deliveries that outlive the response are not cut off.
   */
  pushIdle(): Promise<void> {
    return this.push.idle();
  }

  /** The public card (discovery is never authenticated). */
  getAgentCard(): AgentCard {
    return this.card;
  }

  /**
   * Spends the address point of a request from `remoteAddress` that `binding` has just
   * received, before reading or decoding it ({@link chargeArrival}); the binding marks the
   * request's call context `addressCharged`. Undefined when no address limit applies.
   */
  chargeArrival(binding: BindingName, remoteAddress: string | undefined): Promise<void> | undefined {
    return chargeArrival(this.options, binding, remoteAddress);
  }

  // ---------------------------------------------------------------- messages

  /** SendMessage: blocking by default, `returnImmediately` returns after the first answer. */
  async sendMessage(request: SendMessageRequest, ctx: CallContext): Promise<SendMessageResponse> {
    const begun = this.begin(ctx, request.tenant);
    const claiming = this.sends && this.claimSend(begun, request, ctx);
    const send = isThenable(claiming) ? await claiming : claiming;
    if (send && 'replay' in send) return send.replay.blocking(request, ctx);
    const { run, caller, queued } = await this.startRun(request, ctx, false, begun, send?.claimed);
    if (queued) return this.queuedAnswer(run, caller, request, ctx);
    // An agent that answers at once has settled by now: no waiting, no abort listener.
    const first = run.first.value ?? (await run.first.promise);
    if (first.kind === 'message') return { payload: { $case: 'message', value: first.message } };
    if (!this.backgroundExecution) this.followCaller(run, caller, ctx);
    if (!request.configuration?.returnImmediately && !run.settled.settled) await waitOrAbort(run.settled.promise, ctx.signal);
    const { task, seq } = await this.runTask(run, request.configuration?.historyLength);
    return { payload: { $case: 'task', value: answerTask(caller, task, seq) } };
  }

  /**
   * SendMessage of a queued run: waits (unless `returnImmediately`) for the task to settle
   * wherever it runs, following its event log, and answers with the task as stored then.
   */
  private async queuedAnswer(run: TaskRun, caller: Caller, request: SendMessageRequest, ctx: CallContext): Promise<SendMessageResponse> {
    if (!this.backgroundExecution) this.followCaller(run, caller, ctx);
    const load = () => this.tasks.loadStored(caller, run.taskId);
    if (!request.configuration?.returnImmediately)
      await waitOrAbort(awaitTaskSettled(this.log, caller.tenant, run.taskId, run.lastSeq, load, ctx.signal), ctx.signal);
    const stored = await load();
    const task = taskView(stored.task, request.configuration?.historyLength);
    return { payload: { $case: 'task', value: answerTask(caller, task, stored.version) } };
  }

  /** The task of a run: its live view, or, once the run lost the task, what the store holds; with the seq it reflects. */
  private async runTask(run: TaskRun, historyLength: number | undefined): Promise<{ task: Task; seq: number }> {
    const view = run.view(historyLength);
    if (view) return view;
    const stored = await this.store.get(run.tenant, run.taskId);
    if (!stored) throw run.failure ?? errors.taskNotFound(run.taskId);
    return { task: taskView(stored.task, historyLength), seq: stored.version };
  }

  /**
   * SendStreamingMessage. Resolves once the agent has answered (pre-stream errors reject, so
   * bindings can answer them as plain errors); the stream then carries the Task first and
   * every event after it.
   */
  async sendStreamingMessage(request: SendMessageRequest, ctx: CallContext): Promise<EventStream> {
    requireStreaming(this.card);
    const begun = this.begin(ctx, request.tenant);
    const claiming = this.sends && this.claimSend(begun, request, ctx);
    const send = isThenable(claiming) ? await claiming : claiming;
    if (send && 'replay' in send) return send.replay.streaming(ctx);
    const { run, start, caller } = await this.startRun(request, ctx, true, begun, send?.claimed);
    const first = await run.first.promise;
    if (first.kind === 'message') return singleEventStream({ payload: { $case: 'message', value: first.message } });
    // The stream is the caller: a client that drops it is gone (see backgroundExecution).
    if (!this.backgroundExecution) this.followCaller(run, caller, ctx);
    // The task could not even be created (store down): a plain error, before any stream.
    if (run.failure && !run.view() && !start) await this.runTask(run, undefined);
    return this.tasks.stream(caller, run.taskId, start ?? 0, ctx.signal);
  }

  /** The send's idempotency decision; no promise when the caller and the store answer at once (see {@link IdempotentSends.claim}). */
  private claimSend(begun: Caller | Promise<Caller>, request: SendMessageRequest, ctx: CallContext): ReturnType<IdempotentSends['claim']> {
    const sends = this.sends as IdempotentSends;
    return isThenable(begun) ? begun.then((caller) => sends.claim(caller, request, ctx)) : sends.claim(begun, request, ctx);
  }

  /** Background execution off: the run's task is canceled, as by CancelTask, when the caller leaves first. */
  private followCaller(run: TaskRun, caller: Caller, ctx: CallContext): void {
    cancelWhenCallerLeaves(run, ctx.signal, () => this.canceler.cancel(caller, { tenant: run.tenant, id: run.taskId, metadata: undefined }), this.logger);
  }

  /** Starts a run after the call's preamble (see {@link RunStarter}); a claimed send learns its outcome (see {@link IdempotentSends}). */
  private startRun(
    request: SendMessageRequest,
    ctx: CallContext,
    streaming: boolean,
    begun: Caller | Promise<Caller>,
    claimed?: ClaimedSend,
  ): Promise<StartedRun> {
    const started = this.starter.start(request, ctx, streaming, begun);
    if (!claimed) return started;
    return started.then(
      (s) => {
        void s.run.first.promise.then((first) => claimed.answered(s.run, first));
        return s;
      },
      (error: unknown) => {
        claimed.refused();
        throw error;
      },
    );
  }

  // ---------------------------------------------------------------- tasks

  /** GetTask with `historyLength` semantics of spec §7. */
  async getTask(request: Req<'GetTask'>, ctx: CallContext): Promise<Res<'GetTask'>> {
    return this.tasks.get(await this.begin(ctx, request.tenant), request, ctx.signal);
  }

  /** ListTasks: newest status first, cursor pagination, caller-scoped. */
  async listTasks(request: Req<'ListTasks'>, ctx: CallContext): Promise<Res<'ListTasks'>> {
    return this.tasks.list(await this.begin(ctx, request.tenant), request);
  }

  /** CancelTask: best effort, returns the task as CANCELED; terminal ⇒ TaskNotCancelable. */
  async cancelTask(request: Req<'CancelTask'>, ctx: CallContext): Promise<Res<'CancelTask'>> {
    return this.canceler.cancel(await this.begin(ctx, request.tenant), request);
  }

  /**
   * SubscribeToTask: the current Task first, then live events. With `resumeAfterSeq` (SSE
   * Last-Event-ID, the resume field of gRPC/WebSocket) it replays exactly the events after
   * that number while the log holds them, even for a task that has since ended; otherwise it
   * falls back to the snapshot.
   */
  async subscribeToTask(request: Req<'SubscribeToTask'>, ctx: CallContext, resumeAfterSeq?: number): Promise<EventStream> {
    requireStreaming(this.card);
    return this.tasks.subscribe(await this.begin(ctx, request.tenant), request, ctx, resumeAfterSeq);
  }

  // ---------------------------------------------------------------- push configs

  async createTaskPushNotificationConfig(request: Req<'CreateTaskPushNotificationConfig'>, ctx: CallContext): Promise<Res<'CreateTaskPushNotificationConfig'>> {
    requirePush(this.card);
    return this.pushConfigs.create(await this.begin(ctx, request.tenant), request, wireVersionOf(ctx));
  }

  async getTaskPushNotificationConfig(request: Req<'GetTaskPushNotificationConfig'>, ctx: CallContext): Promise<Res<'GetTaskPushNotificationConfig'>> {
    requirePush(this.card);
    return this.pushConfigs.get(await this.begin(ctx, request.tenant), request);
  }

  async listTaskPushNotificationConfigs(request: Req<'ListTaskPushNotificationConfigs'>, ctx: CallContext): Promise<Res<'ListTaskPushNotificationConfigs'>> {
    requirePush(this.card);
    return this.pushConfigs.list(await this.begin(ctx, request.tenant), request, wireVersionOf(ctx));
  }

  /** Idempotent: deleting a missing config succeeds (spec §4). */
  async deleteTaskPushNotificationConfig(request: Req<'DeleteTaskPushNotificationConfig'>, ctx: CallContext): Promise<void> {
    requirePush(this.card);
    return this.pushConfigs.delete(await this.begin(ctx, request.tenant), request);
  }

  // ---------------------------------------------------------------- card

  /** GetExtendedAgentCard: gated by `capabilities.extendedAgentCard`, always authenticated when auth is on. */
  async getExtendedAgentCard(request: Req<'GetExtendedAgentCard'>, ctx: CallContext): Promise<Res<'GetExtendedAgentCard'>> {
    const caller = await this.begin(ctx, request.tenant);
    if (!this.card.capabilities?.extendedAgentCard) throw errors.unsupported('This agent does not offer an extended agent card');
    if (!this.options.extendedCard) throw new A2AError(A2AErrorCode.ExtendedAgentCardNotConfigured);
    return this.options.extendedCard(caller.principal);
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Stops accepting work (new calls get Unavailable), gives running tasks `graceMs` to
   * finish, then fails the rest visibly with a status message (`reason`: a host that removes one
   * agent says so instead of "the server shut down"), and flushes push deliveries. A queued run
   * of a retryable agent ({@link QueueOptions.retryable}) still running then is not failed but
   * handed back to the queue, where another worker resumes it.
   */
  async shutdown(graceMs = 10_000, reason = 'The server shut down before the task finished'): Promise<void> {
    this.shuttingDown = true;
    // No new claims; runs claimed already end below like the others.
    await this.worker?.stop();
    this.cluster?.stop();
    // Cancel the race timers once settled, so a host that waits for the event loop to drain
    // does not stay alive for the rest of the grace period.
    const timers = new AbortController();
    const wait = (ms: number) => sleep(ms, timers.signal).catch(() => undefined);
    try {
      await Promise.race([Promise.all(this.runs.active().map((r) => r.ended.promise)), wait(graceMs)]);
      await Promise.all(this.runs.active().map((r) => (this.retryableRuns.has(r) ? this.handBack(r, reason) : r.abort(reason))));
      await Promise.race([this.push.idle(), wait(Math.min(graceMs, 5000))]);
      await this.worker?.idle();
    } finally {
      timers.abort();
    }
  }

  /** Shutdown's part for a queued run of a retryable agent: the task goes back to the queue as it is. */
  private async handBack(run: TaskRun, reason: string): Promise<void> {
    if (await run.handBack(reason))
      this.logger.warn({ taskId: run.taskId }, 'shutting down: handed a running queued task back to the run queue (the agent is retryable)');
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
   * The preamble alone, for interceptors that answer a call themselves and need the caller
   * first (the executor's A2A-Lite routing keys its caches by principal).
   */
  async caller(ctx: CallContext, requestTenant: string): Promise<Caller> {
    return this.begin(ctx, requestTenant);
  }

  /**
   * The preamble of every operation ({@link beginCall}), refused once shutdown began, and after
   * it when `unavailable` is set.
   */
  private begin(ctx: CallContext, requestTenant: string): Caller | Promise<Caller> {
    if (this.shuttingDown) throw new A2AError(A2AErrorCode.Unavailable, 'The server is shutting down');
    const caller = beginCall(this.options, ctx, requestTenant);
    const reason = this.options.unavailable;
    if (reason === undefined) return caller;
    return Promise.resolve(caller).then(() => {
      throw new A2AError(A2AErrorCode.Unavailable, reason);
    });
  }
}
