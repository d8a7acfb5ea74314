import {
  A2AError,
  A2AErrorCode,
  type CallContext,
  type EventStream,
  OPERATIONS,
  type OperationName,
  type ServedHandler,
  resumeCursor,
  type StreamOperation,
  type UnaryOperation,
} from '@a2a-polyglot/core';
import { CancelTaskRequest, GetTaskRequest, ListTasksRequest, SendMessageRequest, SubscribeToTaskRequest } from '@a2a-polyglot/model';
import type { SessionRequest, SessionResult } from '@a2a-polyglot/model/session';

/** The operation a client frame asks for (`send`, `subscribe`, `get`…). */
export type SessionOperation = NonNullable<SessionRequest['operation']>;

/** How the session answers one operation: by streaming its events, or with one `result` frame. */
export interface OperationAnswer {
  /** Streams the events of the opening stream, then its `end` frame. */
  stream(opening: Promise<EventStream>): Promise<void>;
  /** Writes the operation's `result` frame. */
  result(result: SessionResult['result']): Promise<void>;
}

/** The core's unary operation of that name (the table is the single dispatch point). */
function unaryOp(name: OperationName): UnaryOperation {
  const op = OPERATIONS[name];
  if (op.kind !== 'unary') throw new A2AError(A2AErrorCode.Internal, `${name} is not unary`);
  return op;
}

/** The core's stream operation of that name. */
function streamOp(name: OperationName): StreamOperation {
  const op = OPERATIONS[name];
  if (op.kind !== 'stream') throw new A2AError(A2AErrorCode.Internal, `${name} is not a stream`);
  return op;
}

/**
 * Runs one session operation through the core's OPERATIONS table (the same entries the other
 * bindings use) and hands its answer to `answer`. A missing request message is the empty one,
 * which the core then validates like any other. `unsubscribe` is no operation of its own (the
 * session handles it when the frame arrives), so nothing runs for it.
 */
export async function dispatchOperation(handler: ServedHandler, operation: SessionOperation, ctx: CallContext, answer: OperationAnswer): Promise<void> {
  switch (operation.$case) {
    case 'send': {
      const request = operation.value.request ?? SendMessageRequest.fromPartial({});
      if (operation.value.streaming) return answer.stream(streamOp('SendStreamingMessage').open(handler, request, ctx));
      const response = await unaryOp('SendMessage').invoke(handler, request, ctx);
      return answer.result({ $case: 'send', value: response });
    }
    case 'subscribe': {
      const request = operation.value.request ?? SubscribeToTaskRequest.fromPartial({});
      const after = operation.value.resumeAfterSeq;
      return answer.stream(streamOp('SubscribeToTask').open(handler, request, ctx, resumeCursor(after, 'resumeAfterSeq')));
    }
    case 'cancel': {
      const task = await unaryOp('CancelTask').invoke(handler, operation.value ?? CancelTaskRequest.fromPartial({}), ctx);
      return answer.result({ $case: 'task', value: task });
    }
    case 'get': {
      const task = await unaryOp('GetTask').invoke(handler, operation.value ?? GetTaskRequest.fromPartial({}), ctx);
      return answer.result({ $case: 'task', value: task });
    }
    case 'list': {
      const list = await unaryOp('ListTasks').invoke(handler, operation.value ?? ListTasksRequest.fromPartial({}), ctx);
      return answer.result({ $case: 'list', value: list });
    }
    case 'unsubscribe':
      return; // handled when the frame arrives
  }
}
