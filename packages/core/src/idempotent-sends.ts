/**
 * The rule of idempotent sends: a SendMessage or SendStreamingMessage whose (principal,
 * tenant, messageId) was seen within the window answers what the first one answered (its
 * task, or the agent's direct reply) instead of running again; the same `messageId` with a
 * different body is refused with InvalidParams. Why: a client that retries after a timeout or
 * a dropped connection cannot know whether its first send ran; without this, the retry runs
 * the agent twice (two tasks, two side effects).
 *
 * How a replay answers:
 * - SendMessage: the task, or the recorded message reply. A blocking replay first waits, as
 *   the first send did, until the task is terminal or interrupted, wherever it runs (a run in
 *   this process directly, a run on another instance through the event log and the store);
 *   `returnImmediately` answers the task as it is now.
 * - SendStreamingMessage: a task still running answers as SubscribeToTask does (the task,
 *   then its live events); a task that has ended answers a stream of one event, the task; a
 *   message reply answers a stream of that message.
 * - A send whose first copy is still being started (claimed, no outcome yet) waits for it, up
 *   to {@link PENDING_MS}, then is refused with Unavailable (retry later).
 * @internal
 */
import { TaskState, type Message, type SendMessageRequest, type SendMessageResponse } from '@a2a-polyglot/model';
import { A2AError, errors } from './a2a-error.js';
import type { CallContext } from './call-context.js';
import { A2AErrorCode } from './error-code.js';
import { taskLogKey, type EventLog } from './event-log.js';
import { singleEventStream, type EventStream } from './event-stream.js';
import { ANONYMOUS_SEND_PRINCIPAL, type IdempotencyStore, type SendClaim, type SendKey, type SendOutcome } from './idempotency-store.js';
import { waitOrAbort, type Caller } from './request-handler-helpers.js';
import { SendBody } from './send-body.js';
import type { TaskQueries } from './task-queries.js';
import type { FirstAnswer } from './task-run-types.js';
import type { RunRegistry } from './run-registry.js';
import type { TaskRun } from './task-run.js';
import { isInterrupted, isTerminal } from './task-state.js';
import { isThenable } from './serial-queue.js';
import { sleep } from './util.js';

/** Default of `RequestHandlerOptions.idempotencyWindowMs`: 24 hours. */
export const DEFAULT_IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim stays without an outcome: past it (its instance died while starting the
 * send), a retry takes the key over; a duplicate waits for an outcome that long at most.
 */
export const PENDING_MS = 60_000;

/** How often a duplicate of a send still being started looks again (the store announces nothing). */
const PENDING_POLL_MS = 20;

/** How often a blocking replay of a task running elsewhere re-reads it even if the log stays silent. */
const SETTLE_RECHECK_MS = 500;

/** {@link IdempotentSends.decide}'s answer for a send whose first copy has no outcome yet. */
const PENDING = Symbol('pending');

/** What a send under a key it owns tells the rule once the run answered, or failed to start. */
export interface ClaimedSend {
  /** Records the run's first answer; a run whose task could not be created forgets the claim. */
  answered(run: TaskRun, first: FirstAnswer): void;
  /** The send was refused before it ran: its retry may run. */
  refused(): void;
}

/** The answer to a send seen before, as SendMessage or as SendStreamingMessage gives it. */
export interface SendReplay {
  blocking(request: SendMessageRequest, ctx: CallContext): Promise<SendMessageResponse>;
  streaming(ctx: CallContext): Promise<EventStream>;
}

/** What {@link IdempotentSends.claim} decided: run the send (owning it), or replay an outcome. */
export type SendDecision = { readonly claimed: ClaimedSend } | { readonly replay: SendReplay } | undefined;

/** What answering a replay reads: the task queries and the runs of this process. */
export interface ReplayDeps {
  readonly tasks: TaskQueries;
  readonly runs: Pick<RunRegistry, 'find'>;
  readonly log: EventLog;
}

