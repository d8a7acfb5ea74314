import { A2AError } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';

/** Most digits a textual cursor may have: 15 keeps every value below 2^53, so it stays exact. */
const CURSOR_TEXT = /^\d{1,15}$/;

/**
 * Reads a SubscribeToTask resume cursor ("replay the events after this number") the way every
 * binding must: absent (`undefined`) stays absent; a non-negative integer, given as a JSON
 * number or as header / metadata text (surrounding whitespace ignored), is the cursor;
 * anything else is InvalidParams naming `field`. One rule because the bindings carry the same
 * cursor under different names (SSE `Last-Event-ID`, gRPC `a2a-last-event-id` metadata, the
 * WebSocket `resumeAfterSeq` member) and a client must get the same answer from each.
 * @throws A2AError(InvalidParams) with one field violation for `field`.
 */
export function resumeCursor(raw: unknown, field: string): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return raw;
  if (typeof raw === 'string' && CURSOR_TEXT.test(raw.trim())) return Number(raw.trim());
  throw new A2AError(A2AErrorCode.InvalidParams, `${field} must be a non-negative integer event number`, {
    fieldViolations: [{ field, description: 'must be a non-negative integer event number' }],
  });
}
