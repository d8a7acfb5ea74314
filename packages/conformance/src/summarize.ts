import type { Json } from './normalize.js';

type Obj = Record<string, Json>;

const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The compact view scenario expectations are written against: what a conformance reader
 * cares about (kinds, states, artifact ids, chunk flags, text) without ProtoJSON noise.
 * Works on normalized JSON of any result or stream event:
 * - Task → `{kind:"task", id, contextId, state, statusText?, artifacts?, history?, generation?}`,
 *   where `artifacts` / `history` are present exactly when the JSON has them (presence rules),
 *   and `generation` (A2A 1.1) too; status and artifact updates carry `generation` the same way.
 * - Message → `{kind:"message", role, text, taskId?, contextId?}`.
 * - StreamResponse / SendMessageResponse wrappers → the member's summary; status updates
 *   `{kind:"status", taskId, state, statusText?}`, artifact updates
 *   `{kind:"artifact", taskId, artifactId, name, append, lastChunk, text, data?}` (`data`:
 *   the values of data parts, when there are any).
 * - ListTasksResponse → `{tasks: [...task summaries], nextPageToken, pageSize, totalSize}`.
 * - Anything else (push configs, cards) is returned as is.
 */
export function summarize(json: Json): Json {
  if (!isObj(json)) return json;
  const keys = Object.keys(json);
  if (keys.length === 1) {
    const [key] = keys as [string];
    const value = json[key];
    if (key === 'task' && isObj(value)) return summarizeTask(value);
    if (key === 'message' && isObj(value)) return summarizeMessage(value);
    if (key === 'statusUpdate' && isObj(value)) return summarizeStatus(value);
    if (key === 'artifactUpdate' && isObj(value)) return summarizeArtifactUpdate(value);
  }
  if (Array.isArray(json.tasks) && 'totalSize' in json) {
    return { ...json, tasks: json.tasks.map((t) => (isObj(t) ? summarizeTask(t) : t)) };
  }
  if ('status' in json && 'id' in json) return summarizeTask(json);
  return json;
}

function summarizeTask(task: Obj): Obj {
  const status = isObj(task.status) ? task.status : {};
  const out: Obj = { kind: 'task', id: task.id ?? null, contextId: task.contextId ?? null, state: status.state ?? null };
  if (isObj(status.message)) out.statusText = textOf(status.message.parts);
  if (Array.isArray(task.artifacts)) out.artifacts = task.artifacts.map((a) => (isObj(a) ? summarizeArtifact(a) : a));
  if (Array.isArray(task.history)) out.history = task.history.map((m) => (isObj(m) ? { role: m.role ?? null, text: textOf(m.parts) } : m));
  if (task.generation !== undefined) out.generation = task.generation;
  return out;
}

function summarizeMessage(message: Obj): Obj {
  const out: Obj = { kind: 'message', role: message.role ?? null, text: textOf(message.parts) };
  if (message.taskId !== undefined) out.taskId = message.taskId;
  if (message.contextId !== undefined) out.contextId = message.contextId;
  return out;
}

function summarizeStatus(update: Obj): Obj {
  const status = isObj(update.status) ? update.status : {};
  const out: Obj = { kind: 'status', taskId: update.taskId ?? null, state: status.state ?? null };
  if (isObj(status.message)) out.statusText = textOf(status.message.parts);
  if (update.generation !== undefined) out.generation = update.generation;
  return out;
}

function summarizeArtifactUpdate(update: Obj): Obj {
  const artifact = isObj(update.artifact) ? update.artifact : {};
  return {
    kind: 'artifact',
    taskId: update.taskId ?? null,
    ...summarizeArtifact(artifact),
    append: update.append === true,
    lastChunk: update.lastChunk === true,
    ...(update.generation !== undefined && { generation: update.generation }),
  };
}

function summarizeArtifact(artifact: Obj): Obj {
  const out: Obj = { artifactId: artifact.artifactId ?? null, name: artifact.name ?? '', text: textOf(artifact.parts) };
  const data = dataOf(artifact.parts);
  if (data.length > 0) out.data = data;
  return out;
}

/** The `data` values of a ProtoJSON parts array. */
function dataOf(parts: Json | undefined): Json[] {
  if (!Array.isArray(parts)) return [];
  return parts.flatMap((p) => (isObj(p) && p.data !== undefined ? [p.data] : []));
}

/** Concatenated `text` of a ProtoJSON parts array. */
function textOf(parts: Json | undefined): string {
  if (!Array.isArray(parts)) return '';
  return parts.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('');
}
