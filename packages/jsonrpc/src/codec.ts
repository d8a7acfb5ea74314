import { encodeStreamResponseJson, type StreamResponse } from '@a2a-polyglot/model';
import { A2AError, A2AErrorCode, streamEventToJson } from '@a2a-polyglot/core';
import type { JSONRPCID } from 'json-rpc-2.0';

/** A JSON-RPC 2.0 request id (json-rpc-2.0's). `null` is allowed by the spec (discouraged); absent = notification. */
export type JsonRpcId = JSONRPCID;

/*
 * The envelope types below are read-only views of json-rpc-2.0's (`JSONRPCRequest`,
 * `JSONRPCResponse`, ...) with `unknown` where the library says `any`, so strict code must check
 * what it reads. They stay assignable both ways, so the dispatcher hands them to the library
 * and takes its answers back without casts: the compiler checks the fit.
 */

/** A request envelope that passed {@link validateEnvelope}. */
export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  /** Absent for notifications, which get no response. */
  readonly id?: JsonRpcId;
  readonly method: string;
  readonly params?: unknown;
}

/** The JSON-RPC `error` member. `data` holds the ErrorInfo / BadRequest details. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A success response. */
export interface JsonRpcSuccess {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly result: unknown;
}

/** An error response. */
export interface JsonRpcFailure {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly error: JsonRpcErrorObject;
}

/** Either response kind; discriminate with `'error' in response`. */
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** Result of {@link validateEnvelope}: the request, or the error to answer with (and the id to use). */
export type EnvelopeCheck = { readonly ok: true; readonly request: JsonRpcRequest } | { readonly ok: false; readonly id: JsonRpcId; readonly error: A2AError };

/** True for a valid JSON-RPC id value: string, finite number or null. */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Checks one JSON-RPC 2.0 request envelope (not its params: those are decoded strictly per
 * operation). Failures are InvalidRequest (-32600) and carry the request's id when it was
 * readable, `null` otherwise, as JSON-RPC 2.0 §5 requires. Unknown envelope members are
 * ignored; `params` must be structured (object or array) when present, `null` reads as absent.
 */
export function validateEnvelope(value: unknown): EnvelopeCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid(null, 'A JSON-RPC request must be a JSON object');
  }
  const envelope = value as Record<string, unknown>;
  const hasId = Object.hasOwn(envelope, 'id');
  if (hasId && !isJsonRpcId(envelope.id)) return invalid(null, 'The request id must be a string, a number or null');
  const id = hasId ? (envelope.id as JsonRpcId) : null;
  if (envelope.jsonrpc !== '2.0') return invalid(id, 'The "jsonrpc" member must be exactly "2.0"');
  if (typeof envelope.method !== 'string' || envelope.method === '') return invalid(id, 'The "method" member must be a non-empty string');
  const params = envelope.params;
  if (params !== undefined && params !== null && typeof params !== 'object') {
    return invalid(id, 'The "params" member must be an object when present');
  }
  const request: JsonRpcRequest = {
    jsonrpc: '2.0',
    method: envelope.method,
    ...(hasId ? { id: envelope.id as JsonRpcId } : {}),
    ...(params === undefined || params === null ? {} : { params }),
  };
  return { ok: true, request };
}

/** A success response for `id`. `undefined` results (google.protobuf.Empty) become `null`. */
export function jsonRpcSuccess(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
}

/**
 * One streaming event as a whole JSON-RPC response (spec §3.3): what each SSE `data:` and each
 * WebSocket stream frame carries.
 */
export function encodeStreamEvent(id: JsonRpcId, event: StreamResponse): JsonRpcSuccess {
  return jsonRpcSuccess(id, streamEventToJson(event));
}

/**
 * {@link encodeStreamEvent} of one stream as JSON text, `seq` appended when > 0 (WebSocket
 * frames carry it): the bytes of {@link stringifyStreamFrame}, written by the model's direct
 * encoder in one walk of the event instead of an object tree then `JSON.stringify` (the
 * per-event hot path of SSE and WebSocket). The envelope's head is built once per stream.
 */
export function streamEventTextEncoder(id: JsonRpcId): (event: StreamResponse, seq?: number) => string {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
  // Flattened (reading a character does it): the encoder lives as long as its stream.
  head.charCodeAt(0);
  return (event, seq) =>
    seq !== undefined && seq > 0 ? `${head}${encodeStreamResponseJson(event)},"seq":${JSON.stringify(seq)}}` : `${head}${encodeStreamResponseJson(event)}}`;
}

/** One stream frame's text from its response object, `seq` appended when > 0 (the generic path). */
export function stringifyStreamFrame(success: JsonRpcSuccess, seq?: number): string {
  return JSON.stringify(seq !== undefined && seq > 0 ? { ...success, seq } : success);
}

function invalid(id: JsonRpcId, message: string): EnvelopeCheck {
  return { ok: false, id, error: new A2AError(A2AErrorCode.InvalidRequest, message) };
}
