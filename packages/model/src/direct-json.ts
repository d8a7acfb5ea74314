/**
 * Direct ProtoJSON encoders of the hot shapes: a stream event (every SSE `data:` and
 * WebSocket frame of a stream) and the SendMessage answer.
 *
 * Why they exist: the generated path, `JSON.stringify(X.toJSON(msg))`, builds a throwaway
 * object tree and then walks it again: about 15.7 k instructions per event of the benchmark
 * stream, against about 21 k for all of the core's work on that event. These write the JSON
 * text in one walk of the message and quote plain strings without `JSON.stringify`: about 9.2 k
 * (the `encode` table of the benchmark's core budget shows both in CPU µs).
 *
 * The output is byte-identical to `JSON.stringify(X.toJSON(msg))`: same members in the same
 * (proto field) order, same omission of default values, the enum names of the generated
 * `*ToJSON`, Struct / Value members through `JSON.stringify` itself. The model tests hold both
 * paths equal over a table of shapes and random messages, and check that every message encoded
 * here still has exactly the fields this file knows (a proto change fails them until this file
 * follows). The A2A 1.1 `generation` members are written only when set: the core sets them
 * only on the answers of calls that negotiated 1.1, so 1.0 answers stay exactly 1.0.
 */
import {
  type Artifact,
  type Message,
  type Part,
  roleToJSON,
  type SendMessageResponse,
  type StreamResponse,
  type Task,
  type TaskArtifactUpdateEvent,
  type TaskStatus,
  type TaskStatusUpdateEvent,
  taskStateToJSON,
} from './gen/lf/a2a/v1/a2a.js';
import { anyText, base64Of, closeObject, stringText, withMember } from './json-text.js';

function partJson(part: Part): string {
  let out = '';
  const content = part.content;
  if (content?.$case === 'text') out = withMember(out, '"text":', stringText(content.value));
  else if (content?.$case === 'raw') out = withMember(out, '"raw":', `"${base64Of(content.value)}"`);
  else if (content?.$case === 'url') out = withMember(out, '"url":', stringText(content.value));
  else if (content?.$case === 'data') out = withMember(out, '"data":', anyText(content.value));
  if (part.metadata !== undefined) out = withMember(out, '"metadata":', anyText(part.metadata));
  if (part.filename !== '') out = withMember(out, '"filename":', stringText(part.filename));
  if (part.mediaType !== '') out = withMember(out, '"mediaType":', stringText(part.mediaType));
  return closeObject(out);
}

function listJson<T>(items: readonly T[], encode: (item: T) => string): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += i === 0 ? encode(items[i] as T) : `,${encode(items[i] as T)}`;
  return `${out}]`;
}

/** JSON text of an Artifact, as `JSON.stringify(Artifact.toJSON(artifact))`. */
export function encodeArtifactJson(artifact: Artifact): string {
  let out = '';
  if (artifact.artifactId !== '') out = withMember(out, '"artifactId":', stringText(artifact.artifactId));
  if (artifact.name !== '') out = withMember(out, '"name":', stringText(artifact.name));
  if (artifact.description !== '') out = withMember(out, '"description":', stringText(artifact.description));
  if (artifact.parts?.length) out = withMember(out, '"parts":', listJson(artifact.parts, partJson));
  if (artifact.metadata !== undefined) out = withMember(out, '"metadata":', anyText(artifact.metadata));
  if (artifact.extensions?.length) out = withMember(out, '"extensions":', anyText(artifact.extensions));
  return closeObject(out);
}

/** JSON text of a Message, as `JSON.stringify(Message.toJSON(message))`. */
export function encodeMessageJson(message: Message): string {
  let out = '';
  if (message.messageId !== '') out = withMember(out, '"messageId":', stringText(message.messageId));
  if (message.contextId !== '') out = withMember(out, '"contextId":', stringText(message.contextId));
  if (message.taskId !== '') out = withMember(out, '"taskId":', stringText(message.taskId));
  if (message.role !== 0) out = withMember(out, '"role":', stringText(roleToJSON(message.role)));
  if (message.parts?.length) out = withMember(out, '"parts":', listJson(message.parts, partJson));
  if (message.metadata !== undefined) out = withMember(out, '"metadata":', anyText(message.metadata));
  if (message.extensions?.length) out = withMember(out, '"extensions":', anyText(message.extensions));
  if (message.referenceTaskIds?.length) out = withMember(out, '"referenceTaskIds":', anyText(message.referenceTaskIds));
  return closeObject(out);
}

