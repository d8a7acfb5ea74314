import { formatLite, a2aStateToLite, LITE_TERMINAL_STATES, type LiteState } from '@a2a-polyglot/a2a-lite';
import { textPart, type AgentExecutor, type ArtifactChunk, type ExecutionContext, type StatusMessage } from '@a2a-polyglot/core';
import { TaskState, type Message, type Part } from '@a2a-polyglot/model';
import type { LiteTaskIndex } from './lite-task-index.js';

/** What the handler puts in `message.metadata.a2aLite` for a task that came as `[A2A:task id=…]`. */
export interface LiteOrigin {
  readonly type: 'task';
  readonly id: string;
  readonly [param: string]: string;
}

/** The Lite task a message belongs to, when it came tagged (see liteRouting). */
export function liteOrigin(message: Message): LiteOrigin | undefined {
  const lite = message.metadata?.a2aLite as Record<string, unknown> | undefined;
  return lite?.type === 'task' && typeof lite.id === 'string' && lite.id !== '' ? (lite as LiteOrigin) : undefined;
}

/**
 * Wraps an agent so that what it says to an A2A-Lite peer is tagged for the chat channel:
 * progress and questions become `[A2A:status task=<id> state=… ref=<A2A task id>]`, the end
 * `[A2A:result task=<id> state=…]` whose body is the agent's final text (its status message,
 * or else the text of its artifacts), so a bridge can post the status messages verbatim.
 * Messages from plain callers pass through untouched (the convention degrades to plain
 * conversation). It also records which A2A task each Lite id of each caller became.
 */
export function liteTaggingAgent(inner: AgentExecutor, index: LiteTaskIndex): AgentExecutor {
  return {
    async execute(ctx) {
      const origin = liteOrigin(ctx.message);
      if (!origin) return inner.execute(ctx);
      index.remember(ctx.tenant, ctx.principal?.id, origin.id, ctx.taskId);
      const tagged = new LiteTaggedContext(ctx, origin.id);
      try {
        await inner.execute(tagged);
      } catch (error) {
        if (!ctx.signal.aborted) tagged.fail('Agent execution failed');
        throw error;
      }
      if (!ctx.signal.aborted) tagged.settleOnReturn();
    },
    ...(inner.cancel && { cancel: (ctx: ExecutionContext) => inner.cancel?.(ctx) }),
  };
}

/** An ExecutionContext that tags every status message it passes on (see {@link liteTaggingAgent}). */
class LiteTaggedContext implements ExecutionContext {
  /** Text of the artifacts, by id: the result's body when the agent completes without a message. */
  private readonly artifactText = new Map<string, string>();
  /** The agent left the task terminal or interrupted: returning adds nothing. */
  private settled = false;

  constructor(
    private readonly ctx: ExecutionContext,
    private readonly liteId: string,
  ) {}

  get message() {
    return this.ctx.message;
  }
  get text() {
    return this.ctx.text;
  }
  get taskId() {
    return this.ctx.taskId;
  }
  get contextId() {
    return this.ctx.contextId;
  }
  get task() {
    return this.ctx.task;
  }
  get configuration() {
    return this.ctx.configuration;
  }
  get metadata() {
    return this.ctx.metadata;
  }
  get principal() {
    return this.ctx.principal;
  }
  get tenant() {
    return this.ctx.tenant;
  }
  get extensions() {
    return this.ctx.extensions;
  }
  get signal() {
    return this.ctx.signal;
  }
  get streaming() {
    return this.ctx.streaming;
  }

  reply(message: StatusMessage): void {
    this.settled = true;
    this.ctx.reply(this.tag('completed', message, false));
  }

  submit(): void {
    this.ctx.submit();
  }

  working(message?: StatusMessage): void {
    this.ctx.working(this.tag('working', message));
  }

  artifact(chunk: ArtifactChunk): string {
    const id = this.ctx.artifact(chunk);
    const text = chunk.text ?? textOfParts(chunk.parts);
    this.artifactText.set(id, (chunk.append ? (this.artifactText.get(id) ?? '') : '') + text);
    return id;
  }

  complete(message?: StatusMessage): void {
    this.settled = true;
    this.ctx.complete(this.tag('completed', message));
  }

  fail(message?: StatusMessage): void {
    this.settled = true;
    this.ctx.fail(this.tag('failed', message));
  }

  reject(message?: StatusMessage): void {
    this.settled = true;
    this.ctx.reject(this.tag('rejected', message));
  }

  requireInput(message: StatusMessage): void {
    this.settled = true;
    this.ctx.requireInput(this.tag('input-required', message));
  }

  requireAuth(message: StatusMessage): void {
    this.settled = true;
    // A2A-Lite has no auth-required: for the peer, it is input it must provide.
    this.ctx.requireAuth(this.tag('input-required', message));
  }

  setStatus(state: TaskState, message?: StatusMessage, metadata?: Record<string, unknown>): void {
    if (state !== TaskState.TASK_STATE_WORKING && state !== TaskState.TASK_STATE_SUBMITTED) this.settled = true;
    this.ctx.setStatus(state, this.tag(a2aStateToLite(TaskState[state]), message), metadata);
  }

  /** The agent returned without a final word: the result carries its artifacts' text. */
  settleOnReturn(): void {
    if (!this.settled) this.complete();
  }

  /** `message` behind a status or result tag; a result without text carries the artifacts' text. */
  private tag(state: LiteState, message: StatusMessage | undefined, withRef = true): StatusMessage {
    const terminal = LITE_TERMINAL_STATES.includes(state);
    const own = message === undefined ? '' : typeof message === 'string' ? message : textOfParts(message.parts);
    const body = own || (state === 'completed' ? [...this.artifactText.values()].filter(Boolean).join('\n\n') : '');
    const text = formatLite(terminal ? 'result' : 'status', { task: this.liteId, state, ref: withRef ? this.ctx.taskId : undefined }, body);
    if (message === undefined || typeof message === 'string') return text;
    return { ...message, parts: [textPart(text), ...(message.parts ?? []).filter((p) => p.content?.$case !== 'text')] };
  }
}

function textOfParts(parts: readonly Part[] | undefined): string {
  return (parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}
