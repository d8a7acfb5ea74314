import {
  Task as TaskCodec,
  TaskState,
  type GetTaskRequest,
  type ListTasksRequest,
  type ListTasksResponse,
  type SubscribeToTaskRequest,
  type Task,
} from '@a2a-polyglot/model';
import { errors } from './a2a-error.js';
import type { CallContext } from './call-context.js';
import { taskLogKey, type EventLog } from './event-log.js';
import { followTask, type EventStream } from './event-stream.js';
import { requireId, type Caller } from './request-handler-helpers.js';
import { DEFAULT_LIST_TASKS_MAX_BYTES, DEFAULT_LONG_POLL_MAX_MS, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './request-handler-options.js';
import { validateHistoryLength } from './request-validation.js';
import type { RunRegistry } from './run-registry.js';
import { taskView } from './task-events.js';
import { answerStream, answerTask, generationField } from './task-generation.js';
import type { TaskRun } from './task-run.js';
import { isTerminal } from './task-state.js';
import { pageTokenAfter, type StoredTask, type TaskStore } from './task-store.js';

/** How long a resume waits for the log to catch up with a snapshot that is ahead of it. */
const LOG_CATCH_UP_MS = 1000;

/**
 * Reading tasks on behalf of a caller: the rule of who may see a task (someone else's task is
 * TaskNotFound, never "forbidden"), the freshest view of a task (the run executing it in this
 * process, else the store), and the read operations built on them: GetTask, ListTasks and
 * SubscribeToTask. Apart from the `RequestHandler` so the read side, used by every
 * operation, is decided in one place and the handler keeps to running tasks. The handler runs
 * each operation's preamble (capabilities, authentication, tenant) and hands over the caller.
 * @internal
 */
export class TaskQueries {
  /** `runs`: the runs executing in this process, whose live tasks are fresher than the store's; only read here. */
  constructor(
    private readonly store: TaskStore,
    private readonly log: EventLog,
    private readonly runs: RunRegistry,
    /** Byte budget of one ListTasks page; see {@link RequestHandlerOptions.listTasksMaxBytes}. */
    private readonly listMaxBytes: number = DEFAULT_LIST_TASKS_MAX_BYTES,
    /** Bound of a GetTask long poll; see {@link RequestHandlerOptions.longPollMaxMs}. */
    private readonly longPollMaxMs: number = DEFAULT_LONG_POLL_MAX_MS,
  ) {}

  /**
   * GetTask with `historyLength` semantics of spec §7. A 1.1 call with `currentGeneration` is
   * a long poll: answered once the task's generation is above it (at once when it already is,
   * or when the task is terminal and so can never move), else when {@link longPollMaxMs} or
   * the caller's `signal` ends the wait, with the task as it then is.
   */
  async get(caller: Caller, request: GetTaskRequest, signal?: AbortSignal): Promise<Task> {
    const historyLength = validateHistoryLength(request.historyLength);
    requireId(request.id, 'id');
    const after = generationField(caller, request.currentGeneration, 'currentGeneration');
    let found = await this.read(caller, request.id, historyLength);
    if (after !== undefined && found.seq <= after && !isTerminal(found.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) {
      found = await this.poll(caller, request.id, historyLength, after, signal);
    }
    return answerTask(caller, found.task, found.seq);
  }

  /** The task the caller may see, as a copy for an answer, with the seq (generation) it reflects. */
  private async read(caller: Caller, taskId: string, historyLength: number | undefined): Promise<{ task: Task; seq: number }> {
    const live = this.run(caller.tenant, taskId);
    if (live?.view() && (await this.visible(caller, taskId))) {
      // Read after the ownership check: the run may have lost its task meanwhile (then the store answers).
      const view = live.view(historyLength);
      if (view) return view;
    }
    const stored = await this.loadStored(caller, taskId);
    return { task: taskView(stored.task, historyLength), seq: stored.version };
  }

  /**
   * The long poll: waits on the task's event log (in process or shared, so an event on any
   * instance ends it) until a read shows a generation above `after`, the task ends, or the
   * bound or the caller ends the wait. The log is followed first (a run no stream was promised
   * to logs nothing until someone reads it), then read, so no event falls between the two.
   */
  private async poll(
    caller: Caller,
    taskId: string,
    historyLength: number | undefined,
    after: number,
    signal: AbortSignal | undefined,
  ): Promise<{ task: Task; seq: number }> {
    const key = taskLogKey(caller.tenant, taskId);
    const wait = new AbortController();
    const timer = setTimeout(() => wait.abort(), this.longPollMaxMs);
    const onAbort = () => wait.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) wait.abort();
    try {
      this.log.follow?.(key);
      let waitAfter = after;
      for (;;) {
        const found = await this.read(caller, taskId, historyLength);
        const state = found.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
        if (found.seq > after || isTerminal(state) || wait.signal.aborted) return found;
        await this.log.waitFor(key, waitAfter, wait.signal);
        // Woken with no newer task to show (the log ran ahead of the read, or a shared log's
        // periodic wake-up): wait for an event past what the log holds now, not in a loop.
        if (!wait.signal.aborted) waitAfter = Math.max(after, await this.log.lastSeq(key));
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** ListTasks: newest status first, cursor pagination, caller-scoped. */
  async list(caller: Caller, request: ListTasksRequest): Promise<ListTasksResponse> {
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
    const tasks: Task[] = [];
    let bytes = 0;
    let previous: StoredTask | undefined;
    for (const stored of page.tasks) {
      const live = this.run(caller.tenant, stored.task.id)?.view();
      const task = answerTask(caller, taskView(live?.task ?? stored.task, historyLength, includeArtifacts), live?.seq ?? stored.version);
      bytes += encodedSize(task);
      if (previous && bytes > this.listMaxBytes) {
        // Over the byte budget: end the page after the previous task. The cursor is the store's
        // sort key of that task (its stored timestamp, not the live one), so the next page
        // starts exactly at this task: none skipped, none repeated.
        return { tasks, nextPageToken: pageTokenAfter(previous.task), pageSize, totalSize: page.totalSize };
      }
      tasks.push(task);
      previous = stored;
    }
    return { tasks, nextPageToken: page.nextPageToken, pageSize, totalSize: page.totalSize };
  }

  /**
   * SubscribeToTask: the current Task first, then live events. With `resumeAfterSeq` (SSE
   * Last-Event-ID, the resume field of gRPC/WebSocket) it replays exactly the events after
   * that number while the log holds them, even for a task that has since ended; otherwise it
   * falls back to the snapshot.
   */
  async subscribe(caller: Caller, request: SubscribeToTaskRequest, ctx: CallContext, resumeAfterSeq?: number): Promise<EventStream> {
    requireId(request.id, 'id');
    const key = taskLogKey(caller.tenant, request.id);
    // A run no stream was promised to logs nothing until a reader follows it: from now on.
    const state = this.run(caller.tenant, request.id)?.state;
    if (state !== undefined && !isTerminal(state)) this.log.follow?.(key);
    const snapshot = await this.snapshotFor(caller, request.id);
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
        return this.stream(caller, request.id, resumeAfterSeq, ctx.signal);
      }
    }
    const snapshotState = snapshot.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (isTerminal(snapshotState)) throw errors.unsupported(`Task ${request.id} is ${TaskState[snapshotState]}; terminal tasks cannot be subscribed to`);
    // An interrupted task with no run here: its next run (a follow-up) must log for this reader.
    this.log.follow?.(key);
    return this.stream(caller, request.id, snapshot, ctx.signal);
  }

  /**
   * The caller's stream of a task, from `from`: a snapshot (the task as the stream's first
   * event, then every event after its seq) or the seq to resume after. A reader that falls
   * behind the log resyncs from {@link snapshot}. SubscribeToTask and SendStreamingMessage
   * both answer with it.
   */
  stream(caller: Caller, taskId: string, from: { task: Task; seq: number } | number, signal: AbortSignal | undefined): EventStream {
    const start =
      typeof from === 'number'
        ? { afterSeq: from }
        : { first: { seq: from.seq, event: { payload: { $case: 'task' as const, value: from.task } } }, afterSeq: from.seq };
    const key = taskLogKey(caller.tenant, taskId);
    return answerStream(caller, followTask(this.log, key, start, this.snapshotSource(caller.tenant, taskId), signal));
  }

  /** {@link snapshot} of one task as a stream's resync source; in its own scope, so the stream keeps two strings, not the caller. */
  private snapshotSource(tenant: string, taskId: string): () => Promise<{ task: Task; seq: number } | undefined> {
    return () => this.snapshot(tenant, taskId);
  }

  /** The run executing the task in this process, if any. */
  private run(tenant: string, taskId: string): TaskRun | undefined {
    return this.runs.find(tenant, taskId);
  }

  /** Loads a stored task the caller may see, or throws TaskNotFound (never "forbidden"). */
  async loadStored(caller: Caller, taskId: string): Promise<StoredTask> {
    const stored = await this.store.get(caller.tenant, taskId);
    if (!stored || (caller.owner !== undefined && stored.owner !== caller.owner)) throw errors.taskNotFound(taskId);
    return stored;
  }

  /** Throws TaskNotFound unless the task runs here or is stored, and the caller may see it. */
  async loadStoredOrLive(caller: Caller, taskId: string): Promise<void> {
    if (this.run(caller.tenant, taskId)?.view() && (await this.visible(caller, taskId))) return;
    await this.loadStored(caller, taskId);
  }

  /** True when the caller may see the task; throws TaskNotFound otherwise. */
  async visible(caller: Caller, taskId: string): Promise<boolean> {
    if (caller.owner === undefined) return true;
    const stored = await this.store.get(caller.tenant, taskId);
    if (!stored || stored.owner !== caller.owner) throw errors.taskNotFound(taskId);
    return true;
  }

  /** The freshest consistent (task, seq) pair: the live run if any, else the store. */
  async snapshot(tenant: string, taskId: string): Promise<{ task: Task; seq: number } | undefined> {
    const live = this.run(tenant, taskId)?.view();
    if (live) return live;
    const stored = await this.store.get(tenant, taskId);
    return stored && { task: taskView(stored.task), seq: stored.version };
  }

  /** {@link snapshot} on behalf of a caller, who must be allowed to see the task. */
  private async snapshotFor(caller: Caller, taskId: string): Promise<{ task: Task; seq: number }> {
    const live = this.run(caller.tenant, taskId)?.view();
    if (live && (await this.visible(caller, taskId))) return live;
    const stored = await this.loadStored(caller, taskId);
    return { task: taskView(stored.task), seq: stored.version };
  }
}

/** Bytes of a task's ProtoJSON, as the JSON bindings put it on the wire (about its gRPC size too). */
function encodedSize(task: Task): number {
  const json = JSON.stringify(TaskCodec.toJSON(task));
  // Buffer where there is one (Node: counts without copying); the encoder elsewhere (Workers
  // without nodejs_compat have no Buffer).
  return nodeBuffer ? nodeBuffer.byteLength(json) : utf8.encode(json).byteLength;
}

const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string): number } }).Buffer;
const utf8 = new TextEncoder();
