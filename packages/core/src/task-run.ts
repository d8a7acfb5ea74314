import { TaskState, type Message, type SendMessageConfiguration, type Task } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import type { AgentExecutor, ArtifactChunk, ExecutionContext, StatusMessage } from './agent-executor.js';
import type { Principal } from './auth.js';
import { Deferred } from './deferred.js';
import { A2AErrorCode } from './error-code.js';
import { agentMessage, artifactEvent, messageText, newTask, statusEvent, taskView } from './task-events.js';
import type { FirstAnswer, RunDeps, RunInit } from './task-run-types.js';
import type { TaskRunObservation } from './observer.js';
import { TaskWriter } from './task-writer.js';
import { isInterrupted, isTerminal } from './task-state.js';
import { isVersionConflict } from './task-store.js';
import { callCancelHook, notCancelable } from './cancel-hook.js';

export type { FirstAnswer, RunDeps, RunInit } from './task-run-types.js';

/**
 * One execution of an agent for one message, and the only writer of its task while it lasts.
 * This class is the agent's side: the {@link ExecutionContext} it reports through, running the
 * executor to its end, cancel, shutdown abort. Every report goes through the run's own
 * {@link TaskWriter} (ordering, state machine, persisting, log, push), held rather than
 * inherited, so the agent's object carries none of the writer's steps. With the in-memory
 * store and log every report is applied before the agent's call returns, so an agent that
 * goes submitted → working → completed at once costs one save, not three. Readers never miss
 * the difference: while the run lives, GetTask, streams and cancel read its live task.
 *
 * A run can lose its task (see {@link TaskWriter}): the agent is then aborted, later reports
 * are dropped, and readers go to the store.
 */
export class TaskRun implements ExecutionContext {
  readonly taskId: string;
  readonly contextId: string;
  readonly tenant: string;
  readonly streaming: boolean;
  /** Resolves with the first answer: a reply message, or the task's existence. */
  readonly first: Deferred<FirstAnswer>;
  /** Resolves when this run moves the task into a terminal or interrupted state, or ends. */
  readonly settled: Deferred<void>;
  /** The seq of the task as the run found it (a follow-up's or cancel's stored task); 0 for a new task. */
  readonly startSeq: number;
  readonly message: Message;
  readonly text: string;
  readonly task: Task | undefined;
  readonly configuration: SendMessageConfiguration | undefined;
  readonly metadata: Record<string, unknown> | undefined;
  readonly principal: Principal | undefined;
  readonly extensions: readonly string[];

  /** Resolves when the executor has returned and every report is applied. */
  readonly ended = new Deferred<void>();

  private created: boolean;
  /** A queued run of the message that created its task (`RunInit.createdFor`). */
  private readonly createdFor: boolean;
  private replied = false;
  /** Set while cancel() or handBack() runs, so an executor that returns on abort does not settle the task first. */
  private canceling: Promise<void> | undefined;
  /** {@link handBack} let the task go unsettled: the queue entry is released, not acked. */
  private handed = false;

  /** The run's write path: every report and every write of the task goes through it. */
  private readonly writer: TaskWriter;
  /** The task's ids, as the event builders read them: made once, not per reported event. */
  private readonly ids: Pick<Task, 'id' | 'contextId'>;

  constructor(
    private readonly deps: RunDeps,
    init: RunInit,
  ) {
    const writer = new TaskWriter(deps, init);
    this.writer = writer;
    this.taskId = writer.taskId;
    this.contextId = writer.contextId;
    this.ids = { id: writer.taskId, contextId: writer.contextId };
    this.tenant = writer.tenant;
    this.streaming = writer.streaming;
    this.first = writer.first;
    this.settled = writer.settled;
    this.startSeq = writer.startSeq;
    this.principal = init.principal;
    this.message = init.message;
    this.text = messageText(init.message);
    this.configuration = init.configuration;
    this.metadata = init.metadata;
    this.extensions = init.extensions;
    this.task = init.existing && !init.createdFor ? taskView(init.existing.task) : undefined;
    this.created = init.existing !== undefined;
    this.createdFor = init.createdFor === true;
    if (this.created) this.first.resolve({ kind: 'task' });
  }

