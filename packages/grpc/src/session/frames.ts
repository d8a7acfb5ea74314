import { type A2AError, ERROR_TABLE, errorDomain } from '@a2a-polyglot/core';
import { TaskState, type StreamResponse } from '@a2a-polyglot/model';
import type { SessionError, SessionResponse, SessionResult } from '@a2a-polyglot/model/session';

/**
 * Builders for the server frames of the session protocol, and the reverse for errors, so
 * the server and the client agree on one encoding of an A2AError.
 */

/** An `event` frame. */
export function eventFrame(correlationId: string, event: StreamResponse, seq: number): SessionResponse {
  return { correlationId, frame: { $case: 'event', value: { event, seq: String(seq) } } };
}

/** A `result` frame. */
export function resultFrame(correlationId: string, result: SessionResult['result']): SessionResponse {
  return { correlationId, frame: { $case: 'result', value: { result } } };
}

/** An `end` frame. */
export function endFrame(correlationId: string, state: TaskState, lastSeq: number): SessionResponse {
  return { correlationId, frame: { $case: 'end', value: { state, lastSeq: String(lastSeq) } } };
}

/** The `error` frame of an A2AError: same code table and ErrorInfo as the standard service. */
export function errorFrame(correlationId: string, error: A2AError): SessionResponse {
  const value: SessionError = {
    code: ERROR_TABLE[error.code].grpc,
    message: error.message,
    reason: error.reason,
    domain: errorDomain(error.code),
    metadata: { ...error.metadata },
    fieldViolations: error.fieldViolations.map((v) => ({ field: v.field, description: v.description })),
  };
  return { correlationId, frame: { $case: 'error', value } };
}

/** Initial `end` state for a stream that has carried no state yet. */
export const NO_STATE = TaskState.TASK_STATE_UNSPECIFIED;
