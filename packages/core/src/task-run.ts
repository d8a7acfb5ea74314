import { TaskState, type Message, type SendMessageConfiguration, type StreamResponse, type Task } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import type { AgentExecutor, ArtifactChunk, ExecutionContext, StatusMessage } from './agent-executor.js';
import type { Principal } from './auth.js';
import { Deferred } from './deferred.js';
import { A2AErrorCode } from './error-code.js';
import type { EventLog } from './event-log.js';
import type { Logger } from './logger.js';
import type { PushDispatcher } from './push/push-dispatcher.js';
import { agentMessage, artifactEvent, eventState, foldEvent, messageText, newTask, statusEvent, taskView } from './task-events.js';
import { canTransition, isInterrupted, isSettled, isTerminal } from './task-state.js';
import type { TaskStore } from './task-store.js';

/** Collaborators of a run. */
export interface RunDeps {
  readonly store: TaskStore;
  readonly log: EventLog;
  readonly push: PushDispatcher;
  readonly logger: Logger;
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
  readonly configuration: SendMessageConfiguration | undefined;
  readonly metadata: Record<string, unknown> | undefined;
  readonly extensions: readonly string[];
  /** The client called SendStreamingMessage (see {@link ExecutionContext.streaming}). */
  readonly streaming: boolean;
}

/** How a run first answered: with a message (no task) or by creating/continuing a task. */
export type FirstAnswer = { readonly kind: 'message'; readonly message: Message } | { readonly kind: 'task' };

/**
 * One execution of an agent for one message, and the only writer of its task while it lasts.
 * Reports from the agent are applied strictly in order through one promise chain: check the
 * state machine, fold into the live task, append to the event log, persist on state changes,
 * hand to push delivery. Nothing here waits for a subscriber.
 */
export class TaskRun implements ExecutionContext {
  readonly message: Message;
  readonly text: string;
  readonly taskId: string;
  readonly contextId: string;
  readonly task: Task | undefined;
  readonly configuration: SendMessageConfiguration | undefined;
  readonly metadata: Record<string, unknown> | undefined;
  readonly principal: Principal | undefined;
  readonly tenant: string;
  readonly extensions: readonly string[];
  readonly streaming: boolean;

  /** Resolves with the first answer: a reply message, or the task's existence. */
  readonly first = new Deferred<FirstAnswer>();
  /** Resolves when this run moves the task into a terminal or interrupted state, or ends. */
  readonly settled = new Deferred<void>();
  /** Resolves when the executor has returned and every report is applied. */
  readonly ended = new Deferred<void>();

  private live: Task | undefined;
  private version: number;
  private persistedVersion: number;
  private created: boolean;
  private replied = false;
  private settledInRun = false;
  private chain: Promise<void> = Promise.resolve();
  /** Set while cancel() runs, so an executor that returns on abort does not settle the task first. */
  private canceling: Promise<void> | undefined;
  private readonly abortController = new AbortController();
  private readonly owner: string | undefined;

  constructor(
    private readonly deps: RunDeps,
    init: RunInit,
  ) {
    this.tenant = init.tenant;
    this.owner = init.owner;
    this.principal = init.principal;
    this.taskId = init.taskId;
    this.contextId = init.contextId;
    this.message = init.message;
    this.text = messageText(init.message);
    this.configuration = init.configuration;
    this.metadata = init.metadata;
    this.extensions = init.extensions;
    this.streaming = init.streaming;
    this.task = init.existing && taskView(init.existing.task);
    this.live = init.existing?.task;
    this.version = init.existing?.version ?? 0;
    this.persistedVersion = this.version;
    this.created = init.existing !== undefined;
    if (this.created) this.first.resolve({ kind: 'task' });
  }

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  /** Current state of the task (undefined before creation). */
  get state(): TaskState | undefined {
    return this.live?.status?.state;
  }

  /** Sequence number of the last applied event: the version of {@link view}. */
  get lastSeq(): number {
    return this.version;
  }

  /** A consistent copy of the live task together with the seq it reflects. */
  view(historyLength?: number): { task: Task; seq: number } | undefined {
    return this.live && { task: taskView(this.live, historyLength), seq: this.version };
  }

