import type { ArtifactJson, MessageJson, PartJson, StreamResponseJson, TaskJson } from './a2a-json.js';
import { textOf } from './a2a-json.js';
import { formatLite, type LiteMessage } from './codec.js';
import { LITE_TERMINAL_STATES, type LiteState } from './grammar.js';

/** A2A-Lite state → A2A v1.0 task state. */
export const LITE_TO_A2A_STATE: Readonly<Record<LiteState, string>> = {
  accepted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  cancelled: 'TASK_STATE_CANCELED',
  rejected: 'TASK_STATE_REJECTED',
};

/**
 * A2A v1.0 task state → A2A-Lite state. `auth-required` has no Lite counterpart; it becomes
 * `input-required` (the peer must act before the task goes on), and unknown states
 * `working`.
 */
export function a2aStateToLite(state: string | undefined): LiteState {
  switch (state) {
    case 'TASK_STATE_SUBMITTED':
      return 'accepted';
    case 'TASK_STATE_INPUT_REQUIRED':
    case 'TASK_STATE_AUTH_REQUIRED':
      return 'input-required';
    case 'TASK_STATE_COMPLETED':
      return 'completed';
    case 'TASK_STATE_FAILED':
      return 'failed';
    case 'TASK_STATE_CANCELED':
      return 'cancelled';
    case 'TASK_STATE_REJECTED':
      return 'rejected';
    default:
      return 'working';
  }
}

/** The `SendMessage` params (ProtoJSON) for a Lite `task` message or plain text. */
export interface SendParamsJson {
  readonly message: MessageJson;
}

/**
 * A Lite `task` (or plain text) as the A2A message that delegates it. The Lite task id,
 * skill and priority travel in `metadata.a2aLite`, so the A2A agent may use them; `ref`
 * (the A2A task id from earlier status messages) makes it a follow-up of that task, e.g. the
 * answer to an `input-required`.
 */
export function liteToSendParams(message: LiteMessage | string, options: { readonly messageId?: string; readonly contextId?: string } = {}): SendParamsJson {
  const lite = typeof message === 'string' ? undefined : message;
  const text = typeof message === 'string' ? message : message.body;
  const ref = lite?.params.ref;
  return {
    message: {
      messageId: options.messageId ?? randomId(),
      role: 'ROLE_USER',
      parts: [{ text }],
      ...(ref && { taskId: ref }),
      ...(options.contextId && { contextId: options.contextId }),
      ...(lite && { metadata: { a2aLite: { type: lite.type, ...lite.params } } }),
    },
  };
}

/**
 * Follows one A2A task (or direct reply) for a Lite peer and says what to send back on the
 * chat channel: a `status` per state change (`accepted`, `working`, `input-required` with
 * the question as body) and one `result` at the end, whose body is the answer text (or the
 * failure reason, then any partial text). Chunks are collected, not relayed one by one: a
 * chat channel is no place for token streams. Every message carries `ref=<A2A task id>` so a
 * follow-up (`[A2A:task id=… ref=…]`) or a `cancel` can reach the same task.
 */
export class LiteTaskTranslator {
  private state: LiteState | undefined;
  private a2aTaskId: string | undefined;
  private readonly artifacts = new Map<string, { name: string; parts: PartJson[] }>();
  private finished = false;

  /** @param ref the A2A task id when it is known already (a follow-up). */
  constructor(
    private readonly liteTaskId: string,
    ref?: string,
  ) {
    this.a2aTaskId = ref;
  }

  /** The A2A task id, once known. */
  get ref(): string | undefined {
    return this.a2aTaskId;
  }

  /** The last Lite state reported. */
  get lastState(): LiteState | undefined {
    return this.state;
  }

  /** True once a `result` was produced. */
  get done(): boolean {
    return this.finished;
  }

  /** Lite messages (formatted text) to send for one A2A event. */
  onEvent(event: StreamResponseJson): string[] {
    if (this.finished) return [];
    if (event.message) return this.finish('completed', textOf(event.message.parts), event.message.parts);
    if (event.task) return this.onTask(event.task);
    if (event.artifactUpdate) {
      this.a2aTaskId ??= event.artifactUpdate.taskId;
      this.collect(event.artifactUpdate.artifact, event.artifactUpdate.append ?? false);
      return [];
    }
    if (event.statusUpdate) {
      this.a2aTaskId ??= event.statusUpdate.taskId;
      return this.onState(a2aStateToLite(event.statusUpdate.status.state), event.statusUpdate.status.message);
    }
    return [];
  }

  /**
   * Takes a task snapshot as the starting point without reporting it: the first event of a
   * follow-up stream repeats the state the peer already knows.
   */
  seed(task: TaskJson): void {
    this.a2aTaskId ??= task.id;
    this.artifacts.clear();
    for (const a of task.artifacts ?? []) this.collect(a, false);
    this.state = a2aStateToLite(task.status?.state);
  }

  /** A failure before or outside the task (transport, protocol error): the Lite `result`. */
  fail(reason: string, state: 'failed' | 'rejected' = 'failed'): string[] {
    if (this.finished) return [];
    return this.finish(state, reason, []);
  }

  private onTask(task: TaskJson): string[] {
    this.a2aTaskId ??= task.id;
    this.artifacts.clear();
    for (const a of task.artifacts ?? []) this.collect(a, false);
    return this.onState(a2aStateToLite(task.status?.state), task.status?.message);
  }

  private onState(state: LiteState, message: MessageJson | undefined): string[] {
    const text = textOf(message?.parts);
    if (LITE_TERMINAL_STATES.includes(state)) return this.finish(state, text, message?.parts ?? []);
    // A repeated state says nothing new, except a new question.
    if (state === this.state && !(state === 'input-required' && text)) return [];
    this.state = state;
    return [formatLite('status', { task: this.liteTaskId, state, ref: this.a2aTaskId }, text)];
  }

  private finish(state: LiteState, statusText: string, statusParts: readonly PartJson[]): string[] {
    this.finished = true;
    this.state = state;
    const answer = [...this.artifacts.values()]
      .map((a) => renderParts(a.parts))
      .filter(Boolean)
      .join('\n\n');
    const names = [...this.artifacts.values()].map((a) => a.name).filter((n) => n !== '');
    let body: string;
    if (state === 'completed') body = answer || renderParts(statusParts) || statusText;
    else body = [statusText || `The task ended ${state}.`, ...(answer ? ['', 'Partial result:', answer] : [])].join('\n');
    return [formatLite('result', { task: this.liteTaskId, state, ref: this.a2aTaskId, artifacts: names.length > 0 ? names.join(',') : undefined }, body)];
  }

  private collect(artifact: ArtifactJson, append: boolean): void {
    const existing = this.artifacts.get(artifact.artifactId);
    if (existing && append) existing.parts.push(...artifact.parts);
    else this.artifacts.set(artifact.artifactId, { name: artifact.name ?? '', parts: [...artifact.parts] });
  }
}

/** Text parts joined; files become attachment lines the Lite convention knows. */
function renderParts(parts: readonly PartJson[]): string {
  let text = '';
  const files: string[] = [];
  for (const p of parts) {
    if (p.text !== undefined) text += p.text;
    else if (p.url !== undefined || p.raw !== undefined) files.push(`[attachment: ${p.filename || p.url || 'file'}]`);
    else if (p.data !== undefined) text += JSON.stringify(p.data);
  }
  return [text, ...files].filter(Boolean).join('\n');
}

function randomId(): string {
  return globalThis.crypto.randomUUID();
}
