import { A2AError, A2AErrorCode, eventState, isInterrupted, isTerminal } from '@a2a-polyglot/core';
import { TaskState, type StreamResponse, type Task, type TaskStatus } from '@a2a-polyglot/model';
import { aborted, clientError } from './failures.js';
import { backoffDelay, isTransient, sleep, type RetryPolicy } from './retry.js';
import type { ClientEvent } from './transport.js';

/** Why a stream ended normally. */
export type StreamEnd =
  /** The task reached completed, failed, canceled or rejected. */
  | 'terminal'
  /** The task waits for the client (input-required, auth-required). */
  | 'interrupted'
  /** The agent answered with a single Message, no task. */
  | 'message';

/** One resubscribe the stream is about to make, for progress reporting. */
export interface ResumeInfo {
  readonly taskId: string;
  /** 1-based attempt number since the last delivered event. */
  readonly attempt: number;
  /** Resume point sent to the server (undefined: it does not number events; the snapshot is used). */
  readonly afterSeq: number | undefined;
  readonly delayMs: number;
  /** What cut the stream. */
  readonly cause: A2AError;
}

/** What {@link TaskStream} needs from the client: how to open, resubscribe and read the task. */
export interface TaskStreamSource {
  /** The original call (SendStreamingMessage or SubscribeToTask). */
  open(): AsyncIterable<ClientEvent>;
  /** SubscribeToTask, resuming after `afterSeq` when the server numbers its events. */
  resubscribe(taskId: string, afterSeq: number | undefined): AsyncIterable<ClientEvent>;
  /** GetTask, for a task that ended while we were away and can no longer be subscribed to. */
  getTask(taskId: string): Promise<Task>;
}

/** Options of {@link TaskStream}. */
export interface TaskStreamOptions {
  /** Resubscribe policy; `attempts: 0` turns resuming off. */
  readonly resume: RetryPolicy;
  readonly signal?: AbortSignal;
  /** The task id when known up front (SubscribeToTask). */
  readonly taskId?: string;
  readonly onResume?: (info: ResumeInfo) => void;
  /**
   * The stream continues an interrupted task (SendStreamingMessage with a `taskId`): its first
   * event is the Task as it was before the message, still interrupted, which is not an end.
   */
  readonly followUp?: boolean;
}

/**
 * A task's event stream that survives dropped connections.
 *
 * It tells a stream that *ended* (a terminal or interrupted state was delivered, or the
 * answer was a single Message) from one that was *cut* (the connection dropped, went idle or
 * closed before that). On a cut it resubscribes by itself with exponential backoff:
 * - when the server numbers its events (SSE `id:`, gRPC `a2a-stream-first-seq`), from the last
 *   seq delivered, and drops anything at or below it, so nothing is duplicated or lost;
 * - otherwise it subscribes afresh, whose first event is the Task snapshot, and drops that
 *   snapshot or a status update when they only repeat the state already delivered;
 * - if the task ended meanwhile and the server refuses the subscription, it delivers the
 *   final Task from GetTask and ends.
 * Iterate it once. Breaking out of the loop closes the connection (the task keeps running).
 */
export class TaskStream implements AsyncIterable<ClientEvent> {
  private id: string | undefined;
  private seq: number | undefined;
  private statusKey: string | undefined;
  /** Parts delivered per artifact id: what a snapshot is compared with. */
  private readonly artifacts = new Map<string, number>();
  private ending: StreamEnd | undefined;
  private resumeCount = 0;
  private resumed = false;
  private started = false;

  constructor(
    private readonly source: TaskStreamSource,
    private readonly options: TaskStreamOptions,
  ) {
    this.id = options.taskId;
  }

  /** The task id, once the first event named it. */
  get taskId(): string | undefined {
    return this.id;
  }

  /** Seq of the last event delivered, when the server numbers them. */
  get lastSeq(): number | undefined {
    return this.seq;
  }

  /** How the stream ended; undefined while it runs, or if it failed. */
  get end(): StreamEnd | undefined {
    return this.ending;
  }

  /** Number of resubscribes made so far. */
  get resumes(): number {
    return this.resumeCount;
  }

