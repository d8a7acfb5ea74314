import { TaskState, type Message, type SendMessageConfiguration, type StreamResponse, type Task } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import type { AgentExecutor, ArtifactChunk, ExecutionContext, StatusMessage } from './agent-executor.js';
import type { Principal } from './auth.js';
import { Deferred } from './deferred.js';
import { A2AErrorCode } from './error-code.js';
import { taskLogKey, type EventLog } from './event-log.js';
import type { CallObserver, ObservedTask } from './observer.js';
import type { Logger } from './logger.js';
import type { PushDispatcher } from './push/push-dispatcher.js';
import { agentMessage, artifactEvent, eventState, foldEvent, messageText, newTask, statusEvent, taskView } from './task-events.js';
import { canTransition, isInterrupted, isSettled, isTerminal } from './task-state.js';
import { isVersionConflict, type TaskLease, type TaskStore } from './task-store.js';
import { isThenable, SerialQueue } from './serial-queue.js';

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
 * Reports from the agent are applied strictly in order through one {@link SerialQueue}: check
 * the state machine, fold into the live task, persist, append to the event log under the next
 * seq, hand to push delivery. Nothing here waits for a subscriber. With the in-memory store
 * and log nothing here waits at all: every report is applied before the agent's call returns.
 *
 * Persisting: in durable mode every event is saved, under the lease, before it is logged, and
 * a burst is saved together (group commit): the events applied in one turn are saved with one
 * store write at the end of the turn (one version check covers them all), then logged in order
 * (one append where the log can), then announced. In the in-process mode the task is saved after
 * state changes, once per burst of reports the same way, but logged at once. So an agent that
 * goes submitted → working → completed at once costs one save, not three. Readers never miss
 * the difference: while the run lives, GetTask, streams and cancel read its live task.
 *
 * A run can lose its task: the store refuses a stale write (another instance canceled it, or
 * a sweep failed it), or the store is down. The run then stops for good ("fenced"): the agent
 * is aborted, later reports are dropped, and readers go to the store.
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
  private readonly queue: SerialQueue;
  /** A save of the live task is scheduled for the end of this turn. */
  private saveScheduled = false;
  /** Durable mode: events applied to the live task this turn, saved and logged together. */
  private unsaved: AppliedEvent[] = [];
  /** Set while cancel() runs, so an executor that returns on abort does not settle the task first. */
  private canceling: Promise<void> | undefined;
  /** Made on first use: most agents that finish at once never look at their signal. */
  private abortController: AbortController | undefined;
  private readonly owner: string | undefined;
  private readonly logKey: string;
  /** Why the run lost its task (fenced), if it did. */
  private lostBy: A2AError | undefined;
  /** The last save claimed the lease (released when the run ends). */
  private leased = false;
  private executionEnded = false;

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
    this.logKey = taskLogKey(init.tenant, init.taskId);
    this.queue = new SerialQueue((error) => this.deps.logger.error({ err: error }, 'applying a task event failed'));
    if (this.created) this.first.resolve({ kind: 'task' });
  }

  /** Why this run lost its task (see the class doc), or undefined while it owns it. */
  get failure(): A2AError | undefined {
    return this.lostBy;
  }

  /** The run holds the task's lease in the store (renewed by the handler while it runs). */
  get holdsLease(): boolean {
    return this.leased && this.lostBy === undefined;
  }

  get signal(): AbortSignal {
    return this.controller().signal;
  }

  /** The run's abort controller, made when first needed (most runs are never aborted). */
  private controller(): AbortController {
    this.abortController ??= new AbortController();
    return this.abortController;
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
    if (this.lostBy) return undefined;
    return this.live && { task: taskView(this.live, historyLength), seq: this.version };
  }

  /**
   * Appends the follow-up message to the history of an existing task, as the run's first
   * write, so streams and GetTask see the conversation. In durable mode this write also
   * claims the task's lease; it rejects (version conflict) when another writer got there
   * first, and the run must then be dropped without executing.
   */
  recordFollowUp(): Promise<void> {
    if (!this.live) return Promise.resolve();
    this.live.history.push(this.message);
    return new Promise<void>((resolve, reject) => {
      this.queue.push(async () => {
        try {
          await this.persist(this.version);
          resolve();
        } catch (error) {
          this.lose(error);
          reject(error);
        }
      });
    });
  }

  /**
   * Runs the executor to completion and settles the task however it ends; an observer sees
   * the run (a tracer runs it inside a span of its own, so the agent's work nests under it).
   * Resolves with what the agent threw, if it did (already handled: logged, task failed).
   */
  execute(executor: AgentExecutor): Promise<unknown> {
    const observation = this.deps.observer?.taskRunStarted?.(this.ref());
    if (!observation) return this.executeToEnd(executor);
    const run = () =>
      this.executeToEnd(executor).then(
        (failure) => observation.ended(failure),
        (error: unknown) => {
          observation.ended(error);
          throw error;
        },
      );
    return observation.run ? observation.run(run) : run();
  }

  /** Which task this run serves, for observers. */
  private ref(): ObservedTask {
    return { taskId: this.taskId, contextId: this.contextId, tenant: this.tenant };
  }

  /** Runs the executor and settles the task; resolves with what the agent threw, if it did. */
  private async executeToEnd(executor: AgentExecutor): Promise<unknown> {
    let failure: unknown;
    try {
      await executor.execute(this);
    } catch (error) {
      failure = error;
      if (!this.signal.aborted) this.deps.logger.error({ err: error }, 'agent execution failed');
    }
    // An agent that stops on abort returns while its cancel hook may still be stopping
    // upstream work; the task must end CANCELED, not COMPLETED or FAILED by that return.
    if (this.canceling) await this.canceling;
    // Awaited only when something is pending: a run whose reports all applied at once (or
    // that replied with a message) ends in this turn, with no promise per step.
    let pending = this.drain();
    if (pending) await pending;
    this.settleAfterExecution(failure);
    pending = this.drain();
    if (pending) await pending;
    this.executionEnded = true;
    if (this.holdsLease) await this.releaseLease();
    this.finish();
    return failure;
  }

  /** Durable mode: an interrupted task keeps the lease until its run ends; let it go now. */
  private async releaseLease(): Promise<void> {
    if (!this.holdsLease || !this.live) return;
    try {
      await this.persist(this.version);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'releasing the task lease failed; it will run out');
    }
  }

  /**
   * The executor's return settles what it left open, as the AgentExecutor contract promises:
   * returning completes the task (also one the agent never reported on: it is created, then
   * completed), throwing fails it, and an interrupted state is re-asserted.
   */
  private settleAfterExecution(failure: unknown): void {
    if (this.replied) return;
    this.ensureCreated();
    this.enqueue(async () => {
      const state = this.state;
      if (state === undefined || isTerminal(state)) return;
      if (failure !== undefined)
        return void (await this.apply(
          statusEvent(this.live!, TaskState.TASK_STATE_FAILED, agentMessage('Agent execution failed', this.taskId, this.contextId)),
        ));
      if (!isInterrupted(state)) return void (await this.apply(statusEvent(this.live!, TaskState.TASK_STATE_COMPLETED)));
      // Re-assert an interrupted state the agent left untouched, so streams and waiters end.
      if (!this.settledInRun) return void (await this.apply(statusEvent(this.live!, state, this.live!.status?.message)));
    });
  }

  /** Ends a run that has no executor (cancel of an idle task) or whose executor returned. */
  finish(): void {
    this.saveNow();
    this.settled.resolve();
    this.first.resolve({ kind: 'task' });
    this.ended.resolve();
  }

  /**
   * Cancels: aborts the agent, lets its `cancel` hook stop upstream work, then marks the task
   * CANCELED unless it reached another terminal state first (then TaskNotCancelable). A task
   * the agent itself moved to CANCELED meanwhile counts as canceled.
   */
  async cancel(executor: AgentExecutor | undefined, hookTimeoutMs: number): Promise<Task> {
    await this.drain();
    if (this.lostBy) throw isVersionConflict(this.lostBy) ? this.lostBy : notCancelable(this.taskId);
    if (this.state === undefined || isTerminal(this.state)) throw notCancelable(this.taskId);
    const done = new Deferred<void>();
    this.canceling = done.promise;
    try {
      this.controller().abort(new A2AError(A2AErrorCode.UnsupportedOperation, 'Task canceled'));
      const hook = this.callCancelHook(executor, hookTimeoutMs);
      if (hook) await hook;
      let canceled = false;
      this.enqueue(async () => {
        // The agent may report CANCELED itself (from its hook or on abort, as a2a-python
        // agents do): the cancel took effect, unless that write lost the task.
        if (this.state === TaskState.TASK_STATE_CANCELED) {
          canceled = !this.lostBy;
          return;
        }
        if (this.state === undefined || isTerminal(this.state)) return;
        canceled = await this.apply(statusEvent(this.live!, TaskState.TASK_STATE_CANCELED));
      });
      await this.drain();
      // Durable mode saves the CANCELED status with its group: it counts only if that save won.
      if (this.lostBy) canceled = false;
      // A lost race with another writer: the caller reloads the task and tries again.
      if (!canceled && this.lostBy && isVersionConflict(this.lostBy)) throw this.lostBy;
      if (!canceled) throw notCancelable(this.taskId);
      return taskView(this.live!);
    } finally {
      done.resolve();
    }
  }

  /**
   * Another instance took the task over (canceled it, or failed it in a lease sweep): stop
   * the agent, let its cancel hook stop upstream work, and drop whatever it reports later.
   * Writes nothing: the store already holds the task's final state.
   */
  async takenOver(executor: AgentExecutor | undefined, hookTimeoutMs: number, reason: string): Promise<void> {
    if (this.lostBy || this.ended.settled) return;
    this.fence(new A2AError(A2AErrorCode.UnsupportedOperation, reason));
    await this.callCancelHook(executor, hookTimeoutMs);
  }

  /**
   * Calls the agent's cancel hook, if any, and never throws (a failing hook is logged). Only a
   * hook that returns a promise is waited for (at most `hookTimeoutMs`): a synchronous hook
   * adds no turn, so the agent's execute() cannot report in between, and the CANCELED status
   * follows the abort exactly as when the agent has no hook.
   */
  private callCancelHook(executor: AgentExecutor | undefined, hookTimeoutMs: number): Promise<void> | undefined {
    if (!executor?.cancel) return undefined;
    const failed = (error: unknown) => this.deps.logger.warn({ err: error }, 'agent cancel hook failed');
    let result: unknown;
    try {
      result = executor.cancel(this);
    } catch (error) {
      failed(error);
      return undefined;
    }
    return isThenable(result) ? withTimeout(Promise.resolve(result), hookTimeoutMs).then(() => undefined, failed) : undefined;
  }

  /** Aborts the agent and fails the task visibly (server shutdown). */
  async abort(reason: string): Promise<boolean> {
    this.controller().abort(new A2AError(A2AErrorCode.Unavailable, reason));
    let failed = false;
    this.enqueue(async () => {
      if (this.state === undefined || isTerminal(this.state)) return;
      failed = await this.apply(statusEvent(this.live!, TaskState.TASK_STATE_FAILED, agentMessage(reason, this.taskId, this.contextId)));
    });
    await this.drain();
    return failed && !this.lostBy;
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

  private enqueue(step: () => unknown): void {
    this.queue.push(step);
  }

  /**
   * Resolves once every queued report is applied and the task saved: the scheduled save runs
   * now, and so does one that a report applied meanwhile scheduled. Undefined when that is
   * already so (nothing scheduled, nothing pending): the caller need not wait a turn.
   */
  private drain(): Promise<void> | undefined {
    this.saveNow();
    if (!this.saveScheduled && !this.queue.busy) return undefined;
    return this.drainPending();
  }

  private async drainPending(): Promise<void> {
    do {
      this.saveNow();
      await this.queue.idle();
    } while (this.saveScheduled || this.queue.busy);
  }

  /**
   * The single write path: state machine, fold, persist, log, push, wake waiters. Returns
   * false when the event was not applied (ignored, or the run lost its task); synchronously
   * when nothing on the way is asynchronous (the in-process mode with in-memory collaborators).
   */
  private apply(event: StreamResponse): boolean | Promise<boolean> {
    if (this.lostBy) return false;
    const creating = event.payload?.$case === 'task';
    if (creating) {
      this.live = liveCopy((event.payload as { value: Task }).value);
    } else {
      const live = this.live!;
      const to = eventState(event);
      const from = live.status?.state;
      if (from !== undefined && isTerminal(from)) {
        this.deps.logger.debug('event after terminal state ignored');
        return false;
      }
      if (to !== undefined && !canTransition(from, to)) {
        this.deps.logger.warn({ from: TaskState[from ?? 0], to: TaskState[to] }, 'invalid state transition ignored');
        return false;
      }
      foldEvent(live, event);
    }
    // The live task and its seq move together, before any await, so a view taken while the
    // event is being saved is consistent (a stream started from it resumes after this seq).
    const seq = ++this.version;
    const state = eventState(event);
    if (this.deps.lease) {
      // Group commit: saved, logged and announced with the rest of this turn's events.
      this.unsaved.push({ event, seq, state, creating });
      this.scheduleSave();
      return true;
    }
    if (state !== undefined) this.scheduleSave();
    return this.publish(event, seq, state, creating);
  }

  /** Logs an applied event under `seq`, hands it to push delivery and wakes whoever waits on it. */
  private publish(event: StreamResponse, seq: number, state: TaskState | undefined, creating: boolean): boolean | Promise<boolean> {
    let appended: number | Promise<number> | undefined;
    try {
      // Nobody follows an unstreamed run (see EventLog.isFollowed): its seq is counted, not logged.
      if (!this.streaming && !this.deps.lease && this.deps.log.isFollowed?.(this.logKey) === false) return this.announce(event, state, creating);
      appended = this.deps.log.append(this.logKey, event, seq);
    } catch (error) {
      this.logAppendFailed(seq, error);
    }
    if (isThenable(appended)) {
      return appended.then(
        () => this.announce(event, state, creating),
        (error: unknown) => {
          this.logAppendFailed(seq, error);
          return this.announce(event, state, creating);
        },
      );
    }
    return this.announce(event, state, creating);
  }

  private logAppendFailed(seq: number, error: unknown): void {
    // The store has the event; readers that miss it in the log resync from the store.
    this.deps.logger.warn({ seq, err: error }, 'appending to the event log failed');
  }

  /** `logSealed`: the append already sealed the log (durable group commit). */
  private announce(event: StreamResponse, state: TaskState | undefined, creating: boolean, logSealed = false): boolean {
    if (state !== undefined) this.deps.observer?.taskStateEntered?.(state, this.ref());
    this.deps.push.dispatch(this.tenant, this.taskId, event);
    if (creating) this.first.resolve({ kind: 'task' });
    if (!creating && state !== undefined && isSettled(state)) {
      this.settledInRun = true;
      this.settled.resolve();
    }
    if (!logSealed && state !== undefined && isTerminal(state)) this.deps.log.seal(this.logKey, { awaitingReader: this.streaming });
    return true;
  }

  /** Saves the live task at the end of this turn (once, however many events it saw). */
  private scheduleSave(): void {
    if (this.saveScheduled) return;
    this.saveScheduled = true;
    queueMicrotask(() => this.saveNow());
  }

  /** Runs a scheduled save now (queued behind any pending step). */
  private saveNow(): void {
    if (!this.saveScheduled) return;
    this.saveScheduled = false;
    this.enqueue(() => {
      if (this.deps.lease) return this.commitGroup();
      if (this.lostBy || !this.live || this.version === this.persistedVersion) return;
      try {
        const saved = this.persist(this.version);
        if (isThenable(saved)) return saved.then(undefined, (error: unknown) => this.lose(error));
      } catch (error) {
        this.lose(error);
      }
      return undefined;
    });
  }

  /**
   * Durable mode: saves the live task once for every event applied since the last save (the
   * store's version check covers them all: a lost race loses the whole group, and none of it
   * is logged or announced), then logs them in order and announces each. The store is never
   * behind the log: a crash between the two leaves the log short, and its readers resync from
   * the store.
   */
  private async commitGroup(): Promise<void> {
    const group = this.unsaved;
    this.unsaved = [];
    if (group.length === 0 || this.lostBy) return;
    try {
      await this.persist(group[group.length - 1]!.seq);
    } catch (error) {
      this.lose(error);
      return;
    }
    const log = this.deps.log;
    const lastState = group[group.length - 1]!.state;
    let sealed = false;
    if (log.appendMany) {
      // A group ending the task seals its log in the same step (no separate round trip).
      const seal = lastState !== undefined && isTerminal(lastState) ? { awaitingReader: this.streaming } : undefined;
      try {
        await log.appendMany(this.logKey, group, { seal });
        sealed = seal !== undefined;
      } catch (error) {
        this.logAppendFailed(group[0]!.seq, error);
      }
    } else {
      for (const applied of group) {
        try {
          await log.append(this.logKey, applied.event, applied.seq);
        } catch (error) {
          this.logAppendFailed(applied.seq, error);
        }
      }
    }
    for (const applied of group) this.announce(applied.event, applied.state, applied.creating, sealed);
  }

  /**
   * Saves the live task as `version`. Durable mode claims the lease while the run goes on
   * (a task left interrupted keeps it until the run ends, so a follow-up cannot start
   * elsewhere meanwhile) and releases it with the terminal write or the run's last one.
   */
  private async persist(version: number): Promise<void> {
    const state = this.live!.status?.state;
    const lease = this.deps.lease && !this.executionEnded && !(state !== undefined && isTerminal(state)) ? this.deps.lease : undefined;
    await this.deps.store.save({ tenant: this.tenant, owner: this.owner, task: this.live!, version }, this.persistedVersion, lease);
    this.persistedVersion = version;
    this.leased = lease !== undefined;
  }

  /** A write failed: a lost race (the task was taken over) or a store outage. Either way the run stops. */
  private lose(error: unknown): void {
    if (isVersionConflict(error)) this.deps.logger.info('task changed elsewhere; this run stops');
    else this.deps.logger.error({ err: error }, 'saving the task failed; this run stops (the lease sweep fails the task if it stays unfinished)');
    this.fence(A2AError.from(error));
  }

  private fence(reason: A2AError): void {
    if (this.lostBy) return;
    this.lostBy = reason;
    this.controller().abort(reason);
    this.first.resolve({ kind: 'task' });
    this.settled.resolve();
  }
}

/** An event applied to the live task, waiting (durable mode) to be saved with its group. */
interface AppliedEvent {
  readonly event: StreamResponse;
  readonly seq: number;
  readonly state: TaskState | undefined;
  readonly creating: boolean;
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

/**
 * The run's own copy of a task it creates from an event: the event is logged as it is, and
 * the fold mutates only the task object, its `history` and `artifacts` arrays (appending, or
 * replacing an artifact with a copy), never a message, part or status in them; so copying
 * those three is enough to keep the logged event unchanged.
 */
function liveCopy(task: Task): Task {
  return { ...task, history: [...task.history], artifacts: task.artifacts.map((a) => ({ ...a, parts: [...a.parts] })) };
}
