/**
 * Starting a task run for SendMessage and SendStreamingMessage: validating the message,
 * resolving a follow-up to its interrupted task (ownership, state, the previous run still
 * ending), admitting a new task, registering the run and its inline push config, and
 * executing it. The `RequestHandler` answers the call from the run this returns.
 * @internal
 */
import { clipInput, TaskState, type AgentCard, type Message, type SendMessageRequest, type Task, type TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { A2AError, errors } from './a2a-error.js';
import type { AgentExecutor } from './agent-executor.js';
import { type CallContext, wireVersionOf } from './call-context.js';
import { requirePush } from './call-preamble.js';
import { A2AErrorCode } from './error-code.js';
import { estimateBytes } from './estimate-size.js';
import { taskLogKey, type EventLog } from './event-log.js';
import { lazyChild } from './lazy-logger.js';
import type { Logger } from './logger.js';
import { logTaskEnd } from './task-end-log.js';
import type { PushConfigOperations } from './push/push-config-operations.js';
import { runKey, within, type Caller } from './request-handler-helpers.js';
import { checkInputModes } from './input-modes.js';
import { checkOutputModes, validateHistoryLength, validateMessage } from './request-validation.js';
import { refuseReturnImmediately } from './caller-bound-run.js';
import { isThenable } from './serial-queue.js';
import type { RunRegistry } from './run-registry.js';
import type { QueuedRun } from './run-queue.js';
import { type ConcurrencyCaps, NO_SLOT, type ReleaseSlot } from './concurrency-caps.js';
import type { TaskQueries } from './task-queries.js';
import { TaskRun, type RunDeps } from './task-run.js';
import { generationField, generationMismatch } from './task-generation.js';
import { isInterrupted, isTerminal } from './task-state.js';
import { isVersionConflict, type StoredTask, type TaskStore } from './task-store.js';
import { newId, sleep } from './util.js';

/** How long a follow-up waits for the previous run of an interrupted task to return. */
const FOLLOW_UP_WAIT_MS = 1000;

/** How often a waiting follow-up looks again (runs and reservations announce nothing). */
const FOLLOW_UP_POLL_MS = 25;

/** What a {@link RunStarter} works with, all owned by the `RequestHandler`. */
export interface RunStarterDeps {
  readonly card: AgentCard;
  readonly executor: AgentExecutor;
  readonly store: TaskStore;
  readonly log: EventLog;
  readonly logger: Logger;
  readonly backgroundExecution: boolean;
  /** `RequestHandlerOptions.acceptAnyInputMode`: skip the input-mode check. */
  readonly acceptAnyInputMode: boolean;
  /** Runs executing in this process: the starter registers and forgets its own, and reserves follow-ups. */
  readonly runs: RunRegistry;
  /** The handler's caps on runs at once: each run holds a slot from its admission until its `execute` returns. */
  readonly caps: ConcurrencyCaps;
  readonly tasks: TaskQueries;
  readonly pushConfigs: PushConfigOperations;
  /** The collaborators of a new run (the handler's store, log, push, lease, observer). */
  readonly runDeps: () => RunDeps;
  /**
   * Set when sends are queued (`RequestHandlerOptions.queue`): a run is handed to the queue
   * once its task is stored, for a worker on any instance to execute.
   */
  readonly enqueue?: (run: Omit<QueuedRun, 'agent'>) => Promise<void>;
  /** A run with no agent over a stored task: how a task that could not be enqueued is failed. */
  readonly idleRun: (stored: StoredTask) => TaskRun;
}

/** What {@link RunStarter.start} settled before a send is admitted past the concurrency caps. */
interface AdmittedSend {
  readonly message: Message;
  readonly taskId: string;
  readonly contextId: string;
  readonly existing: StoredTask | undefined;
  readonly expected: number | undefined;
  readonly inlinePush: TaskPushNotificationConfig | undefined;
}

/** What {@link RunStarter.handOff} needs of the send beside its run. */
interface HandOff {
  readonly request: SendMessageRequest;
  readonly streaming: boolean;
  readonly caller: Caller;
  readonly releaseSlot: ReleaseSlot;
  readonly start: { task: Task; seq: number } | undefined;
}

/** A run that was started, the task as it found it (follow-ups) and the caller it serves. */
export interface StartedRun {
  readonly run: TaskRun;
  readonly start: { task: Task; seq: number } | undefined;
  readonly caller: Caller;
  /** The run was handed to the run queue: it ended here, a worker executes the task (read it from the store and the log). */
  readonly queued?: boolean;
}

/** Starts the runs of SendMessage and SendStreamingMessage (see the module doc). */
export class RunStarter {
  constructor(private readonly deps: RunStarterDeps) {}

  /**
   * Starts a run for a send whose preamble is `begun`; for a follow-up, `start` is the task
   * as the run found it (where its stream starts).
   */
  async start(request: SendMessageRequest, ctx: CallContext, streaming: boolean, begun: Caller | Promise<Caller>): Promise<StartedRun> {
    const caller = isThenable(begun) ? await begun : begun;
    // Refused after authentication, before any work; streams ignore returnImmediately (spec).
    if (!streaming && !this.deps.backgroundExecution) refuseReturnImmediately(request);
    const message = validateMessage(request.message);
    if (!this.deps.acceptAnyInputMode) checkInputModes(message, this.deps.card);
    validateHistoryLength(request.configuration?.historyLength, 'configuration.historyLength');
    checkOutputModes(request.configuration, this.deps.card);
    const inlinePush = request.configuration?.taskPushNotificationConfig;
    if (inlinePush) requirePush(this.deps.card);

    // 1.1 `ifGenerationMatch`: only for a follow-up (a message creating a task ignores it, spec §3.2.2).
    const expected = message.taskId ? generationField(caller, request.configuration?.ifGenerationMatch, 'configuration.ifGenerationMatch') : undefined;
    let existing: StoredTask | undefined;
    let taskId: string;
    let contextId: string;
    if (message.taskId) {
      taskId = message.taskId;
      const key = runKey(caller.tenant, taskId);
      // Ownership before any rule that depends on the task: someone else's task answers
      // TaskNotFound, exactly like an unknown id, never "still working".
      await this.deps.tasks.visible(caller, taskId);
      const active = this.deps.runs.get(key);
      // A run that just reported an interrupted state is usually a few ticks from returning.
      if (active?.state !== undefined && isInterrupted(active.state)) await within(active.ended.promise, FOLLOW_UP_WAIT_MS);
      if (this.deps.runs.busy(key)) {
        if (expected === undefined) throw stillWorking(taskId);
        await this.awaitTurn(key, taskId, expected);
      }
      const release = this.deps.runs.reserve(key, () => stillWorking(taskId));
      try {
        existing = await this.deps.tasks.loadStored(caller, taskId);
      } finally {
        release();
      }
      if (message.contextId && message.contextId !== existing.task.contextId) {
        throw errors.invalidParams(`contextId ${clipInput(message.contextId)} does not match task ${taskId} (context ${existing.task.contextId})`, [
          { field: 'message.contextId', description: 'does not match the task' },
        ]);
      }
      checkFollowUp(taskId, existing, expected);
      const raced = this.deps.runs.get(key);
      if (raced) throw expected !== undefined && tookTurn(raced, expected) ? generationMismatch(taskId, expected, raced.lastSeq) : stillWorking(taskId);
      contextId = existing.task.contextId;
    } else {
      taskId = newId();
      contextId = message.contextId || newId();
    }

    const send: AdmittedSend = { message, taskId, contextId, existing, expected, inlinePush };
    // Without caps there is no slot to give back: no second async layer on every send.
    if (this.deps.caps.off) return this.startAdmitted(request, ctx, streaming, caller, send, NO_SLOT);
    // Past a concurrency cap the send is refused here, before anything is stored or executed;
    // the slot is held until the run's `execute` returns (or given back if it never starts).
    const releaseSlot = this.deps.caps.acquire(caller.owner);
    try {
      return await this.startAdmitted(request, ctx, streaming, caller, send, releaseSlot);
    } catch (error) {
      releaseSlot();
      throw error;
    }
  }

  /** The rest of {@link start} once the send holds a slot: `releaseSlot` is called when the run ends. */
  private async startAdmitted(
    request: SendMessageRequest,
    ctx: CallContext,
    streaming: boolean,
    caller: Caller,
    admitted: AdmittedSend,
    releaseSlot: ReleaseSlot,
  ): Promise<StartedRun> {
    const { message, taskId, contextId, existing, expected, inlinePush } = admitted;
    // A stream is read from the event log: with the log unreachable the client would get an
    // error and no task id while the task ran anyway (and its retry ran it twice). Refuse
    // before anything is stored or executed.
    if (streaming) await this.requireEventLog(caller.tenant, taskId);
    // A bounded store full of running tasks refuses a new one here, before it has an id anywhere.
    if (!existing) this.deps.store.admitNewTask?.(caller.tenant, estimateBytes(message));

    // The run logs to the call that started it (binding, request id, trace id) and its task
    // (already on the call's logger when the message named the task).
    // Without a call logger, the handler's names the binding itself (the task-end line has it).
    const runLogger =
      message.taskId && ctx.logger
        ? ctx.logger
        : ctx.logger
          ? lazyChild(ctx.logger, { taskId })
          : lazyChild(this.deps.logger, { binding: ctx.binding, taskId });
    const newRun = (stored: StoredTask | undefined) =>
      new TaskRun(
        { ...this.deps.runDeps(), logger: runLogger },
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
    if (existing) run = await this.claimFollowUp(caller, run, newRun, expected);
    this.deps.runs.register(run);
    if (inlinePush) {
      try {
        await this.deps.pushConfigs.save(caller.tenant, { ...inlinePush, taskId }, wireVersionOf(ctx));
      } catch (error) {
        this.deps.runs.unregister(run);
        run.finish();
        throw error;
      }
    }
    const start = existing ? run.view() : undefined;
    if (this.deps.enqueue) return this.handOff(run, { request, streaming, caller, releaseSlot, start });
    this.execute(run, runLogger, releaseSlot);
    if (inlinePush) {
      void run.first.promise.then((first) => {
        if (first.kind === 'message') void this.deps.pushConfigs.deleteAll(caller.tenant, taskId);
      });
    }
    return { run, start, caller };
  }

  /**
   * Executes `run` and forgets it when it ends. Its own scope: the reactions live as long as
   * the run (an idle task's whole life), and closures made in {@link startAdmitted} would share
   * that scope's context, keeping the request, the message and the call's objects alive with them.
   */
  private execute(run: TaskRun, runLogger: Logger, releaseSlot: ReleaseSlot): void {
    // One reaction for both outcomes (catch + finally cost two more promises per request).
    const startedAt = performance.now();
    const forget = (): void => {
      releaseSlot();
      this.deps.runs.unregister(run);
      logTaskEnd(runLogger, this.deps.card.name, run.state, startedAt);
    };
    void run.execute(this.deps.executor).then(forget, (error: unknown) => {
      runLogger.error({ err: error }, 'run failed');
      forget();
    });
  }

  /**
   * Queued sends: stores the task (a new one as SUBMITTED), lets its lease go and enqueues its
   * run, then ends the run here. A task that could not be enqueued is failed visibly.
   */
  private async handOff(run: TaskRun, h: HandOff): Promise<StartedRun> {
    const { request, caller } = h;
    const { enqueue } = this.deps;
    try {
      // Called only when sends are queued; the check narrows the optional dependency.
      if (!enqueue) throw new Error('RunStarter.handOff needs RunStarterDeps.enqueue');
      await run.handOff();
      try {
        await enqueue({
          tenant: caller.tenant,
          taskId: run.taskId,
          owner: caller.owner,
          principal: caller.principal,
          message: run.message,
          configuration: request.configuration,
          metadata: request.metadata,
          extensions: caller.extensions,
          streaming: h.streaming,
          followUp: h.start !== undefined,
          version: run.lastSeq,
        });
      } catch (error) {
        await this.failUnqueued(run, error);
        throw error;
      }
    } finally {
      h.releaseSlot();
      this.deps.runs.unregister(run);
      run.finish();
    }
    return { run, start: h.start, caller, queued: true };
  }

  /** A task stored but never enqueued would stay SUBMITTED forever: it is failed, with the reason. */
  private async failUnqueued(run: TaskRun, error: unknown): Promise<void> {
    this.deps.logger.error({ taskId: run.taskId, err: error }, 'enqueuing a run failed');
    const stored = await this.deps.store.get(run.tenant, run.taskId).catch(() => undefined);
    if (!stored) return;
    const failing = this.deps.idleRun(stored);
    try {
      await failing.abort('The task could not be queued for execution').catch(() => false);
    } finally {
      failing.finish();
    }
  }

  /**
   * Answers Unavailable unless the event log answers a read of the task's log now. Streaming
   * sends call it before any work, so a client refused for an unreachable log (e.g. Redis down)
   * knows that nothing was stored or executed and can retry safely.
   */
  private async requireEventLog(tenant: string, taskId: string): Promise<void> {
    try {
      await this.deps.log.lastSeq(taskLogKey(tenant, taskId));
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
  private async claimFollowUp(caller: Caller, run: TaskRun, newRun: (stored: StoredTask) => TaskRun, expected: number | undefined): Promise<TaskRun> {
    const deadline = Date.now() + FOLLOW_UP_WAIT_MS;
    const release = this.deps.runs.reserve(runKey(caller.tenant, run.taskId), () => stillWorking(run.taskId));
    try {
      for (;;) {
        try {
          await run.recordFollowUp();
          return run;
        } catch (error) {
          if (!isVersionConflict(error)) throw error;
          if (Date.now() > deadline) throw stillWorking(run.taskId);
        }
        await sleep(FOLLOW_UP_POLL_MS);
        const stored = await this.deps.tasks.loadStored(caller, run.taskId);
        // A conditional follow-up whose claim lost: the task moved on (another follow-up won
        // the lease and its run wrote), so it was not this one's turn. The store's version
        // check and lease make this hold across instances.
        checkFollowUp(run.taskId, stored, expected);
        if (!isInterrupted(stored.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) throw stillWorking(run.taskId);
        run = newRun(stored);
      }
    } finally {
      release();
    }
  }

  /**
   * A conditional follow-up (1.1 `ifGenerationMatch`) that finds the task busy in this process
   * (a run, or another follow-up or cancel being set up) waits, up to
   * {@link FOLLOW_UP_WAIT_MS}, for the outcome instead of being refused at once: a run here
   * that took the turn ({@link tookTurn}: the other follow-up won) is a mismatch; once nothing
   * holds the task, this one proceeds and the store's version decides. Still busy at the
   * deadline: the plain "still working" refusal.
   */
  private async awaitTurn(key: string, taskId: string, expected: number): Promise<void> {
    const deadline = Date.now() + FOLLOW_UP_WAIT_MS;
    for (;;) {
      const run = this.deps.runs.get(key);
      if (run && tookTurn(run, expected)) throw generationMismatch(taskId, expected, run.lastSeq);
      if (!run && !this.deps.runs.isReserved(key)) return;
      if (Date.now() > deadline) throw stillWorking(taskId);
      await sleep(FOLLOW_UP_POLL_MS);
    }
  }
}

/**
 * The rules a follow-up's task must meet, as it is stored (checked when the follow-up loads it
 * and again after each lost claim): a conditional follow-up that names a past generation is a
 * mismatch (spec: MUST), also when the task has ended since, so the client learns to re-read
 * it rather than that it ended; a terminal task accepts no messages.
 */
function checkFollowUp(taskId: string, stored: StoredTask, expected: number | undefined): void {
  if (expected !== undefined && stored.version !== expected) throw generationMismatch(taskId, expected, stored.version);
  const state = stored.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  if (isTerminal(state)) throw errors.unsupported(`Task ${taskId} is ${TaskState[state]}; terminal tasks accept no messages`);
}

/**
 * True when `run` rules out a follow-up conditional on generation `expected`: it moved the task
 * past it, or it is a follow-up that started from it (another message answered that generation).
 * A run that reached `expected` itself (it just asked for input) only has to end first.
 */
function tookTurn(run: TaskRun, expected: number): boolean {
  return run.lastSeq !== expected || (run.startSeq === expected && run.task !== undefined);
}

/** The refusal of a follow-up while the task is still being worked on. */
function stillWorking(taskId: string): A2AError {
  return errors.unsupported(`Task ${taskId} is still working; send follow-ups when it is input-required or auth-required`);
}
