import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';

/**
 * Checks a SubscribeToTask resume point (SSE `Last-Event-ID`, a WebSocket resume field) for
 * both method generations: absent stays absent, anything but a non-negative integer is
 * InvalidParams.
 */
export function checkResume(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new A2AError(A2AErrorCode.InvalidParams, 'The resume point (Last-Event-ID) must be a non-negative integer', {
      fieldViolations: [{ field: 'Last-Event-ID', description: 'must be a non-negative integer event id' }],
    });
  }
  return value;
}