  get signal(): AbortSignal {
    return this.writer.controller().signal;
  }

  /** Why this run lost its task (see {@link TaskWriter}), or undefined while it owns it. */
  get failure(): A2AError | undefined {
    return this.writer.failure;
  }

  /** The run holds the task's lease in the store (renewed by the handler while it runs). */
  get holdsLease(): boolean {
    return this.writer.holdsLease;
  }

  /** Current state of the task (undefined before creation). */
  get state(): TaskState | undefined {
    return this.writer.state;
  }

  /** Sequence number of the last applied event: the version of {@link view}. */
  get lastSeq(): number {
    return this.writer.lastSeq;
  }

  /** A consistent copy of the live task together with the seq it reflects. */
  view(historyLength?: number): { task: Task; seq: number } | undefined {
    return this.writer.view(historyLength);
  }

  /**
   * Appends the follow-up message to the history of an existing task, as the run's first
   * write, so streams and GetTask see the conversation. In durable mode this write also
   * claims the task's lease; it rejects (version conflict) when another writer got there
   * first, and the run must then be dropped without executing.
   */
  recordFollowUp(): Promise<void> {
    const live = this.writer.current;
    if (!live) return Promise.resolve();
    live.history.push(this.message);
    return this.claimTask(live);
  }

  /**
   * A worker's first write to a task it claimed from the run queue: claims the task's lease
   * (rejects with a version conflict while another instance still holds it). A resumed run
   * (`resumedNote`: its previous worker stopped) claims it with a WORKING event carrying the
   * note, so followers see the resumption in the task's own numbering, right after the last
   * event the stopped worker stored.
   */
  async claimQueued(resumedNote: string | undefined): Promise<void> {
    const live = this.writer.current;
    if (!live) return;
    if (resumedNote === undefined) return this.claimTask(live);
    this.working(resumedNote);
    const pending = this.writer.drain();
    if (pending) await pending;
    if (this.writer.failure) throw this.writer.failure;
  }

  /**
   * The receiving instance's part of a queued send: creates the task (SUBMITTED) for a new
   * message, lets the lease go so a worker on any instance can claim it, and ends this run
   * without executing anything. Rejects when the store refused the task.
   */
  async handOff(): Promise<void> {
    this.ensureCreated();
    const pending = this.writer.drain();
    if (pending) await pending;
    if (this.writer.failure) throw this.writer.failure;
    const released = this.writer.endExecution();
    if (released) await released;
    this.finish();
  }

