import { A2AError, A2AErrorCode, type FieldViolation, resumeCursor } from '@a2a-polyglot/core';
import { isJsonRpcId, type JsonRpcId } from '@a2a-polyglot/jsonrpc';
import type { StreamEndFrame, StreamEndReason, StreamStartFrame } from './protocol.js';

/** Most entries a `serviceParams` object may hold. */
const MAX_SERVICE_PARAMS = 64;
/** Names a message may not set: they describe the transport, not the call. */
const RESERVED_PARAMS = new Set(['host', 'connection', 'upgrade', 'content-length', 'transfer-encoding']);

/**
 * One inbound text frame, classified:
 * - `request`: a JSON-RPC request (or notification) to hand to the dispatcher, plus the
 *   binding's envelope extensions `serviceParams` and `resumeAfterSeq`;
 * - `cancelStream`: the control frame that stops delivery of one stream;
 * - `invalid`: answer with this error (id null when the request's id was unreadable).
 */
export type InboundFrame =
  | {
      readonly kind: 'request';
      readonly message: Record<string, unknown>;
      readonly id: JsonRpcId | undefined;
      readonly serviceParams: Readonly<Record<string, string>>;
      readonly resumeAfterSeq?: number;
    }
  | { readonly kind: 'cancelStream'; readonly id: JsonRpcId }
  | { readonly kind: 'invalid'; readonly id: JsonRpcId; readonly error: A2AError };

/**
 * Parses and classifies one text frame. Never throws. JSON syntax errors are ParseError
 * (-32700); arrays (JSON-RPC batches) are refused because requests are multiplexed by id
 * instead; malformed extension members are InvalidRequest / InvalidParams with the id.
 */
export function parseInbound(text: string): InboundFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return invalid(null, A2AErrorCode.ParseError, `Invalid JSON: ${(error as Error).message}`);
  }
  if (Array.isArray(value)) return invalid(null, A2AErrorCode.InvalidRequest, 'Batches are not supported over WebSocket: send one request per frame');
  if (typeof value !== 'object' || value === null) return invalid(null, A2AErrorCode.InvalidRequest, 'A frame must hold one JSON-RPC request object');
  const envelope = value as Record<string, unknown>;
  const hasId = Object.hasOwn(envelope, 'id');
  const id: JsonRpcId = hasId && isJsonRpcId(envelope.id) ? envelope.id : null;

  if (Object.hasOwn(envelope, 'cancelStream')) {
    if (envelope.cancelStream !== true) return invalid(id, A2AErrorCode.InvalidRequest, 'cancelStream must be true');
    if (!hasId || !isJsonRpcId(envelope.id)) return invalid(null, A2AErrorCode.InvalidRequest, 'cancelStream needs the id of the stream to stop');
    if (envelope.method !== undefined) return invalid(id, A2AErrorCode.InvalidRequest, 'A cancelStream frame has no method');
    return { kind: 'cancelStream', id };
  }

  const params = readServiceParams(envelope.serviceParams);
  if (typeof params === 'string') return invalid(id, A2AErrorCode.InvalidRequest, params);
  // A JSON number only: the text form core's rule also reads is for headers and metadata.
  const raw = envelope.resumeAfterSeq;
  let resume: number | undefined;
  try {
    resume = resumeCursor(typeof raw === 'string' ? null : raw, 'resumeAfterSeq');
  } catch (error) {
    return { kind: 'invalid', id, error: error as A2AError };
  }
  return {
    kind: 'request',
    message: envelope,
    id: hasId ? id : undefined,
    serviceParams: params,
    ...(resume === undefined ? {} : { resumeAfterSeq: resume }),
  };
}

/** `serviceParams`: an object of string values; lower-cased keys. A string is the problem. */
function readServiceParams(value: unknown): Record<string, string> | string {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return 'serviceParams must be an object of strings';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_SERVICE_PARAMS) return `serviceParams may hold at most ${MAX_SERVICE_PARAMS} entries`;
  const out: Record<string, string> = {};
  for (const [name, v] of entries) {
    const key = name.toLowerCase();
    if (typeof v !== 'string') return `serviceParams.${name} must be a string`;
    if (RESERVED_PARAMS.has(key) || key.startsWith('sec-websocket-')) return `serviceParams.${name} cannot be set per message`;
    out[key] = v;
  }
  return out;
}

/** The `streamStart` frame opening a stream (with the response service parameters, if any). */
export function streamStartFrame(id: JsonRpcId, serviceParams: Readonly<Record<string, string>> | undefined): StreamStartFrame {
  return { jsonrpc: '2.0', id, streamStart: true, ...(serviceParams ? { serviceParams } : {}) };
}

/** The `streamEnd` frame closing a stream that did not fail. */
export function streamEndFrame(id: JsonRpcId, reason: StreamEndReason, state: string | undefined, lastSeq: number | undefined): StreamEndFrame {
  return { jsonrpc: '2.0', id, streamEnd: true, reason, ...(state === undefined ? {} : { state }), ...(lastSeq === undefined ? {} : { lastSeq }) };
}

/** A stable map key for a JSON-RPC id (`1` and `"1"` are different ids). */
export function idKey(id: JsonRpcId): string {
  return JSON.stringify(id);
}

function invalid(id: JsonRpcId, code: A2AErrorCode, message: string, fieldViolations: readonly FieldViolation[] = []): InboundFrame {
  return { kind: 'invalid', id, error: new A2AError(code, message, { fieldViolations }) };
}

/** The text of a frame (`ws` hands text frames over as Buffers). */
export function textOf(data: unknown): string {
  if (typeof data === 'string') return data;
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
