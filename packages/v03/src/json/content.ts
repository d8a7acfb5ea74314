import { quoteInput } from '@a2a-polyglot/model';
import { roleFromV03, roleToV03 } from './enums.js';
import { isJsonObject, mapArray, v03Violation, withoutKeys, type JsonObject } from './json-object.js';

/**
 * Parts, messages and artifacts: v0.3 JSON-RPC (`kind`-tagged parts, nested `file`, roles
 * `user`/`agent`, spec §6.2) ⇄ v1.0 ProtoJSON (flat parts, `ROLE_*`). The `…FromV03`
 * functions take what a v0.3 peer sent and give JSON for the strict v1.0 decoder; the
 * `…ToV03` functions take JSON the v1.0 encoder produced.
 */

const FILE_KEYS = ['bytes', 'uri', 'name', 'mimeType'];

/** A v0.3 Part as a v1.0 Part; unknown or missing `kind`, or a file with not exactly one of bytes/uri, is InvalidParams at `path`. */
export function partFromV03(part: unknown, path: string): unknown {
  if (!isJsonObject(part)) return part;
  switch (part.kind) {
    case 'text':
      return withoutKeys(part, ['kind']);
    case 'data':
      // A v0.3 data part is JSON by definition: the media type core's dataPart() gives such parts.
      if (!isJsonObject(part.data)) throw v03Violation(`${path}.data`, 'must be a JSON object');
      return withoutKeys(part, ['kind'], { mediaType: 'application/json' });
    case 'file':
      return filePartFromV03(part, path);
    case undefined:
      throw v03Violation(`${path}.kind`, 'is required: text, file or data');
    default:
      throw v03Violation(`${path}.kind`, `must be text, file or data (got ${quoteInput(part.kind)})`);
  }
}

function filePartFromV03(part: JsonObject, path: string): JsonObject {
  const file = part.file;
  if (!isJsonObject(file)) throw v03Violation(`${path}.file`, 'must be an object with bytes or uri');
  const unknown = Object.keys(file).find((key) => !FILE_KEYS.includes(key));
  if (unknown !== undefined) throw v03Violation(`${path}.file.${unknown}`, 'is not a field of a v0.3 file (bytes, uri, name, mimeType)');
  if ((file.bytes === undefined) === (file.uri === undefined)) throw v03Violation(`${path}.file`, 'needs exactly one of bytes or uri');
  return withoutKeys(part, ['kind', 'file'], { raw: file.bytes, url: file.uri, filename: file.name, mediaType: file.mimeType });
}

/**
 * A v1.0 Part as a v0.3 Part. v0.3 data parts hold objects only, so another JSON value is
 * wrapped as `{ "value": … }`; `filename`/`mediaType` of a text or data part have no v0.3 place.
 */
export function partToV03(part: unknown): JsonObject {
  const p = isJsonObject(part) ? part : {};
  const metadata = p.metadata === undefined ? {} : { metadata: p.metadata };
  if (typeof p.text === 'string') return { kind: 'text', text: p.text, ...metadata };
  if (p.raw !== undefined || p.url !== undefined) {
    const file = withoutKeys({}, [], { bytes: p.raw, uri: p.url, name: p.filename || undefined, mimeType: p.mediaType || undefined });
    return { kind: 'file', file, ...metadata };
  }
  return { kind: 'data', data: isJsonObject(p.data) ? p.data : { value: p.data ?? null }, ...metadata };
}

/** A v0.3 Message as a v1.0 Message (`kind` must be "message" when present). */
export function messageFromV03(message: unknown, path: string): unknown {
  if (!isJsonObject(message)) return message;
  if (message.kind !== undefined && message.kind !== 'message') throw v03Violation(`${path}.kind`, 'must be "message"');
  return withoutKeys(message, ['kind'], {
    role: message.role === undefined ? undefined : roleFromV03(message.role, `${path}.role`),
    parts: mapArray(message.parts, `${path}.parts`, partFromV03),
  });
}

/** A v1.0 Message as a v0.3 Message (`kind: "message"`); an absent role or parts stays absent. */
export function messageToV03(message: unknown): JsonObject {
  const m = isJsonObject(message) ? message : {};
  return withoutKeys(m, ['role', 'parts'], {
    role: m.role === undefined ? undefined : roleToV03(m.role),
    parts: m.parts === undefined ? undefined : toV03List(m.parts, partToV03),
    kind: 'message',
  });
}

/** A v0.3 Artifact as a v1.0 Artifact (same members; parts translated). */
export function artifactFromV03(artifact: unknown, path: string): unknown {
  if (!isJsonObject(artifact)) return artifact;
  return withoutKeys(artifact, [], { parts: mapArray(artifact.parts, `${path}.parts`, partFromV03) });
}

/** A v1.0 Artifact as a v0.3 Artifact. */
export function artifactToV03(artifact: unknown): JsonObject {
  const a = isJsonObject(artifact) ? artifact : {};
  return withoutKeys(a, [], { parts: toV03List(a.parts, partToV03) });
}

/** Maps a list the v1.0 encoder produced (absent ⇒ empty). */
export function toV03List<T>(value: unknown, map: (item: unknown) => T): T[] {
  return Array.isArray(value) ? value.map(map) : [];
}