  [Symbol.asyncIterator](): AsyncIterator<ClientEvent> {
    if (this.started) throw new Error('A TaskStream can be iterated only once');
    this.started = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<ClientEvent> {
    let source = this.source.open();
    let attempt = 0;
    let first = this.options.followUp === true;
    for (;;) {
      let cause: A2AError;
      try {
        for await (const item of source) {
          if (this.accept(item)) {
            attempt = 0;
            yield item;
          }
          const priorState = first && item.event.payload?.$case === 'task';
          first = false;
          const end = endOf(item.event);
          if (end && !(priorState && end === 'interrupted')) {
            this.ending = end;
            return;
          }
        }
        cause = clientError(A2AErrorCode.Unavailable, 'cut', 'The stream closed before the task reached a final or interrupted state');
      } catch (thrown) {
        const error = A2AError.from(thrown);
        if (this.options.signal?.aborted) throw aborted('The stream');
        if (this.resumed && this.id && error.code === A2AErrorCode.UnsupportedOperation) {
          const final = await this.finalSnapshot(this.id, error);
          if (final) yield final;
          return;
        }
        if (!isTransient(error)) throw error;
        cause = error;
      }
      if (!this.id) throw clientError(cause.code, 'cut', `${cause.message}; no event named the task yet, so it cannot be resumed`, cause);
      attempt++;
      if (attempt > this.options.resume.attempts) {
        const tried = this.options.resume.attempts;
        throw clientError(
          cause.code,
          'cut',
          tried === 0 ? cause.message : `${cause.message} (gave up after ${tried} resubscribe attempt${tried === 1 ? '' : 's'})`,
          cause,
        );
      }
      const delayMs = backoffDelay(this.options.resume, attempt);
      this.options.onResume?.({ taskId: this.id, attempt, afterSeq: this.seq, delayMs, cause });
      await sleep(delayMs, this.options.signal, 'The stream');
      this.resumeCount++;
      this.resumed = true;
      source = this.source.resubscribe(this.id, this.seq);
    }
  }

  /** Records an event; false when it duplicates what was already delivered. */
  private accept(item: ClientEvent): boolean {
    const { event } = item;
    const taskId = taskIdOf(event);
    if (taskId) this.id = taskId;
    if (item.seq !== undefined) {
      if (this.seq !== undefined && item.seq <= this.seq) return false;
      this.seq = item.seq;
    }
    const payload = event.payload;
    if (payload?.$case === 'artifactUpdate') {
      const artifact = payload.value.artifact;
      if (artifact) {
        const before = payload.value.append ? (this.artifacts.get(artifact.artifactId) ?? 0) : 0;
        this.artifacts.set(artifact.artifactId, before + artifact.parts.length);
      }
      return true;
    }
    if (payload?.$case === 'task' || payload?.$case === 'statusUpdate') {
      const key = statusKeyOf(payload.value.status);
      // Without numbering, a resubscribe repeats the current state: drop exact repeats.
      const sameArtifacts = payload.$case === 'statusUpdate' || this.sameArtifacts(payload.value);
      const repeat = item.seq === undefined && this.resumed && key === this.statusKey && sameArtifacts;
      this.statusKey = key;
      if (payload.$case === 'task') {
        this.artifacts.clear();
        for (const a of payload.value.artifacts) this.artifacts.set(a.artifactId, a.parts.length);
      }
      return !repeat;
    }
    return true;
  }

  private sameArtifacts(task: Task): boolean {
    if (task.artifacts.length !== this.artifacts.size) return false;
    return task.artifacts.every((a) => this.artifacts.get(a.artifactId) === a.parts.length);
  }

  /** The task that ended while we were away, unless it only repeats what was delivered. */
  private async finalSnapshot(taskId: string, refusal: A2AError): Promise<ClientEvent | undefined> {
    const task = await this.source.getTask(taskId);
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (!isTerminal(state)) throw refusal;
    this.ending = 'terminal';
    const repeat = statusKeyOf(task.status) === this.statusKey && this.sameArtifacts(task);
    return repeat ? undefined : { seq: undefined, event: { payload: { $case: 'task', value: task } } };
  }
}

/** Whether an event ends its stream (spec §3.5, §7: message-only answer, terminal or interrupted state). */
export function endOf(event: StreamResponse): StreamEnd | undefined {
  if (event.payload?.$case === 'message') return 'message';
  const state = eventState(event);
  if (state === undefined) return undefined;
  if (isTerminal(state)) return 'terminal';
  if (isInterrupted(state)) return 'interrupted';
  return undefined;
}

/** The task an event belongs to. */
export function taskIdOf(event: StreamResponse): string | undefined {
  const payload = event.payload;
  if (!payload) return undefined;
  switch (payload.$case) {
    case 'task':
      return payload.value.id || undefined;
    case 'statusUpdate':
      return payload.value.taskId || undefined;
    case 'artifactUpdate':
      return payload.value.taskId || undefined;
    case 'message':
      return payload.value.taskId || undefined;
  }
}

function statusKeyOf(status: TaskStatus | undefined): string {
  return `${status?.state ?? 0}|${status?.timestamp ?? ''}`;
}
