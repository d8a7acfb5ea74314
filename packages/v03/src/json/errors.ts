import { A2AError, ERROR_TABLE, errorDetails, type ErrorDetailJson } from '@a2a-polyglot/core';

/**
 * The v0.3 JSON-RPC `error` member (spec §12.3): the v0.3 code from the one error table
 * (v0.3 has no -32008/-32009, so those arrive as -32600), the message, and `data`, free-form
 * in v0.3, holding the same ErrorInfo / BadRequest details as v1.0 so our clients still read
 * the precise reason.
 */
export function toV03JsonRpcError(error: A2AError): { code: number; message: string; data: ErrorDetailJson[] } {
  return { code: ERROR_TABLE[error.code].v03.jsonRpc, message: error.message, data: errorDetails(error) };
}

/** How a v1.0 field path reads in the v0.3 request it was translated from. */
export type FieldRenamer = (field: string) => string;

/** v1.0 Part members that sit inside `file` in v0.3. */
const PART_RENAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [/(parts\[\d+\])\.raw\b/g, '$1.file.bytes'],
  [/(parts\[\d+\])\.url\b/g, '$1.file.uri'],
  [/(parts\[\d+\])\.filename\b/g, '$1.file.name'],
  [/(parts\[\d+\])\.mediaType\b/g, '$1.file.mimeType'],
  [/configuration\.taskPushNotificationConfig\b/g, 'configuration.pushNotificationConfig'],
  [/configuration\.returnImmediately\b/g, 'configuration.blocking'],
  [/authentication\.scheme\b/g, 'authentication.schemes'],
];

/** Renames message/part/config paths (every v0.3 method with a message or a push config). */
export const renameContentFields: FieldRenamer = (field) => PART_RENAMES.reduce((f, [from, to]) => f.replace(from, to), field);

/** Renames `{taskId, id}` paths to the v0.3 `{id, pushNotificationConfigId}` of the push get/delete params. */
export const renamePushIdFields: FieldRenamer = (field) => field.replace(/^id\b/, 'pushNotificationConfigId').replace(/^taskId\b/, 'id');

/** Renames `taskId` to the v0.3 `id` (push list). */
export const renameTaskIdField: FieldRenamer = (field) => field.replace(/^taskId\b/, 'id');

/**
 * An InvalidParams from the v1.0 decoder with its field paths in the names the v0.3 client
 * used (and a message built from them), so the client can find the member in its own request.
 * Other errors pass unchanged.
 */
export function inV03Terms(error: unknown, rename: FieldRenamer): unknown {
  if (!(error instanceof A2AError) || error.fieldViolations.length === 0) return error;
  const fieldViolations = error.fieldViolations.map((v) => ({ field: rename(v.field), description: v.description }));
  const message = `Invalid parameters: ${fieldViolations.map((v) => `${v.field}: ${v.description}`).join('; ')}`;
  return new A2AError(error.code, message, { metadata: error.metadata, fieldViolations, cause: error.cause });
}