/** The rule (see the module doc) over an {@link IdempotencyStore}. */
export class IdempotentSends {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly windowMs: number,
    private readonly deps: ReplayDeps,
    private readonly logger: { warn(obj: object, msg: string): void },
  ) {}

  /**
   * Claims the send's key; undefined for a send without a `messageId` (validation refuses it
   * later). Synchronous when the store answers synchronously (the in-memory one): the usual
   * send, whose key is new, then costs no promise here. The call's signal is read only when
   * the claim has to wait: on the HTTP bindings, reading it makes the request's
   * AbortController and `close` listener (see the http package's `lazyRequestSignal`).
   */
  claim(caller: Caller, request: SendMessageRequest, ctx: Pick<CallContext, 'signal'>): SendDecision | Promise<SendDecision> {
    const messageId = request.message?.messageId;
    if (!messageId) return undefined;
    const key: SendKey = { principal: caller.owner ?? ANONYMOUS_SEND_PRINCIPAL, tenant: caller.tenant, messageId };
    const body = SendBody.of(request);
    return isThenable(body) ? body.then((b) => this.claimBody(caller, key, b, ctx)) : this.claimBody(caller, key, body, ctx);
  }

  private claimBody(caller: Caller, key: SendKey, body: SendBody, ctx: Pick<CallContext, 'signal'>): SendDecision | Promise<SendDecision> {
    const now = Date.now();
    const found = this.store.claim(key, body.fingerprint, now, now + PENDING_MS);
    if (!isThenable(found)) {
      const decision = this.decide(caller, key, body, found);
      if (decision !== PENDING) return decision;
    }
    return this.claimWhenStarted(caller, key, body, found, now + PENDING_MS, ctx);
  }

  /** Waits for a claim's answer, and while the first copy of the send is still being started, asks again. */
  private async claimWhenStarted(
    caller: Caller,
    key: SendKey,
    body: SendBody,
    first: SendClaim | Promise<SendClaim>,
    deadline: number,
    ctx: Pick<CallContext, 'signal'>,
  ): Promise<SendDecision> {
    let found = first;
    for (;;) {
      const decision = this.decide(caller, key, body, await found);
      if (decision !== PENDING) return decision;
      if (Date.now() > deadline) throw new A2AError(A2AErrorCode.Unavailable, `A send with messageId ${key.messageId} is still being started; retry later`);
      await sleep(PENDING_POLL_MS, ctx.signal).catch(() => {
        throw new A2AError(A2AErrorCode.DeadlineExceeded, 'The caller went away');
      });
      const now = Date.now();
      found = this.store.claim(key, body.fingerprint, now, now + PENDING_MS);
    }
  }

  /** What one claim's answer means: own the send, replay it, refuse it (another body), or {@link PENDING}. */
  private decide(caller: Caller, key: SendKey, body: SendBody, found: SendClaim): SendDecision | typeof PENDING {
    if (found.kind === 'new') return { claimed: this.owned(key, body.fingerprint) };
    if (!body.matches(found.fingerprint)) {
      throw errors.invalidParams(`messageId ${key.messageId} was already sent with a different message; a new message needs a new messageId`, [
        { field: 'message.messageId', description: 'already used for a different message' },
      ]);
    }
    const { outcome } = found;
    if (!outcome) return PENDING;
    return {
      replay: {
        blocking: (req, c) => this.replayBlocking(caller, req, outcome, c),
        streaming: (c) => this.replayStreaming(caller, outcome, c),
      },
    };
  }

  private owned(key: SendKey, fingerprint: string): ClaimedSend {
    const forget = () => this.quietly(() => this.store.release(key, fingerprint), 'could not release a send claim');
    return {
      answered: (run, first) => {
        // The task could not even be created (store down): nothing to replay, let a retry run.
        if (first.kind === 'task' && run.failure && !run.view()) return forget();
        const outcome: SendOutcome = first.kind === 'message' ? { kind: 'message', message: first.message } : { kind: 'task', taskId: run.taskId };
        this.quietly(() => this.store.record(key, fingerprint, outcome, Date.now() + this.windowMs), 'could not record a send outcome');
      },
      refused: forget,
    };
  }

  /** Runs a store write nobody waits for; its failure (sync or async) is logged, never thrown. */
  private quietly(write: () => void | Promise<void>, message: string): void {
    const warn = (err: unknown) => this.logger.warn({ err }, message);
    try {
      const done = write();
      if (isThenable(done)) done.then(undefined, warn);
    } catch (err) {
      warn(err);
    }
  }

  /** SendMessage's answer to a replay. */
  private async replayBlocking(caller: Caller, request: SendMessageRequest, outcome: SendOutcome, ctx: CallContext): Promise<SendMessageResponse> {
    if (outcome.kind === 'message') return { payload: { $case: 'message', value: outcome.message } };
    if (!request.configuration?.returnImmediately) {
      const run = this.deps.runs.find(caller.tenant, outcome.taskId);
      if (run) {
        if (!run.settled.settled) await waitOrAbort(run.settled.promise, ctx.signal);
      } else {
        await this.settledElsewhere(caller.tenant, outcome.taskId, ctx.signal);
      }
    }
    const task = await this.deps.tasks.get(
      caller,
      { tenant: caller.tenant, id: outcome.taskId, historyLength: request.configuration?.historyLength },
      ctx.signal,
    );
    return { payload: { $case: 'task', value: task } };
  }

  /**
   * Waits until the task, run by another instance (or by nobody), is terminal or interrupted:
   * woken by its next event in the log, and every {@link SETTLE_RECHECK_MS} re-read anyway.
   */
  private async settledElsewhere(tenant: string, taskId: string, signal: AbortSignal | undefined): Promise<void> {
    const key = taskLogKey(tenant, taskId);
    this.deps.log.follow?.(key);
    for (;;) {
      const found = await this.deps.tasks.snapshot(tenant, taskId);
      const state = found?.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
      if (!found || isTerminal(state) || isInterrupted(state)) return;
      if (signal?.aborted) throw new A2AError(A2AErrorCode.DeadlineExceeded, 'The caller went away');
      const wake = new AbortController();
      const timer = setTimeout(() => wake.abort(), SETTLE_RECHECK_MS);
      const onAbort = () => wake.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await this.deps.log.waitFor(key, found.seq, wake.signal);
      } catch {
        // A log that cannot be read now: the store is read again after the timer.
        await sleep(SETTLE_RECHECK_MS, signal).catch(() => undefined);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    }
  }

  /** SendStreamingMessage's answer to a replay. */
  private async replayStreaming(caller: Caller, outcome: SendOutcome, ctx: CallContext): Promise<EventStream> {
    if (outcome.kind === 'message') return messageStream(outcome.message);
    const snapshot = await this.deps.tasks.snapshot(caller.tenant, outcome.taskId);
    const state = snapshot?.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (snapshot && !isTerminal(state)) {
      try {
        return await this.deps.tasks.subscribe(caller, { tenant: caller.tenant, id: outcome.taskId }, ctx);
      } catch (error) {
        // It ended in between: answered as an ended task below.
        if (!(error instanceof A2AError) || error.code !== A2AErrorCode.UnsupportedOperation) throw error;
      }
    }
    const task = await this.deps.tasks.get(caller, { tenant: caller.tenant, id: outcome.taskId, historyLength: undefined }, ctx.signal);
    return singleEventStream({ payload: { $case: 'task', value: task } });
  }
}

function messageStream(message: Message): EventStream {
  return singleEventStream({ payload: { $case: 'message', value: message } });
}