function statusJson(status: TaskStatus): string {
  let out = '';
  if (status.state !== 0) out = withMember(out, '"state":', stringText(taskStateToJSON(status.state)));
  if (status.message !== undefined) out = withMember(out, '"message":', encodeMessageJson(status.message));
  if (status.timestamp !== undefined) out = withMember(out, '"timestamp":', stringText(status.timestamp));
  return closeObject(out);
}

/** JSON text of a Task, as `JSON.stringify(Task.toJSON(task))`. */
export function encodeTaskJson(task: Task): string {
  let out = '';
  if (task.id !== '') out = withMember(out, '"id":', stringText(task.id));
  if (task.contextId !== '') out = withMember(out, '"contextId":', stringText(task.contextId));
  if (task.status !== undefined) out = withMember(out, '"status":', statusJson(task.status));
  if (task.artifacts?.length) out = withMember(out, '"artifacts":', listJson(task.artifacts, encodeArtifactJson));
  if (task.history?.length) out = withMember(out, '"history":', listJson(task.history, encodeMessageJson));
  if (task.metadata !== undefined) out = withMember(out, '"metadata":', anyText(task.metadata));
  if (task.generation !== undefined) out = withMember(out, '"generation":', stringText(task.generation));
  return closeObject(out);
}

function statusUpdateJson(event: TaskStatusUpdateEvent): string {
  let out = '';
  if (event.taskId !== '') out = withMember(out, '"taskId":', stringText(event.taskId));
  if (event.contextId !== '') out = withMember(out, '"contextId":', stringText(event.contextId));
  if (event.status !== undefined) out = withMember(out, '"status":', statusJson(event.status));
  if (event.metadata !== undefined) out = withMember(out, '"metadata":', anyText(event.metadata));
  if (event.generation !== undefined) out = withMember(out, '"generation":', stringText(event.generation));
  return closeObject(out);
}

function artifactUpdateJson(event: TaskArtifactUpdateEvent): string {
  let out = '';
  if (event.taskId !== '') out = withMember(out, '"taskId":', stringText(event.taskId));
  if (event.contextId !== '') out = withMember(out, '"contextId":', stringText(event.contextId));
  if (event.artifact !== undefined) out = withMember(out, '"artifact":', encodeArtifactJson(event.artifact));
  if (event.append !== false) out = withMember(out, '"append":', anyText(event.append));
  if (event.lastChunk !== false) out = withMember(out, '"lastChunk":', anyText(event.lastChunk));
  if (event.metadata !== undefined) out = withMember(out, '"metadata":', anyText(event.metadata));
  if (event.generation !== undefined) out = withMember(out, '"generation":', stringText(event.generation));
  return closeObject(out);
}

/**
 * JSON text of one stream event (SSE `data:`, WebSocket frame, push body), as
 * `JSON.stringify(StreamResponse.toJSON(event))`.
 */
export function encodeStreamResponseJson(event: StreamResponse): string {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task':
      return `{"task":${encodeTaskJson(payload.value)}}`;
    case 'message':
      return `{"message":${encodeMessageJson(payload.value)}}`;
    case 'statusUpdate':
      return `{"statusUpdate":${statusUpdateJson(payload.value)}}`;
    case 'artifactUpdate':
      return `{"artifactUpdate":${artifactUpdateJson(payload.value)}}`;
    default:
      return '{}';
  }
}

/** JSON text of a SendMessage answer, as `JSON.stringify(SendMessageResponse.toJSON(response))`. */
export function encodeSendMessageResponseJson(response: SendMessageResponse): string {
  const payload = response.payload;
  switch (payload?.$case) {
    case 'task':
      return `{"task":${encodeTaskJson(payload.value)}}`;
    case 'message':
      return `{"message":${encodeMessageJson(payload.value)}}`;
    default:
      return '{}';
  }
}
