import { fromJsonRpcError } from '@a2a-polyglot/core';
import { DriverFailure, toDriverError, type CallResult } from '../driver.js';
import { WIRE_VIOLATION, wireViolation } from './http-common.js';

/**
 * Reading JSON-RPC 2.0 response envelopes, shared by the bindings that speak JSON-RPC
 * (JSON-RPC over HTTP, WebSocket): the envelope checks, and the A2A error read back from
 * `error` through its ErrorInfo reason (core `fromJsonRpcError`).
 */

/** A JSON-RPC response envelope (a JSON object). @internal */
export type Envelope = Record<string, unknown>;

/**
 * Checks a JSON-RPC response: an object, `jsonrpc: "2.0"`, exactly one of `result` and
 * `error`, and the request's id echoed (an error may carry a null id). `id` null: any id is
 * fine (the answer to input that had none, e.g. a parse error).
 * @internal
 */
export function checkEnvelope(value: unknown, id: number | null): { readonly envelope: Envelope } | { readonly problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'the answer is not a JSON-RPC response object' };
  const envelope = value as Envelope;
  if (envelope.jsonrpc !== '2.0') return { problem: 'jsonrpc member is not "2.0"' };
  const hasResult = 'result' in envelope;
  const hasError = 'error' in envelope;
  if (hasResult === hasError) return { problem: 'a response needs exactly one of result and error' };
  if (id !== null && envelope.id !== id && !(hasError && envelope.id === null))
    return { problem: `response id ${JSON.stringify(envelope.id)} does not echo request id ${id}` };
  return { envelope };
}

/** A unary answer from a JSON-RPC response: its result, its A2A error, or a wire violation. @internal */
export function envelopeAnswer(value: unknown, id: number | null): CallResult {
  const checked = checkEnvelope(value, id);
  if ('problem' in checked) return wireViolation(checked.problem);
  const { envelope } = checked;
  if ('error' in envelope) return { ok: false, error: toDriverError(fromJsonRpcError(envelope.error as Envelope)) };
  return { ok: true, result: envelope.result };
}

/**
 * One event of a JSON-RPC stream: the checked envelope of a `result` (for its members), or
 * the thrown A2A error of an `error`; a broken envelope is thrown as a wire violation.
 * @internal
 */
export function envelopeEvent(value: unknown, id: number, what: string): Envelope {
  const checked = checkEnvelope(value, id);
  if ('problem' in checked) throw new DriverFailure(WIRE_VIOLATION, `${what}: ${checked.problem}`);
  const { envelope } = checked;
  if ('error' in envelope) throw fromJsonRpcError(envelope.error as Envelope);
  return envelope;
}