  /** Saves the live task as it is under the run's lease: its first write (see {@link recordFollowUp}). */
  private claimTask(live: Task): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.writer.enqueue(async () => {
        try {
          await this.writer.persist(live, this.writer.lastSeq);
          resolve();
        } catch (error) {
          this.writer.lose(error);
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
    const observation = this.deps.observer?.taskRunStarted?.(this.writer.ref());
    if (!observation) return this.executeToEnd(executor, undefined);
    if (observation.firstEvent) this.writer.awaitingFirstEvent = observation;
    // The end is reported from inside the run's own frame: a `then` here would keep two more
    // closures, a promise and this scope for as long as the run lives (an idle task's whole life).
    if (!observation.run) return this.executeToEnd(executor, observation);
    return observation.run(() => this.executeToEnd(executor, observation));
  }

  /** The state this run left its task in, for observers: undefined after a reply or once the task was lost. */
  private endState(): TaskState | undefined {
    return this.replied || this.writer.failure ? undefined : this.state;
  }

  /**
   * Runs the executor and settles the task; resolves with what the agent threw, if it did. An
   * observed run reports its end to `observation` (what the agent threw, or what failed here).
   */
  private executeToEnd(executor: AgentExecutor, observation: TaskRunObservation | undefined): Promise<unknown> {
    // Reactions on the agent's promise, not a frame awaiting it: an idle task's agent may take
    // hours, and a suspended frame (with its registers and promise) lived that long.
    let returned: unknown;
    try {
      returned = executor.execute(this);
    } catch (error) {
      return this.afterExecution(error, true, observation);
    }
    return Promise.resolve(returned).then(
      () => this.afterExecution(undefined, false, observation),
      (error: unknown) => this.afterExecution(error, true, observation),
    );
  }

  /** {@link executeToEnd} once the agent returned (or threw `error`: `threw`). */
  private async afterExecution(error: unknown, threw: boolean, observation: TaskRunObservation | undefined): Promise<unknown> {
    let failure: unknown;
    try {
      if (threw) {
        failure = error;
        if (!this.signal.aborted) this.deps.logger.error({ err: error }, 'agent execution failed');
      }
      // An agent that stops on abort returns while its cancel hook may still be stopping
      // upstream work; the task must end CANCELED, not COMPLETED or FAILED by that return.
      if (this.canceling) await this.canceling;
      // Awaited only when something is pending: a run whose reports all applied at once (or
      // that replied with a message) ends in this turn, with no promise per step.
      let pending = this.writer.drain();
      if (pending) await pending;
      this.settleAfterExecution(failure);
      pending = this.writer.drain();
      if (pending) await pending;
      // Durable mode: an interrupted task kept the lease until now; it is let go.
      const released = this.writer.endExecution();
      if (released) await released;
      this.finish();
    } catch (error) {
      observation?.ended(error, this.endState());
      throw error;
    }
    observation?.ended(failure, this.endState());
    return failure;
  }

  /**
   * The executor's return settles what it left open, as the AgentExecutor contract promises:
   * returning completes the task (also one the agent never reported on: it is created, then
   * completed), throwing fails it, and an interrupted state is re-asserted.
   */
  private settleAfterExecution(failure: unknown): void {
    if (this.replied) return;
    this.ensureCreated();
    this.writer.enqueue(async () => {
      const live = this.writer.current;
      const state = live?.status?.state;
      if (!live || state === undefined || isTerminal(state)) return;
      if (failure !== undefined)
        return void (await this.writer.apply(
          statusEvent(live, TaskState.TASK_STATE_FAILED, agentMessage('Agent execution failed', this.taskId, this.contextId)),
        ));
      if (!isInterrupted(state)) return void (await this.writer.apply(statusEvent(live, TaskState.TASK_STATE_COMPLETED)));
      // Re-assert an interrupted state the agent left untouched, so streams and waiters end.
      if (!this.writer.settledInRun) return void (await this.writer.apply(statusEvent(live, state, live.status?.message)));
    });
  }

  /** Ends a run that has no executor (cancel of an idle task) or whose executor returned. */
  finish(): void {
    this.writer.saveNow();
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
    await this.writer.drain();
    if (this.writer.failure) throw isVersionConflict(this.writer.failure) ? this.writer.failure : notCancelable(this.taskId);
    if (this.state === undefined || isTerminal(this.state)) throw notCancelable(this.taskId);
    const done = new Deferred<void>();
    this.canceling = done.promise;
    try {
      this.writer.controller().abort(new A2AError(A2AErrorCode.UnsupportedOperation, 'Task canceled'));
      const hook = callCancelHook(executor, this, hookTimeoutMs, this.deps.logger);
      if (hook) await hook;
      let canceled = false;
      this.writer.enqueue(async () => {
        // The agent may report CANCELED itself (from its hook or on abort, as a2a-python
        // agents do): the cancel took effect, unless that write lost the task.
        if (this.state === TaskState.TASK_STATE_CANCELED) {
          canceled = !this.writer.failure;
          return;
        }
        const live = this.writer.current;
        const state = live?.status?.state;
        if (!live || state === undefined || isTerminal(state)) return;
        canceled = await this.writer.apply(statusEvent(live, TaskState.TASK_STATE_CANCELED));
      });
      await this.writer.drain();
      // Durable mode saves the CANCELED status with its group: it counts only if that save won.
      if (this.writer.failure) canceled = false;
      // A lost race with another writer: the caller reloads the task and tries again.
      if (!canceled && this.writer.failure && isVersionConflict(this.writer.failure)) throw this.writer.failure;
      if (!canceled) throw notCancelable(this.taskId);
      return taskView(this.writer.liveTask());
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
    if (this.writer.failure || this.ended.settled) return;
    this.writer.fence(new A2AError(A2AErrorCode.UnsupportedOperation, reason));
    await callCancelHook(executor, this, hookTimeoutMs, this.deps.logger);
  }

  /** True once {@link handBack} let the task go: another worker resumes it. */
  get handedBack(): boolean {
    return this.handed;
  }

  /**
   * A worker shutting down hands a queued run of a retryable agent back to the queue instead of
   * failing it ({@link abort}): the agent is aborted, what it reported so far is saved, the
   * task's lease is let go with the task left as it is (not settled), and whatever the agent
   * reports or returns afterwards writes nothing. Resolves false when the run had lost its task.
   */
  async handBack(reason: string): Promise<boolean> {
    if (this.writer.failure || this.ended.settled) return false;
    const done = new Deferred<void>();
    this.canceling = done.promise;
    try {
      this.handed = await this.writer.letGo(new A2AError(A2AErrorCode.Unavailable, reason));
      return this.handed;
    } finally {
      done.resolve();
    }
  }

  /** Aborts the agent and fails the task visibly (server shutdown). */
  async abort(reason: string): Promise<boolean> {
    this.writer.controller().abort(new A2AError(A2AErrorCode.Unavailable, reason));
    let failed = false;
    this.writer.enqueue(async () => {
      const live = this.writer.current;
      const state = live?.status?.state;
      if (!live || state === undefined || isTerminal(state)) return;
      failed = await this.writer.apply(statusEvent(live, TaskState.TASK_STATE_FAILED, agentMessage(reason, this.taskId, this.contextId)));
    });
    await this.writer.drain();
    return failed && !this.writer.failure;
  }

  // ---- ExecutionContext: what the agent calls ----

  reply(message: StatusMessage): void {
    // A queued run's task exists before the agent runs (the receiving instance answered with
    // it): a reply completes it with the message instead.
    if (this.createdFor && !this.replied) {
      this.complete(message);
      return;
    }
    if (this.created || this.replied) {
      throw new A2AError(A2AErrorCode.InvalidAgentResponse, 'reply() is only valid as the first and only answer to a new task; use complete(message)');
    }
    this.replied = true;
    const reply = agentMessage(message, '', this.contextId);
    this.first.resolve({ kind: 'message', message: reply });
    if (this.writer.awaitingFirstEvent) this.writer.firstEventAnnounced();
  }

  submit(): void {
    this.ensureCreated();
  }

  working(message?: StatusMessage): void {
    this.setStatus(TaskState.TASK_STATE_WORKING, message);
  }

  artifact(chunk: ArtifactChunk): string {
    this.ensureCreated();
    const event = artifactEvent(this.ids, chunk);
    this.writer.report(event);
    return event.payload?.$case === 'artifactUpdate' ? (event.payload.value.artifact?.artifactId ?? '') : '';
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
    const event = statusEvent(this.ids, state, msg, metadata);
    this.writer.report(event);
  }

  private ensureCreated(): void {
    if (this.replied) {
      throw new A2AError(A2AErrorCode.InvalidAgentResponse, 'The agent already answered with a message; it cannot also report task events');
    }
    if (this.created) return;
    this.created = true;
    const task = newTask(this.taskId, this.contextId, this.message, undefined);
    this.writer.report({ payload: { $case: 'task', value: task } });
  }
}
