import { A2AError, A2AErrorCode, type OperationName } from '@a2a-polyglot/core';

/**
 * What every v0.3 transport shares: the refusal of an operation v0.3 cannot express, and the
 * reading of a v0.3 answer, whose translation failures are the server's fault, not the caller's.
 */

/** The error of an operation v0.3 has no form of (ListTasks), raised before anything is sent. */
export function notInV03(operation: OperationName): A2AError {
  return new A2AError(A2AErrorCode.UnsupportedOperation, `${operation} does not exist in A2A v0.3, which is all this agent's interface speaks`);
}

/**
 * Runs a v0.3 → v1.0 translation of something the server sent. The codec reports a bad shape as
 * InvalidParams (it was written for requests); from a server it is an invalid agent response.
 */
export function fromV03Answer<T>(what: string, translate: () => T): T {
  try {
    return translate();
  } catch (error) {
    const reason =
      error instanceof A2AError && error.fieldViolations.length > 0
        ? error.fieldViolations.map((v) => `${v.field} ${v.description}`).join('; ')
        : String(error instanceof Error ? error.message : error);
    throw new A2AError(A2AErrorCode.InvalidAgentResponse, `${what}: the v0.3 answer cannot be read (${reason})`);
  }
}
