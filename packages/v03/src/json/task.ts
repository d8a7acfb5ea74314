import { artifactFromV03, artifactToV03, messageFromV03, messageToV03, toV03List } from './content.js';
import { isFinalV03State, stateFromV03, stateToV03 } from './enums.js';
import { isJsonObject, mapArray, v03Violation, withoutKeys, type JsonObject } from './json-object.js';

/**
 * Tasks, statuses and stream events: v1.0 ProtoJSON ⇄ v0.3 JSON-RPC objects discriminated by
 * `kind` (`task`, `message`, `status-update`, `artifact-update`, spec §6.2).
 */

/** A v1.0 TaskStatus as v0.3 (kebab-case state). */
export function statusToV03(status: unknown): JsonObject {
  const s = isJsonObject(status) ? status : {};
  return withoutKeys(s, ['state', 'message'], { state: stateToV03(s.state), message: s.message === undefined ? undefined : messageToV03(s.message) });
}

/** A v0.3 TaskStatus as v1.0. */
export function statusFromV03(status: unknown, path: string): unknown {
  if (!isJsonObject(status)) return status;
  return withoutKeys(status, ['state', 'message'], {
    state: stateFromV03(status.state, `${path}.state`),
    message: status.message === undefined ? undefined : messageFromV03(status.message, `${path}.message`),
  });
}

/** A v1.0 Task as a v0.3 Task (`kind: "task"`; `contextId` always present, as v0.3 requires). */
export function taskToV03(task: unknown): JsonObject {
  const t = isJsonObject(task) ? task : {};
  return withoutKeys(t, ['status', 'artifacts', 'history'], {
    contextId: t.contextId ?? '',
    status: statusToV03(t.status),
    artifacts: t.artifacts === undefined ? undefined : toV03List(t.artifacts, artifactToV03),
    history: t.history === undefined ? undefined : toV03List(t.history, messageToV03),
    kind: 'task',
  });
}

/** A v0.3 Task as a v1.0 Task. */
export function taskFromV03(task: unknown, path: string): unknown {
  if (!isJsonObject(task)) return task;
  return withoutKeys(task, ['kind'], {
    status: statusFromV03(task.status, `${path}.status`),
    artifacts: mapArray(task.artifacts, `${path}.artifacts`, artifactFromV03),
    history: mapArray(task.history, `${path}.history`, messageFromV03),
  });
}

/**
 * One v1.0 StreamResponse (or SendMessageResponse: same member names) as the bare v0.3 object.
 * A status update gets `final: true` only for completed, canceled, failed and rejected, as
 * both official SDK compat layers set it (spec §0 item 5).
 */
export function streamEventToV03(event: unknown): JsonObject {
  const e = isJsonObject(event) ? event : {};
  if (e.task !== undefined) return taskToV03(e.task);
  if (e.message !== undefined) return messageToV03(e.message);
  if (isJsonObject(e.statusUpdate)) {
    const status = statusToV03(e.statusUpdate.status);
    return withoutKeys(e.statusUpdate, ['status'], { kind: 'status-update', status, final: isFinalV03State(status.state as string) });
  }
  const update = isJsonObject(e.artifactUpdate) ? e.artifactUpdate : {};
  return withoutKeys(update, ['artifact'], { kind: 'artifact-update', artifact: artifactToV03(update.artifact) });
}

/** A bare v0.3 result object (Task, Message, status-update, artifact-update) as a v1.0 StreamResponse. */
export function streamEventFromV03(event: unknown, path: string): JsonObject {
  const e = isJsonObject(event) ? event : {};
  switch (e.kind) {
    case 'task':
      return { task: taskFromV03(e, path) };
    case 'message':
      return { message: messageFromV03(e, path) };
    case 'status-update':
      return { statusUpdate: withoutKeys(e, ['kind', 'final'], { status: statusFromV03(e.status, `${path}.status`) }) };
    case 'artifact-update':
      return { artifactUpdate: withoutKeys(e, ['kind'], { artifact: artifactFromV03(e.artifact, `${path}.artifact`) }) };
    default:
      throw v03Violation(`${path}.kind`, 'must be task, message, status-update or artifact-update');
  }
}
