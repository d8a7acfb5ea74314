import type { Message, Part, SendMessageConfiguration, Task, TaskState } from '@a2a-polyglot/model';
import type { Principal } from './auth.js';

/**
 * Your agent. The core calls `execute` once per incoming message (a new task, or a follow-up
 * to an input-required task) and turns everything the agent reports through the context
 * into A2A events, task state, streams, push notifications and responses — identically on
 * every binding.
 *
 * Contract:
 * - Report progress through `ctx` (`working`, `artifact`, `complete`, `requireInput`, ...).
 *   Either answer with one `reply()` (a message, no task) or drive a task; not both.
 * - Returning settles the task: still submitted/working ⇒ COMPLETED, and so is a task the
 *   agent never reported on (it is created, then completed). Throwing ⇒ FAILED. A task left
 *   input-required or auth-required stays so, waiting for the next message.
 * - `ctx.signal` aborts when the task is canceled or the server shuts down; stop promptly.
 *
 * @example
 * const echo: AgentExecutor = {
 *   async execute(ctx) {
 *     ctx.working('thinking');
 *     ctx.artifact({ name: 'answer', text: `You said: ${ctx.text}`, lastChunk: true });
 *     ctx.complete();
 *   },
 * };
 */
export interface AgentExecutor {
  execute(ctx: ExecutionContext): Promise<void>;
  /**
   * Optional hook called when a client cancels the task, before the core marks it CANCELED.
   * Use it to stop upstream work (the signal is aborted as well). It is also called for a
   * task that waits idle in an interrupted state (input-required, auth-required), because an
   * agent may keep upstream work open across that pause (e.g. a run awaiting approval).
   * The hook may report CANCELED itself (`ctx.setStatus(TASK_STATE_CANCELED, ...)`, the
   * a2a-python pattern): the cancel then succeeds with that status.
   */
  cancel?(ctx: ExecutionContext): Promise<void> | void;
}

/** A chunk of an artifact, as an agent reports it. */
export interface ArtifactChunk {
  /** Same id + `append` ⇒ parts are appended to the earlier chunk. Generated when absent. */
  readonly artifactId?: string;
  readonly name?: string;
  readonly description?: string;
  /** The parts; or use `text` / `data` for a single part. */
  readonly parts?: readonly Part[];
  readonly text?: string;
  readonly data?: unknown;
  readonly append?: boolean;
  readonly lastChunk?: boolean;
  readonly metadata?: Record<string, unknown>;
}

/** A status message: plain text, or a full message (role, parts, metadata). */
export type StatusMessage = string | Partial<Message>;

/** What the agent knows about the request and how it reports back. */
export interface ExecutionContext {
  /** The incoming user message, with `taskId` and `contextId` filled in. */
  readonly message: Message;
  /** Concatenated text parts of {@link message}: the common case, made easy. */
  readonly text: string;
  readonly taskId: string;
  readonly contextId: string;
  /** The task before this message (follow-ups), or undefined for a new task. */
  readonly task: Task | undefined;
  /** Request configuration (accepted output modes, history length, ...). */
  readonly configuration: SendMessageConfiguration | undefined;
  /** Request metadata from SendMessageRequest.metadata. */
  readonly metadata: Record<string, unknown> | undefined;
  /** Who called (undefined when authentication is off). */
  readonly principal: Principal | undefined;
  readonly tenant: string;
  /** Extensions the client activated that the agent supports. */
  readonly extensions: readonly string[];
  /** Aborted on cancel and on server shutdown. */
  readonly signal: AbortSignal;
  /**
   * True when the client called SendStreamingMessage and watches events as they happen;
   * false for SendMessage (the client waits for one answer) and for the context a cancel
   * hook gets for an idle task. Lets an agent choose between streaming chunks and answering
   * with one message, which no other field reveals.
   */
  readonly streaming: boolean;

  /** Answer with a message and no task. Only valid as the first and only report of a new task. */
  reply(message: StatusMessage): void;
  /** Creates the task (SUBMITTED) now; otherwise it is created by the first report. */
  submit(): void;
  working(message?: StatusMessage): void;
  /** Streams an artifact chunk; returns its artifactId (use it with `append`). */
  artifact(chunk: ArtifactChunk): string;
  complete(message?: StatusMessage): void;
  fail(message?: StatusMessage): void;
  reject(message?: StatusMessage): void;
  requireInput(message: StatusMessage): void;
  requireAuth(message: StatusMessage): void;
  /** Any state change, for what the shorthands do not cover. */
  setStatus(state: TaskState, message?: StatusMessage, metadata?: Record<string, unknown>): void;
}
