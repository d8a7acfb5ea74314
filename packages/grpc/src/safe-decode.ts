import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

/**
 * A request whose bytes could not be decoded. The safe deserializer returns it instead of
 * throwing, so the handler can answer with a proper A2A error.
 *
 * Why: when a deserializer throws, grpc-js ends the call itself with INTERNAL and the text
 * "Error deserializing request" — wrong code (the client sent bad input, not us), no
 * ErrorInfo. Malformed input must be INVALID_ARGUMENT with an ErrorInfo on every binding.
 */
export class UndecodableRequest {
  constructor(readonly error: A2AError) {}
}

/** Wraps a request deserializer so it never throws (see {@link UndecodableRequest}). */
export function safeDeserializer<T>(deserialize: (bytes: Buffer) => T, rpc: string): (bytes: Buffer) => T | UndecodableRequest {
  return (bytes) => {
    try {
      return deserialize(bytes);
    } catch (cause) {
      return new UndecodableRequest(
        new A2AError(A2AErrorCode.ParseError, `Malformed request: the ${rpc} request message is not valid protobuf`, { cause, metadata: { rpc } }),
      );
    }
  };
}

/**
 * Copies a generated grpc-js service definition with every request deserializer made safe.
 * Paths, serializers and streaming flags stay as generated, so the wire is unchanged.
 */
export function withSafeDeserializers<S extends ServiceDefinition>(service: S): ServiceDefinition {
  const out: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [key, method] of Object.entries(service) as Array<[string, MethodDefinition<unknown, unknown>]>) {
    const rpc = method.path.slice(method.path.lastIndexOf('/') + 1);
    out[key] = { ...method, requestDeserialize: safeDeserializer(method.requestDeserialize, rpc) };
  }
  return out as ServiceDefinition;
}
