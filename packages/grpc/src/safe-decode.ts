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
  return withDeserializers(service, safeDeserializer);
}

/**
 * The bytes of a request message, decoded only when the handler asks: grpc-js runs a method's
 * deserializer as soon as the message arrives, before any handler code, and the A2A services
 * first spend the caller's address point (`RequestHandler.chargeArrival`), so a caller over
 * its budget makes the server decode nothing.
 */
export class EncodedRequest {
  constructor(
    private readonly bytes: Buffer,
    private readonly deserialize: (bytes: Buffer) => unknown,
  ) {}

  /** The decoded message. @throws A2AError(ParseError) when the bytes are not that message. */
  decode(): unknown {
    const decoded = this.deserialize(this.bytes);
    if (decoded instanceof UndecodableRequest) throw decoded.error;
    return decoded;
  }
}

/**
 * Copies a generated grpc-js service definition with every request deserializer deferred: the
 * call's request is an {@link EncodedRequest}, whose `decode` is safe as {@link safeDeserializer}.
 */
export function withDeferredDeserializers<S extends ServiceDefinition>(service: S): ServiceDefinition {
  return withDeserializers(service, (deserialize, rpc) => {
    const safe = safeDeserializer(deserialize, rpc);
    return (bytes) => new EncodedRequest(bytes, safe);
  });
}

/** A copy of `service` whose request deserializers `wrap` made from the generated ones. */
function withDeserializers(
  service: ServiceDefinition,
  wrap: (deserialize: (bytes: Buffer) => unknown, rpc: string) => (bytes: Buffer) => unknown,
): ServiceDefinition {
  const out: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [key, method] of Object.entries(service) as Array<[string, MethodDefinition<unknown, unknown>]>) {
    const rpc = method.path.slice(method.path.lastIndexOf('/') + 1);
    out[key] = { ...method, requestDeserialize: wrap(method.requestDeserialize, rpc) };
  }
  return out as ServiceDefinition;
}
