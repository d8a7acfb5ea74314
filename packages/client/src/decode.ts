import { A2AError, A2AErrorCode, type UnaryOperation } from '@a2a-polyglot/core';
import { Message, SendMessageResponse, StreamResponse, Task } from '@a2a-polyglot/model';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string): A2AError {
  return new A2AError(A2AErrorCode.InvalidAgentResponse, message);
}

/**
 * Decodes the JSON result of a unary operation. SendMessage tolerates both the v1.0 wrapper
 * (`{"task": …}` / `{"message": …}`) and a bare Task or Message, which some servers still
 * send (spec §0 item 4). Empty results (DeleteTaskPushNotificationConfig) decode to undefined
 * whatever the server sent (`null`, `{}`).
 */
export function decodeUnaryResult<Res>(op: UnaryOperation<unknown, Res>, json: unknown): Res {
  if (!op.response) return undefined as Res;
  if (op.name === 'SendMessage') return decodeSendMessageResult(json) as Res;
  if (!isObject(json)) throw invalid(`${op.name}: the result is not a JSON object`);
  return op.response.fromJSON(json);
}

/** SendMessage result in either shape (see {@link decodeUnaryResult}). */
export function decodeSendMessageResult(json: unknown): SendMessageResponse {
  if (!isObject(json)) throw invalid('SendMessage: the result is not a JSON object');
  if (isObject(json.task) || isObject(json.message)) {
    const decoded = SendMessageResponse.fromJSON(json);
    if (decoded.payload) return decoded;
  }
  if (typeof json.id === 'string' && isObject(json.status)) return { payload: { $case: 'task', value: Task.fromJSON(json) } };
  if (typeof json.messageId === 'string' && Array.isArray(json.parts)) return { payload: { $case: 'message', value: Message.fromJSON(json) } };
  throw invalid('SendMessage: the result is neither {"task": …}, {"message": …}, a Task nor a Message');
}

/** Decodes one stream event (`StreamResponse` JSON); anything without a payload is an error. */
export function decodeStreamEvent(json: unknown): StreamResponse {
  if (!isObject(json)) throw invalid('A stream event is not a JSON object');
  const event = StreamResponse.fromJSON(json);
  if (!event.payload) throw invalid(`A stream event has none of task, message, statusUpdate, artifactUpdate (keys: ${Object.keys(json).join(', ') || 'none'})`);
  return event;
}
