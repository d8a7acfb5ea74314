import type * as v1 from '@a2a-polyglot/model';
import type * as v03 from '@a2a-polyglot/model/v03';

/**
 * Messages and parts between the v0.3 proto (`a2a.v1`: `content`, TextPart / FilePart /
 * DataPart) and the v1.0 model (`parts`, one flat Part). Role and TaskState enums share their
 * numbers across the two packages (v0.3's CANCELLED is v1.0's CANCELED, both 5), so they
 * carry over as numbers.
 */

/** The media type of a data part (v0.3 DataParts carry none: they are JSON). */
const JSON_MEDIA_TYPE = 'application/json';

/** v0.3 role → v1.0 role (same numbering). */
export function roleToV1(role: v03.Role): v1.Role {
  return role as number as v1.Role;
}

/** v1.0 role → v0.3 role (same numbering). */
export function roleToV03(role: v1.Role): v03.Role {
  return role as number as v03.Role;
}

/**
 * v0.3 part → v1.0 part: a file becomes `raw` or `url` with `filename` / `mediaType`; a data
 * part, JSON by definition in v0.3, gets media type `application/json`.
 */
export function partToV1(part: v03.Part): v1.Part {
  const out: v1.Part = { content: undefined, metadata: part.metadata, filename: '', mediaType: '' };
  const p = part.part;
  if (p?.$case === 'text') out.content = { $case: 'text', value: p.value };
  else if (p?.$case === 'data') {
    out.content = { $case: 'data', value: p.value.data ?? {} };
    out.mediaType = JSON_MEDIA_TYPE;
  } else if (p?.$case === 'file') {
    const file = p.value.file;
    if (file?.$case === 'fileWithBytes') out.content = { $case: 'raw', value: file.value };
    else if (file?.$case === 'fileWithUri') out.content = { $case: 'url', value: file.value };
    out.filename = p.value.name;
    out.mediaType = p.value.mimeType;
  }
  return out;
}

/** True for a JSON object (what a v0.3 DataPart can hold). */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * v1.0 part → v0.3 part. `raw` / `url` become a FilePart (name, mime type). v0.3 has no
 * filename or media type on text and data parts, so those are dropped; a data part whose value
 * is not a JSON object (v1.0 allows any JSON value) is wrapped as `{ "value": … }`.
 */
export function partToV03(part: v1.Part): v03.Part {
  const c = part.content;
  let value: v03.Part['part'];
  if (c?.$case === 'text') value = { $case: 'text', value: c.value };
  else if (c?.$case === 'data') value = { $case: 'data', value: { data: isJsonObject(c.value) ? c.value : { value: c.value } } };
  else if (c?.$case === 'raw' || c?.$case === 'url') {
    const file: v03.FilePart['file'] = c.$case === 'raw' ? { $case: 'fileWithBytes', value: c.value } : { $case: 'fileWithUri', value: c.value };
    value = { $case: 'file', value: { file, mimeType: part.mediaType, name: part.filename } };
  }
  return { part: value, metadata: part.metadata };
}

/** v0.3 message → v1.0 message (`content` → `parts`). */
export function messageToV1(message: v03.Message): v1.Message {
  return {
    messageId: message.messageId,
    contextId: message.contextId,
    taskId: message.taskId,
    role: roleToV1(message.role),
    parts: message.content.map(partToV1),
    metadata: message.metadata,
    extensions: message.extensions,
    referenceTaskIds: [],
  };
}

/** v1.0 message → v0.3 message. `referenceTaskIds` has no v0.3 proto field and is dropped. */
export function messageToV03(message: v1.Message): v03.Message {
  return {
    messageId: message.messageId,
    contextId: message.contextId,
    taskId: message.taskId,
    role: roleToV03(message.role),
    content: message.parts.map(partToV03),
    metadata: message.metadata,
    extensions: message.extensions,
  };
}