  /**
   * Appends the follow-up message to the history of an existing task, as the run's first
   * write, so streams and GetTask see the conversation.
   */
  recordFollowUp(): void {
    if (!this.live) return;
    this.live.history.push(this.message);
    this.enqueue(() => this.persist());
  }

  /** Runs the executor to completion and settles the task however it ends. */
  async execute(executor: AgentExecutor): Promise<void> {
    let failure: unknown;
    try {
      await executor.execute(this);
    } catch (error) {
      failure = error;
      if (!this.signal.aborted) this.deps.logger.error('agent execution failed', { taskId: this.taskId, error });
    }
    // An agent that stops on abort returns while its cancel hook may still be stopping
    // upstream work; the task must end CANCELED, not COMPLETED or FAILED by that return.
    if (this.canceling) await this.canceling;
    await this.chain;
    this.settleAfterExecution(failure);
    await this.chain;
    this.finish();
  }

  private settleAfterExecution(failure: unknown): void {
    if (this.replied) return;
    if (!this.created) {
      this.ensureCreated();
      this.emitStatus(TaskState.TASK_STATE_FAILED, failure === undefined ? 'The agent returned without a response' : 'Agent execution failed');
      return;
    }
    this.enqueue(async () => {
      const state = this.state;
      if (state === undefined || isTerminal(state)) return;
      if (failure !== undefined) return this.apply(statusEvent(this.live!, TaskState.TASK_STATE_FAILED, agentMessage('Agent execution failed', this.taskId, this.contextId)));
      if (!isInterrupted(state)) return this.apply(statusEvent(this.live!, TaskState.TASK_STATE_COMPLETED));
      // Re-assert an interrupted state the agent left untouched, so streams and waiters end.
      if (!this.settledInRun) return this.apply(statusEvent(this.live!, state, this.live!.status?.message));
    });
  }

  /** Ends a run that has no executor (cancel of an idle task) or whose executor returned. */
  finish(): void {
    this.settled.resolve();
    this.first.resolve({ kind: 'task' });
    this.ended.resolve();
  }

  /**
   * Cancels: aborts the agent, lets its `cancel` hook stop upstream work, then marks the task
   * CANCELED unless it reached a terminal state first (then TaskNotCancelable).
   */
  async cancel(executor: AgentExecutor | undefined, hookTimeoutMs: number): Promise<Task> {
    await this.chain;
    if (this.state === undefined || isTerminal(this.state)) throw notCancelable(this.taskId);
    const done = new Deferred<void>();
    this.canceling = done.promise;
    try {
      this.abortController.abort(new A2AError(A2AErrorCode.UnsupportedOperation, 'Task canceled'));
      if (executor?.cancel) {
        try {
          await withTimeout(Promise.resolve(executor.cancel(this)), hookTimeoutMs);
        } catch (error) {
          this.deps.logger.warn('agent cancel hook failed', { taskId: this.taskId, error });
        }
      }
      let canceled = false;
      this.enqueue(async () => {
        if (this.state === undefined || isTerminal(this.state)) return;
        await this.apply(statusEvent(this.live!, TaskState.TASK_STATE_CANCELED));
        canceled = true;
      });
      await this.chain;
      if (!canceled) throw notCancelable(this.taskId);
      return taskView(this.live!);
    } finally {
      done.resolve();
    }
  }

  /** Aborts the agent and fails the task visibly (server shutdown). */
  async abort(reason: string): Promise<void> {
    this.abortController.abort(new A2AError(A2AErrorCode.Unavailable, reason));
    this.enqueue(async () => {
      if (this.state === undefined || isTerminal(this.state)) return;
      await this.apply(statusEvent(this.live!, TaskState.TASK_STATE_FAILED, agentMessage(reason, this.taskId, this.contextId)));
    });
    await this.chain;
  }

  // ---- ExecutionContext: what the agent calls ----

  reply(message: StatusMessage): void {
    if (this.created || this.replied) {
      throw new A2AError(A2AErrorCode.InvalidAgentResponse, 'reply() is only valid as the first and only answer to a new task; use complete(message)');
    }
    this.replied = true;
    const reply = agentMessage(message, '', this.contextId);
    this.first.resolve({ kind: 'message', message: reply });
  }

