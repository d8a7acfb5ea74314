import type { Operation } from '@a2a-polyglot/core';

/**
 * The ProtoJSON a client of any binding sees for a unary answer: the operation's own encoder
 * (core `OPERATIONS`, with its presence rules), `null` for `google.protobuf.Empty`. Drivers
 * that carry typed messages (gRPC, the gRPC session, v0.3 REST) end every call here, so all
 * bindings are compared on the same JSON.
 * @internal
 */
export function unaryResultJson(op: Operation, response: unknown, decodedRequest: unknown): unknown {
  if (op.kind !== 'unary') throw new Error(`${op.name} is a streaming operation, not a unary one`);
  return op.encodeJson(response, decodedRequest) ?? null;
}
