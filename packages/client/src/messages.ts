import { Role, type Message, type Part, type StreamResponse, type Task } from '@a2a-polyglot/model';

/** A fresh message id (UUID v4 where `crypto.randomUUID` exists: Node ≥ 19, every current browser). */
export function newMessageId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return c?.randomUUID ? c.randomUUID() : `m-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * A user message with one text part: the request most calls start from.
 * `taskId` continues a task (answering input-required); `contextId` groups tasks.
 */
export function textMessage(text: string, options: { taskId?: string; contextId?: string; messageId?: string } = {}): Message {
  return {
    messageId: options.messageId ?? newMessageId(),
    contextId: options.contextId ?? '',
    taskId: options.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The text of every text part, concatenated (data and file parts are skipped). */
export function partsText(parts: readonly Part[] | undefined): string {
  return (parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

/** The text an event adds: artifact chunk text, a message's text, or a status message's text. */
export function eventText(event: StreamResponse): string {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'artifactUpdate':
      return partsText(payload.value.artifact?.parts);
    case 'message':
      return partsText(payload.value.parts);
    case 'statusUpdate':
      return partsText(payload.value.status?.message?.parts);
    default:
      return '';
  }
}

/** All artifact text of a task, artifact by artifact. */
export function taskText(task: Task): string {
  return task.artifacts.map((a) => partsText(a.parts)).join('\n');
}
