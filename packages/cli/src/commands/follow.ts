import { eventText, partsText, type ClientEvent, type TaskStream } from '@a2a-polyglot/client';
import { isTerminal } from '@a2a-polyglot/core';
import { StreamResponse, TaskState, type Task } from '@a2a-polyglot/model';
import { writeJsonLine, type CommandContext } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { stateName, type StatusLine } from '../render.js';

/** Where a send or subscribe left the task. */
export interface Outcome {
  /** Last task state seen (undefined for a message-only answer). */
  readonly state?: TaskState;
  readonly taskId?: string;
  readonly contextId?: string;
  /** The status message of the last state (the question, for input-required). */
  readonly statusText: string;
}

/** Renders answer text on stdout as it arrives, keeping track of line ends. */
export class AnswerWriter {
  private lastArtifact: string | undefined;
  private openLine = false;

  constructor(
    private readonly ctx: CommandContext,
    private readonly status: StatusLine,
  ) {}

  /** Artifact chunk text: appended chunks continue the line, a new artifact starts a new one. */
  chunk(artifactId: string, append: boolean, text: string): void {
    if (!text) return;
    const separate = this.openLine && (!append || artifactId !== this.lastArtifact);
    this.lastArtifact = artifactId;
    this.write(`${separate ? '\n' : ''}${text}`);
  }

  /** Every artifact a task already holds (a snapshot, a task received whole), one after the other. */
  artifacts(task: Task): void {
    for (const artifact of task.artifacts) this.chunk(artifact.artifactId, false, partsText(artifact.parts));
  }

  /** A complete block (a message, a question): always on its own line(s). */
  block(text: string): void {
    if (!text) return;
    this.write(`${this.openLine ? '\n' : ''}${text}\n`);
  }

  /** Ends an unfinished line. */
  finish(): void {
    if (this.openLine) this.write('\n');
  }

  private write(text: string): void {
    this.openLine = !text.endsWith('\n');
    this.status.around(() => this.ctx.io.stdout.write(text), this.openLine);
  }
}

/** How {@link follow} plays a stream. */
export interface FollowOptions {
  /** Print the artifacts a first Task event already holds (subscribe: the answer so far). */
  readonly showSnapshot?: boolean;
  /** The stream continues a task: its first Task event is the state before the message. */
  readonly followUp?: boolean;
  /** The task id the user gave (subscribe, `--task-id`): not announced again. */
  readonly knownTaskId?: string;
}

/**
 * Plays a task stream to the user: artifact text to stdout as it arrives, the task state on
 * the status line, the status message of a final or interrupted state at the end. With
 * `--json`, every event is one JSON line instead. A task id the user does not know yet is
 * announced in full on stderr as soon as an event names it (`a2a: task <id>`), so a run
 * that is interrupted never leaves a task nobody can find. Final states are left to
 * {@link conclude}, which names them once.
 */
export async function follow(ctx: CommandContext, stream: TaskStream, status: StatusLine, answer: AnswerWriter, options: FollowOptions = {}): Promise<Outcome> {
  let state: TaskState | undefined;
  let taskId: string | undefined = options.knownTaskId;
  let contextId: string | undefined;
  let statusText = '';
  let first = true;
  const note = (id: string | undefined) => {
    if (!id || id === taskId) return;
    taskId = id;
    if (!ctx.common.json) status.note(`task ${id}`);
  };
  for await (const { seq, event } of stream as AsyncIterable<ClientEvent>) {
    if (ctx.common.json) writeJsonLine(ctx, { seq: seq ?? null, event: StreamResponse.toJSON(event) });
    const payload = event.payload;
    switch (payload?.$case) {
      case 'task':
        note(payload.value.id);
        contextId = payload.value.contextId || contextId;
        state = payload.value.status?.state;
        statusText = partsText(payload.value.status?.message?.parts);
        if (first && options.showSnapshot && !ctx.common.json) answer.artifacts(payload.value);
        break;
      case 'statusUpdate':
        note(payload.value.taskId);
        contextId = payload.value.contextId || contextId;
        state = payload.value.status?.state;
        statusText = partsText(payload.value.status?.message?.parts);
        break;
      case 'artifactUpdate':
        note(payload.value.taskId);
        if (!ctx.common.json) answer.chunk(payload.value.artifact?.artifactId ?? '', payload.value.append, eventText(event));
        break;
      case 'message':
        contextId = payload.value.contextId || contextId;
        if (!ctx.common.json) answer.block(eventText(event));
        break;
    }
    // A follow-up's first event is the task as it was before our answer: old news.
    const stale = first && options.followUp && payload?.$case === 'task';
    first = false;
    if (!ctx.common.json && !stale && state !== undefined && !isTerminal(state) && payload?.$case !== 'message') {
      status.set(`${stateName(state)}${statusText && state === TaskState.TASK_STATE_WORKING ? `: ${statusText}` : ''}`);
    }
  }
  return { state, taskId: taskId ?? stream.taskId, contextId, statusText };
}

/**
 * A task received whole rather than streamed (a blocking send, a task that already ended):
 * its answer to stdout (not with `--json`, whose caller prints the response), and where it stands.
 */
export function showTask(ctx: CommandContext, task: Task, answer: AnswerWriter): Outcome {
  if (!ctx.common.json) answer.artifacts(task);
  return {
    state: task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
    taskId: task.id,
    contextId: task.contextId,
    statusText: partsText(task.status?.message?.parts),
  };
}

/**
 * Closes the rendering of one turn and picks the exit code: the status message of a final
 * or interrupted state is shown (the reason of a failure, the agent's question).
 */
export function conclude(ctx: CommandContext, outcome: Outcome, status: StatusLine, answer: AnswerWriter): ExitCode {
  status.stop();
  const { state, statusText } = outcome;
  const id = outcome.taskId ?? '?';
  switch (state) {
    case undefined:
      answer.finish();
      return EXIT.ok;
    case TaskState.TASK_STATE_COMPLETED:
      answer.finish();
      if (!ctx.common.json) ctx.io.stderr.write(`a2a: task ${id} completed\n`);
      return EXIT.ok;
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      if (!ctx.common.json) answer.block(statusText || '(the agent asks for input)');
      return EXIT.inputRequired;
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      answer.finish();
      if (!ctx.common.json) ctx.io.stderr.write(`a2a: task ${id} needs authentication${statusText ? `: ${statusText}` : ''}\n`);
      return EXIT.authRequired;
    case TaskState.TASK_STATE_FAILED:
    case TaskState.TASK_STATE_CANCELED:
    case TaskState.TASK_STATE_REJECTED:
      answer.finish();
      if (!ctx.common.json) ctx.io.stderr.write(`a2a: task ${id} ${stateName(state)}${statusText ? `: ${statusText}` : ''}\n`);
      return EXIT.taskUnsuccessful;
    default:
      answer.finish();
      if (!ctx.common.json) ctx.io.stderr.write(`a2a: task ${id} is ${stateName(state)}\n`);
      return EXIT.ok;
  }
}
