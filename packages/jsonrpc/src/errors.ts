import { A2AError, A2AErrorCode, codeFromJsonRpc, fromJsonRpcError, type Logger, logFailure, retryAfterSeconds, toJsonRpcError } from '@a2a-polyglot/core';
import { errorHeaders } from '@a2a-polyglot/http';
import { toV03JsonRpcError } from '@a2a-polyglot/v03/json';
import type { JsonRpcErrorObject, JsonRpcFailure, JsonRpcId, JsonRpcResponse } from './codec.js';

/**
 * Turns anything thrown into a JSON-RPC error response through core's one error table.
 * Unknown failures become -32603 "Internal error" with no message or stack from the original
 * (A2AError.from keeps it as `cause`); that cause is logged here, so it is not lost.
 */
export function jsonRpcFailure(id: JsonRpcId, thrown: unknown, logger?: Logger, encode: JsonRpcErrorEncoder = toJsonRpcError): JsonRpcFailure {
  const error = A2AError.from(thrown);
  if (logger) logFailure(logger, error, 'JSON-RPC call');
  return { jsonrpc: '2.0', id, error: encode(error) };
}

/** Writes an A2AError as a JSON-RPC `error` member: v1.0 (`toJsonRpcError`) or v0.3 (`toV03JsonRpcError`). */
export type JsonRpcErrorEncoder = (error: A2AError) => JsonRpcErrorObject;

/** {@link jsonRpcFailure} in the v0.3 form (spec §12.3), for calls made with v0.3 method names. */
export function v03JsonRpcFailure(id: JsonRpcId, thrown: unknown, logger?: Logger): JsonRpcFailure {
  return jsonRpcFailure(id, thrown, logger, toV03JsonRpcError);
}

/** The A2A error code behind a JSON-RPC error response (undefined for success). */
export function failureCode(response: JsonRpcResponse): A2AErrorCode | undefined {
  return 'error' in response ? codeFromJsonRpc(response.error.code) : undefined;
}

/**
 * HTTP status of a single JSON-RPC response. JSON-RPC errors travel with 200, except the
 * failures HTTP infrastructure must see: missing credentials (401, so clients and proxies run
 * their auth flow), an oversize body (413), a rate-limit refusal (429 with `Retry-After`) and
 * a concurrency cap that asks the client to wait (ResourceExhausted with a retry hint: 429
 * with `Retry-After` too).
 */
export function httpStatusFor(response: JsonRpcResponse): number {
  const code = failureCode(response);
  if (code === A2AErrorCode.Unauthenticated) return 401;
  if (code === A2AErrorCode.PayloadTooLarge) return 413;
  if (code === A2AErrorCode.RateLimited) return 429;
  if (code === A2AErrorCode.ResourceExhausted && 'error' in response && retryAfterSeconds(fromJsonRpcError(response.error)) !== undefined) return 429;
  return 200;
}

/**
 * Headers that go with a status from {@link httpStatusFor} (the 401 challenge, 413 connection
 * close, 429 `Retry-After`), read from the error the response carries.
 */
export function failureHeaders(status: number, response: JsonRpcResponse): Record<string, string> {
  return errorHeaders(status, status === 429 && 'error' in response ? fromJsonRpcError(response.error) : undefined);
}
