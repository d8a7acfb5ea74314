import { Role, TaskState, type Artifact, type Message, type Part, type StreamResponse, type Task, type TaskStatus } from '@a2a-polyglot/model';
import type { ArtifactChunk, StatusMessage } from './agent-executor.js';
import { newId, nowTimestamp } from './util.js';
import { deepCopy } from './deep-copy.js';

/**
 * Builders and the fold: how events are made and how they change a task. Kept pure and in
 * one place so the in-process run, recovery and durable stores all fold identically.
 */

/** A text part. */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' };
}

/** A data part (any JSON value). */
export function dataPart(data: unknown, mediaType = 'application/json'): Part {
  return { content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType };
}

/** Concatenated text of the text parts of a message. */
export function messageText(message: Message | undefined): string {
  if (!message) return '';
  let out = '';
  for (const part of message.parts) if (part.content?.$case === 'text') out += part.content.value;
  return out;
}

/** An agent message in a task's context. */
export function agentMessage(input: StatusMessage, taskId: string, contextId: string): Message {
  const partial = typeof input === 'string' ? { parts: [textPart(input)] } : input;
  return {
    messageId: partial.messageId || newId(),
    contextId: partial.contextId || contextId,
    taskId: partial.taskId ?? taskId,
    role: partial.role || Role.ROLE_AGENT,
    parts: partial.parts ?? [],
    metadata: partial.metadata,
    extensions: partial.extensions ?? [],
    referenceTaskIds: partial.referenceTaskIds ?? [],
  };
}

/** The event that creates a task: a snapshot in SUBMITTED with the user message as history. */
export function newTask(taskId: string, contextId: string, userMessage: Message, metadata?: Record<string, unknown>): Task {
  return {
    id: taskId,
    contextId,
    status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: nowTimestamp() },
    artifacts: [],
    history: [userMessage],
    metadata,
  };
}

/** A status-update event. */
export function statusEvent(task: Pick<Task, 'id' | 'contextId'>, state: TaskState, message?: Message, metadata?: Record<string, unknown>): StreamResponse {
  const status: TaskStatus = { state, message, timestamp: nowTimestamp() };
  return { payload: { $case: 'statusUpdate', value: { taskId: task.id, contextId: task.contextId, status, metadata } } };
}

/** An artifact-update event from an agent's chunk. */
export function artifactEvent(task: Pick<Task, 'id' | 'contextId'>, chunk: ArtifactChunk): StreamResponse {
  const artifact: Artifact = {
    artifactId: chunk.artifactId || newId(),
    name: chunk.name ?? '',
    description: chunk.description ?? '',
    parts: chunkParts(chunk),
    metadata: chunk.metadata,
    extensions: [],
  };
  return {
    payload: {
      $case: 'artifactUpdate',
      value: { taskId: task.id, contextId: task.contextId, artifact, append: chunk.append ?? false, lastChunk: chunk.lastChunk ?? false, metadata: undefined },
    },
  };
}

/**
 * A chunk's parts (its `parts`, then `text`, then `data`) in a new array made at its final
 * length: this runs for every streamed chunk, and an array grown by push from empty gets a
 * larger backing store than the one or two parts a chunk has.
 */
function chunkParts(chunk: ArtifactChunk): Part[] {
  const text = chunk.text === undefined ? undefined : textPart(chunk.text);
  const data = chunk.data === undefined ? undefined : dataPart(chunk.data);
  const given = chunk.parts;
  if (!given || given.length === 0) {
    if (text) return data ? [text, data] : [text];
    return data ? [data] : [];
  }
  const parts = given.slice();
  if (text) parts.push(text);
  if (data) parts.push(data);
  return parts;
}

/**
 * Applies one event to a task, in place. Artifacts are copied on first sight so later
 * appends never reach back into an event that was already logged.
 */
export function foldEvent(task: Task, event: StreamResponse): void {
  const payload = event.payload;
  if (!payload) return;
  switch (payload.$case) {
    case 'statusUpdate': {
      task.status = payload.value.status;
      const message = payload.value.status?.message;
      if (message) task.history.push(message);
      return;
    }
    case 'artifactUpdate': {
      const incoming = payload.value.artifact;
      if (!incoming) return;
      // Plain loops: this runs for every streamed chunk (no closure, no spread per event).
      let index = -1;
      let existing: Artifact | undefined;
      for (let i = 0; i < task.artifacts.length && existing === undefined; i++) {
        const artifact = task.artifacts[i];
        if (artifact?.artifactId === incoming.artifactId) {
          index = i;
          existing = artifact;
        }
      }
      if (existing && payload.value.append) {
        for (const part of incoming.parts) existing.parts.push(part);
        if (incoming.metadata) existing.metadata = { ...existing.metadata, ...incoming.metadata };
      } else {
        const copy: Artifact = { ...incoming, parts: [...incoming.parts] };
        if (index >= 0) task.artifacts[index] = copy;
        else task.artifacts.push(copy);
      }
      return;
    }
    case 'task':
      Object.assign(task, deepCopy(payload.value));
      return;
    case 'message':
      return;
  }
}

/** The state an event moves its task into, if it changes state. */
export function eventState(event: StreamResponse): TaskState | undefined {
  const p = event.payload;
  if (p?.$case === 'statusUpdate') return p.value.status?.state;
  if (p?.$case === 'task') return p.value.status?.state;
  return undefined;
}

/**
 * A copy of a task for a response: `historyLength` unset ⇒ all history, 0 ⇒ none, N ⇒ the N
 * most recent (spec §7); artifacts dropped when `includeArtifacts` is false.
 */
export function taskView(task: Task, historyLength?: number, includeArtifacts = true): Task {
  const history = historyLength === undefined ? task.history : historyLength <= 0 ? [] : task.history.slice(-historyLength);
  return deepCopy({ ...task, history, artifacts: includeArtifacts ? task.artifacts : [] });
}