  submit(): void {
    this.ensureCreated();
  }

  working(message?: StatusMessage): void {
    this.setStatus(TaskState.TASK_STATE_WORKING, message);
  }

  artifact(chunk: ArtifactChunk): string {
    this.ensureCreated();
    const event = artifactEvent({ id: this.taskId, contextId: this.contextId } as Task, chunk);
    this.enqueue(() => this.apply(event));
    return event.payload?.$case === 'artifactUpdate' ? event.payload.value.artifact!.artifactId : '';
  }

  complete(message?: StatusMessage): void {
    this.setStatus(TaskState.TASK_STATE_COMPLETED, message);
  }

  fail(message?: StatusMessage): void {
    this.setStatus(TaskState.TASK_STATE_FAILED, message);
  }

  reject(message?: StatusMessage): void {
    this.setStatus(TaskState.TASK_STATE_REJECTED, message);
  }

  requireInput(message: StatusMessage): void {
    this.setStatus(TaskState.TASK_STATE_INPUT_REQUIRED, message);
  }

  requireAuth(message: StatusMessage): void {
    this.setStatus(TaskState.TASK_STATE_AUTH_REQUIRED, message);
  }

  setStatus(state: TaskState, message?: StatusMessage, metadata?: Record<string, unknown>): void {
    this.emitStatus(state, message, metadata);
  }

  // ---- internals ----

  private emitStatus(state: TaskState, message?: StatusMessage, metadata?: Record<string, unknown>): void {
    this.ensureCreated();
    const msg = message === undefined ? undefined : agentMessage(message, this.taskId, this.contextId);
    const event = statusEvent({ id: this.taskId, contextId: this.contextId } as Task, state, msg, metadata);
    this.enqueue(() => this.apply(event));
  }

  private ensureCreated(): void {
    if (this.replied) {
      throw new A2AError(A2AErrorCode.InvalidAgentResponse, 'The agent already answered with a message; it cannot also report task events');
    }
    if (this.created) return;
    this.created = true;
    const task = newTask(this.taskId, this.contextId, this.message, undefined);
    this.enqueue(() => this.apply({ payload: { $case: 'task', value: task } }));
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((error: unknown) => {
      this.deps.logger.error('applying a task event failed', { taskId: this.taskId, error });
    });
  }

  /** The single write path: state machine, fold, log, persist, push, wake waiters. */
  private async apply(event: StreamResponse): Promise<void> {
    const creating = event.payload?.$case === 'task';
    if (creating) {
      this.live = structuredClone((event.payload as { value: Task }).value);
    } else {
      const live = this.live!;
      const to = eventState(event);
      const from = live.status?.state;
      if (from !== undefined && isTerminal(from)) {
        this.deps.logger.debug('event after terminal state ignored', { taskId: this.taskId });
        return;
      }
      if (to !== undefined && !canTransition(from, to)) {
        this.deps.logger.warn('invalid state transition ignored', { taskId: this.taskId, from: TaskState[from ?? 0], to: TaskState[to] });
        return;
      }
      foldEvent(live, event);
    }
    this.version = await this.deps.log.append(this.taskId, event);
    const state = eventState(event);
    if (state !== undefined) await this.persist();
    this.deps.push.dispatch(this.tenant, this.taskId, event);
    if (creating) this.first.resolve({ kind: 'task' });
    if (!creating && state !== undefined && isSettled(state)) {
      this.settledInRun = true;
      this.settled.resolve();
    }
    if (state !== undefined && isTerminal(state)) this.deps.log.seal(this.taskId);
  }

  private async persist(): Promise<void> {
    await this.deps.store.save({ tenant: this.tenant, owner: this.owner, task: this.live!, version: this.version }, this.persistedVersion);
    this.persistedVersion = this.version;
  }
}

function notCancelable(taskId: string): A2AError {
  return new A2AError(A2AErrorCode.TaskNotCancelable, `Task ${taskId} is in a terminal state and cannot be canceled`, { metadata: { taskId } });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
