import { isTerminal } from '@a2a-polyglot/core';
import type * as v1 from '@a2a-polyglot/model';
import type * as v03 from '@a2a-polyglot/model/v03';
import { messageToV03, messageToV1, partToV03, partToV1 } from './message.js';

/**
 * Tasks, artifacts, stream events and the SendMessage / stream responses between the v0.3
 * proto and the v1.0 model. The one semantic difference is `final` on status updates, which
 * v1.0 dropped: it is set on the way out exactly as both official SDK compat layers do (true
 * for completed, canceled, failed and rejected; spec §0 item 5) and ignored on the way in.
 */

/** v0.3 state → v1.0 state (same numbering; CANCELLED = CANCELED = 5). */
export function stateToV1(state: v03.TaskState): v1.TaskState {
  return state as number as v1.TaskState;
}

/** v1.0 state → v0.3 state (same numbering). */
export function stateToV03(state: v1.TaskState): v03.TaskState {
  return state as number as v03.TaskState;
}

/** v0.3 status (`update` message) → v1.0 status (`message`). */
export function statusToV1(status: v03.TaskStatus | undefined): v1.TaskStatus | undefined {
  if (!status) return undefined;
  return { state: stateToV1(status.state), message: status.update && messageToV1(status.update), timestamp: status.timestamp };
}

/** v1.0 status → v0.3 status. */
export function statusToV03(status: v1.TaskStatus | undefined): v03.TaskStatus | undefined {
  if (!status) return undefined;
  return { state: stateToV03(status.state), update: status.message && messageToV03(status.message), timestamp: status.timestamp };
}

/** v0.3 artifact → v1.0 artifact. */
export function artifactToV1(artifact: v03.Artifact): v1.Artifact {
  return { ...artifact, parts: artifact.parts.map(partToV1) };
}

/** v1.0 artifact → v0.3 artifact. */
export function artifactToV03(artifact: v1.Artifact): v03.Artifact {
  return { ...artifact, parts: artifact.parts.map(partToV03) };
}

/** v0.3 task → v1.0 task. */
export function taskToV1(task: v03.Task): v1.Task {
  return {
    id: task.id,
    contextId: task.contextId,
    status: statusToV1(task.status),
    artifacts: task.artifacts.map(artifactToV1),
    history: task.history.map(messageToV1),
    metadata: task.metadata,
  };
}

/** v1.0 task → v0.3 task. */
export function taskToV03(task: v1.Task): v03.Task {
  return {
    id: task.id,
    contextId: task.contextId,
    status: statusToV03(task.status),
    artifacts: task.artifacts.map(artifactToV03),
    history: task.history.map(messageToV03),
    metadata: task.metadata,
  };
}

/** v0.3 status update → v1.0 (its `final` has no v1.0 field: the stream's end says it). */
export function statusUpdateToV1(event: v03.TaskStatusUpdateEvent): v1.TaskStatusUpdateEvent {
  return { taskId: event.taskId, contextId: event.contextId, status: statusToV1(event.status), metadata: event.metadata };
}

/** v1.0 status update → v0.3, with `final` true for a terminal state (as the SDK compat layers set it). */
export function statusUpdateToV03(event: v1.TaskStatusUpdateEvent): v03.TaskStatusUpdateEvent {
  const final = event.status !== undefined && isTerminal(event.status.state);
  return { taskId: event.taskId, contextId: event.contextId, status: statusToV03(event.status), final, metadata: event.metadata };
}

/** v0.3 artifact update → v1.0. */
export function artifactUpdateToV1(event: v03.TaskArtifactUpdateEvent): v1.TaskArtifactUpdateEvent {
  return { ...event, artifact: event.artifact && artifactToV1(event.artifact) };
}

/** v1.0 artifact update → v0.3. */
export function artifactUpdateToV03(event: v1.TaskArtifactUpdateEvent): v03.TaskArtifactUpdateEvent {
  return { ...event, artifact: event.artifact && artifactToV03(event.artifact) };
}

/** v0.3 stream event → v1.0 StreamResponse (`msg` → `message`). */
export function streamResponseToV1(event: v03.StreamResponse): v1.StreamResponse {
  const p = event.payload;
  switch (p?.$case) {
    case 'task':
      return { payload: { $case: 'task', value: taskToV1(p.value) } };
    case 'msg':
      return { payload: { $case: 'message', value: messageToV1(p.value) } };
    case 'statusUpdate':
      return { payload: { $case: 'statusUpdate', value: statusUpdateToV1(p.value) } };
    case 'artifactUpdate':
      return { payload: { $case: 'artifactUpdate', value: artifactUpdateToV1(p.value) } };
    default:
      return { payload: undefined };
  }
}

/** v1.0 StreamResponse → v0.3 stream event. */
export function streamResponseToV03(event: v1.StreamResponse): v03.StreamResponse {
  const p = event.payload;
  switch (p?.$case) {
    case 'task':
      return { payload: { $case: 'task', value: taskToV03(p.value) } };
    case 'message':
      return { payload: { $case: 'msg', value: messageToV03(p.value) } };
    case 'statusUpdate':
      return { payload: { $case: 'statusUpdate', value: statusUpdateToV03(p.value) } };
    case 'artifactUpdate':
      return { payload: { $case: 'artifactUpdate', value: artifactUpdateToV03(p.value) } };
    default:
      return { payload: undefined };
  }
}

/** v0.3 SendMessage result → v1.0 SendMessageResponse. */
export function sendMessageResponseToV1(response: v03.SendMessageResponse): v1.SendMessageResponse {
  const p = response.payload;
  if (p?.$case === 'task') return { payload: { $case: 'task', value: taskToV1(p.value) } };
  if (p?.$case === 'msg') return { payload: { $case: 'message', value: messageToV1(p.value) } };
  return { payload: undefined };
}

/** v1.0 SendMessageResponse → v0.3 SendMessage result. */
export function sendMessageResponseToV03(response: v1.SendMessageResponse): v03.SendMessageResponse {
  const p = response.payload;
  if (p?.$case === 'task') return { payload: { $case: 'task', value: taskToV03(p.value) } };
  if (p?.$case === 'message') return { payload: { $case: 'msg', value: messageToV03(p.value) } };
  return { payload: undefined };
}
