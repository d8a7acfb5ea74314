import { TaskState, type Part } from '@a2a-polyglot/model';
import type { ExecutionContext, Logger, StatusMessage } from '@a2a-polyglot/core';
import { BridgeError } from './bridge-error.js';
import type { Redactor } from './redact.js';

/** The artifact every text delta is appended to (OpenClaw.NET's A2A streaming contract). */
export const TEXT_ARTIFACT_ID = 'text-delta';
/** The agent message a non-streaming send gets when the bridge fails. */
export const FAILED_REPLY = 'A2A request failed.';

/** The text a turn that produced none ends with. */
export function fallbackText(agentName: string): string {
  return `[${agentName}] Request completed.`;
}

/** Options of a {@link TurnWriter}. */
export interface TurnWriterOptions {
  /** The card name, for the fallback text. */
  readonly agentName: string;
  /** How a non-streaming send is answered (see `CommonSettings.replyMode`). */
  readonly replyMode?: 'message' | 'task';
}

/**
 * Turns what an upstream produces into the A2A streaming contract, the same for every
 * bridge and binding:
 *
 * - streaming (and follow-ups, and `replyMode: task`): SUBMITTED → WORKING → text deltas
 *   appended to artifact `text-delta` → COMPLETED, the last successful chunk carrying
 *   `lastChunk: true`; a failure keeps the chunks already sent and ends FAILED with a message;
 * - a non-streaming send: one agent message with the whole text (no task), or
 *   `A2A request failed.` when the bridge fails;
 * - no text at all: the fallback `[<AgentName>] Request completed.`
 *
 * Why one delta is held back: `lastChunk` must be on the last chunk, and only the end of the
 * upstream stream tells which one that is. A turn that must pause (input required) while in
 * message mode switches to a task first, since a message cannot carry a question.
 */
export class TurnWriter {
  private messageMode: boolean;
  private started = false;
  private held: string | undefined;
  private text = '';
  private sentChunk: boolean;

  constructor(
    private readonly ctx: ExecutionContext,
    private readonly options: TurnWriterOptions,
  ) {
    this.messageMode = !ctx.streaming && !ctx.task && (options.replyMode ?? 'message') === 'message' && !ctx.configuration?.returnImmediately;
    this.sentChunk = ctx.task?.artifacts.some((a) => a.artifactId === TEXT_ARTIFACT_ID) ?? false;
  }

  /** True while the answer will be one message (nothing is emitted until the end). */
  get answersWithMessage(): boolean {
    return this.messageMode;
  }

  /** True once the turn produced any text. */
  get hasText(): boolean {
    return this.text !== '';
  }

  /** All text of this turn so far. */
  get textSoFar(): string {
    return this.text;
  }

  /** Marks the task SUBMITTED (new tasks) and WORKING; a no-op in message mode. */
  begin(): void {
    if (this.messageMode || this.started) return;
    this.started = true;
    if (!this.ctx.task) this.ctx.submit();
    this.ctx.working();
  }

  /** One upstream text delta. */
  delta(text: string): void {
    if (text === '') return;
    this.text += text;
    if (this.messageMode) return;
    this.begin();
    if (this.held !== undefined) this.emit(this.held, false);
    this.held = text;
  }

  /** Progress that is not answer text (tool calls, ...): a WORKING status update with metadata. */
  progress(metadata: Record<string, unknown>): void {
    if (this.messageMode) return;
    this.begin();
    this.ctx.setStatus(TaskState.TASK_STATE_WORKING, undefined, metadata);
  }

  /**
   * Pauses the task in INPUT_REQUIRED with a question (text plus optional data), keeping the
   * text so far. The executor returns afterwards; the answer arrives as a follow-up.
   */
  requireInput(question: string, data?: Record<string, unknown>, metadata?: Record<string, unknown>): void {
    if (this.messageMode) {
      this.messageMode = false;
      this.begin();
      if (this.text !== '') this.held = this.text;
    }
    this.begin();
    this.flush(false);
    const parts: Part[] = [{ content: { $case: 'text', value: question }, metadata: undefined, filename: '', mediaType: '' }];
    if (data) parts.push({ content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' });
    const message: StatusMessage = { parts };
    this.ctx.setStatus(TaskState.TASK_STATE_INPUT_REQUIRED, message, metadata);
  }

  /**
   * Ends the turn successfully. `finalText` (the upstream's complete answer) is used when no
   * deltas came; with no text at all the fallback is sent, unless earlier turns of this task
   * already streamed text.
   */
  succeed(finalText?: string): void {
    if (!this.hasText && finalText) this.delta(finalText);
    if (!this.hasText && !this.sentChunk) this.delta(fallbackText(this.options.agentName));
    if (this.messageMode) {
      this.ctx.reply(this.text);
      return;
    }
    this.begin();
    this.flush(true);
    this.ctx.complete();
  }

  /** Ends the turn as failed: FAILED with `message` (chunks kept), or the failure reply. */
  fail(message: string): void {
    if (this.messageMode) {
      this.ctx.reply(FAILED_REPLY);
      return;
    }
    this.begin();
    this.flush(false);
    this.ctx.fail(message);
  }

  private flush(last: boolean): void {
    if (this.held === undefined) return;
    const text = this.held;
    this.held = undefined;
    this.emit(text, last);
  }

  private emit(text: string, last: boolean): void {
    this.ctx.artifact({ artifactId: TEXT_ARTIFACT_ID, text, append: this.sentChunk, lastChunk: last });
    this.sentChunk = true;
  }
}

/** Collaborators of {@link runTurn}. */
export interface TurnRunnerDeps {
  readonly bridge: string;
  readonly logger: Logger;
  readonly redactor: Redactor;
}

/**
 * Runs one bridge turn and applies the failure half of the contract in one place: a
 * cancellation or shutdown (the context's signal) ends quietly, because the core settles the
 * task; any other error is logged and reported through {@link TurnWriter.fail} with its
 * client-safe, redacted message.
 */
export async function runTurn(ctx: ExecutionContext, writer: TurnWriter, deps: TurnRunnerDeps, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (ctx.signal.aborted) return;
    const failure = BridgeError.from(error, deps.bridge);
    const message = deps.redactor.text(failure.message);
    deps.logger.warn({ taskId: ctx.taskId, ...failure.detail }, `${deps.bridge} bridge: ${message}`);
    writer.fail(message);
  }
}
