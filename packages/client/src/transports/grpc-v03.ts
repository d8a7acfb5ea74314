import type { StreamResponse } from '@a2a-polyglot/model';
import { V03A2AServiceService } from '@a2a-polyglot/model/grpc';
import type * as v03 from '@a2a-polyglot/model/v03';
import { streamResponseToV1, v03Operation, type V03Operation } from '@a2a-polyglot/v03/proto';
import type { OperationName } from '@a2a-polyglot/core';
import type { GrpcDialect } from './grpc-dialect.js';
import type { GrpcEventStream, GrpcMethod } from './grpc-service-client.js';
import { notInV03 } from './v03.js';

/**
 * The v0.3 form of an operation and its method on `a2a.v1.A2AService`, whose request is what
 * `form.toV03` builds and whose answer is `Answer` (what `form.toV1` reads for a unary RPC, a
 * v0.3 StreamResponse for a stream).
 */
function v03Rpc<Answer>(operation: OperationName): { form: V03Operation; method: GrpcMethod<unknown, Answer> } {
  const form = v03Operation(operation);
  if (!form) throw notInV03(operation);
  const key = `${form.rpc.charAt(0).toLowerCase()}${form.rpc.slice(1)}` as keyof typeof V03A2AServiceService;
  return { form, method: V03A2AServiceService[key] as unknown as GrpcMethod<unknown, Answer> };
}

/**
 * A2A v0.3 over gRPC (spec §12.6, §0 item 15), for v0.3 servers: the `a2a.v1.A2AService` RPCs
 * (`TaskSubscription` for SubscribeToTask, `GetAgentCard` for the extended card), requests and
 * answers translated by the `@a2a-polyglot/v03/proto` converters (SendMessage carries
 * `blocking` explicitly), no `a2a-version` metadata. Errors are read like v1.0's: the status
 * code, and the ErrorInfo details when the server sends them.
 */
export const V03_GRPC: GrpcDialect = {
  versionMetadata: false,
  async unary(client, operation, request, options) {
    const { form, method } = v03Rpc<unknown>(operation);
    return form.toV1(await client.callUnary(method, form.toV03(request), options));
  },
  stream(client, operation, request, options) {
    const { form, method } = v03Rpc<v03.StreamResponse>(operation);
    const events: GrpcEventStream<v03.StreamResponse> = client.callStream(method, form.toV03(request), options);
    return {
      cancel: () => events.cancel(),
      get lastSeq() {
        return events.lastSeq;
      },
      get activatedExtensions() {
        return events.activatedExtensions;
      },
      async *[Symbol.asyncIterator]() {
        for await (const { seq, event } of events) yield { seq, event: streamResponseToV1(event) as StreamResponse };
      },
    };
  },
};
