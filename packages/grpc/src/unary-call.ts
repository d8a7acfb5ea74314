import type { CallContext, UnaryOperation } from '@a2a-polyglot/core';
import type { sendUnaryData, ServerUnaryCall, ServiceError } from '@grpc/grpc-js';
import { unaryCallContext } from './call-context.js';
import { failure } from './failure.js';
import { extensionsMetadata } from './metadata.js';
import type { EncodedRequest } from './safe-decode.js';
import type { ServedRpc } from './served-rpc.js';

/**
 * The grpc-js handler of a unary RPC: spend the caller's address point, decode and convert
 * the request, pick the agent, call the core's operation, answer with the converted response
 * (initial metadata echoing the activated extensions) or with the failure's status.
 */
export function unaryHandler(op: UnaryOperation, rpc: ServedRpc) {
  const { route, target, chargeArrival, dialect, logger } = rpc;
  return (call: ServerUnaryCall<EncodedRequest, unknown>, callback: sendUnaryData<unknown>): void => {
    let ctx: CallContext | undefined;
    let release: () => void = () => undefined;
    const charged = chargeArrival(call);
    // Decoding (malformed protobuf), converting (bad v0.3 resource name) and routing (unknown
    // agent) may throw: answered like any failed call.
    (charged ?? Promise.resolve())
      .then(() => {
        const coreRequest = route.toCore(call.request.decode());
        const { handler, tenant } = target(call.metadata, coreRequest);
        ({ ctx, release } = unaryCallContext(call, dialect, tenant, logger, charged !== undefined));
        return op.invoke(handler, coreRequest, ctx);
      })
      .then(
        (response) => {
          release();
          const md = extensionsMetadata(ctx?.activatedExtensions);
          if (md && !call.cancelled) call.sendMetadata(md);
          callback(null, route.fromCore(response));
        },
        (error: unknown) => {
          release();
          callback(failure(logger, error, ctx, op.name, dialect.status) as ServiceError);
        },
      );
  };
}
