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
import { InMemoryEventLog, type EventLog } from './event-log.js';
import { followTask, singleEventStream, type EventStream } from './event-stream.js';
import { InMemoryTaskStore } from './in-memory-task-store.js';
import { consoleLogger, type Logger } from './logger.js';
import { InMemoryPushConfigStore, type PushConfigStore } from './push/push-config-store.js';
import { PushDispatcher } from './push/push-dispatcher.js';
import { FetchPushSender, type PushSender } from './push/push-sender.js';
import { checkWebhookUrl } from './push/webhook-url.js';
import { checkOutputModes, checkVersion, negotiateExtensions, validateHistoryLength, validateMessage } from './request-validation.js';
import { taskView } from './task-events.js';
import { TaskRun } from './task-run.js';
import { isInterrupted, isTerminal } from './task-state.js';
import type { StoredTask, TaskStore } from './task-store.js';
import { newId, sleep } from './util.js';

/** Everything a {@link RequestHandler} is built from. Only `card` and `executor` are required. */
export interface RequestHandlerOptions {
  /** The public agent card; its `capabilities` gate streaming, push and the extended card. */
  readonly card: AgentCard;
  readonly executor: AgentExecutor;
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
}

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

  constructor(private readonly options: RequestHandlerOptions) {
    this.card = options.card;
    this.executor = options.executor;
    this.logger = options.logger ?? consoleLogger('warn');
    this.store = options.taskStore ?? new InMemoryTaskStore();
    this.log = options.eventLog ?? new InMemoryEventLog();
    this.pushConfigs = options.pushConfigStore ?? new InMemoryPushConfigStore();
    this.push = new PushDispatcher(this.pushConfigs, options.pushSender ?? new FetchPushSender({ logger: this.logger }), this.logger);
  }

  /** The public card (discovery is never authenticated). */
  getAgentCard(): AgentCard {
    return this.card;
  }

  // ---------------------------------------------------------------- messages

  /** SendMessage: blocking by default, `returnImmediately` returns after the first answer. */
  async sendMessage(request: SendMessageRequest, ctx: CallContext): Promise<SendMessageResponse> {
    const run = await this.startRun(request, ctx, false);
    const first = await run.first.promise;
    if (first.kind === 'message') return { payload: { $case: 'message', value: first.message } };
    if (!request.configuration?.returnImmediately) await waitOrAbort(run.settled.promise, ctx.signal);
    const view = run.view(request.configuration?.historyLength)!;
    return { payload: { $case: 'task', value: view.task } };
  }

  /**
   * SendStreamingMessage. Resolves once the agent has answered (pre-stream errors reject, so
   * bindings can answer them as plain errors); the stream then carries the Task first and
   * every event after it.
   */
  async sendStreamingMessage(request: SendMessageRequest, ctx: CallContext): Promise<EventStream> {
    this.requireStreaming();
    const followUp = Boolean(request.message?.taskId);
    const run = await this.startRun(request, ctx, true);
    const start = followUp ? run.view() : undefined;
    const first = await run.first.promise;
    if (first.kind === 'message') return singleEventStream({ payload: { $case: 'message', value: first.message } });
    const snapshot = () => this.snapshot(run.tenant, run.taskId);
    if (start) return followTask(this.log, run.taskId, { first: { seq: start.seq, event: { payload: { $case: 'task', value: start.task } } }, afterSeq: start.seq }, snapshot, ctx.signal);
    return followTask(this.log, run.taskId, { afterSeq: 0 }, snapshot, ctx.signal);
  }

  private async startRun(request: SendMessageRequest, ctx: CallContext, streaming: boolean): Promise<TaskRun> {
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

    if (inlinePush) await this.savePushConfig(caller.tenant, { ...inlinePush, taskId });

    const run = new TaskRun(
      { store: this.store, log: this.log, push: this.push, logger: this.logger },
      {
        tenant: caller.tenant,
        owner: caller.owner,
        principal: caller.principal,
        taskId,
        contextId,
        message: { ...message, taskId, contextId },
        existing: existing && { task: existing.task, version: existing.version },
        configuration: request.configuration,
        metadata: request.metadata,
        extensions: caller.extensions,
        streaming,
      },
    );
    this.runs.set(key, run);
    run.recordFollowUp();
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
    return run;
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
    if (active && (await this.visible(caller, request.id))) return active.cancel(this.executor, this.options.cancelHookTimeoutMs ?? 5000);
    if (this.reserved.has(key)) throw new A2AError(A2AErrorCode.TaskNotCancelable, `Task ${request.id} is changing state; retry`);
    this.reserved.add(key);
    try {
      const stored = await this.loadStored(caller, request.id);
      const state = stored.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
      if (isTerminal(state)) {
        throw new A2AError(A2AErrorCode.TaskNotCancelable, `Task ${request.id} is ${TaskState[state]} and cannot be canceled`, { metadata: { taskId: request.id } });
      }
      const idle = new TaskRun(
        { store: this.store, log: this.log, push: this.push, logger: this.logger },
        {
          tenant: caller.tenant,
          owner: stored.owner,
          principal: caller.principal,
          taskId: stored.task.id,
          contextId: stored.task.contextId,
          message: stored.task.history[stored.task.history.length - 1] ?? ({} as never),
          existing: { task: stored.task, version: stored.version },
          configuration: undefined,
          metadata: request.metadata,
          extensions: caller.extensions,
          streaming: false,
        },
      );
      try {
        // The agent may hold upstream work for an interrupted task (a run awaiting approval).
        return await idle.cancel(this.executor, this.options.cancelHookTimeoutMs ?? 5000);
      } finally {
        idle.finish();
      }
    } finally {
      this.reserved.delete(key);
    }
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
    if (resumeAfterSeq !== undefined && resumeAfterSeq >= 0 && resumeAfterSeq <= snapshot.seq) {
      const read = await this.log.readAfter(request.id, resumeAfterSeq, 1);
      const terminal = isTerminal(snapshot.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
      if (!read.gap && (!terminal || read.events.length > 0)) {
        return followTask(this.log, request.id, { afterSeq: resumeAfterSeq }, snapshotSource, ctx.signal);
      }
    }
    const state = snapshot.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (isTerminal(state)) throw errors.unsupported(`Task ${request.id} is ${TaskState[state]}; terminal tasks cannot be subscribed to`);
    return followTask(this.log, request.id, { first: { seq: snapshot.seq, event: { payload: { $case: 'task', value: snapshot.task } } }, afterSeq: snapshot.seq }, snapshotSource, ctx.signal);
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
