import type { CallContext, UnaryOperation } from '@a2a-polyglot/core';
import type { sendUnaryData, ServerUnaryCall, ServiceError } from '@grpc/grpc-js';
import { unaryCallContext } from './call-context.js';
import { failure } from './failure.js';
import { extensionsMetadata } from './metadata.js';
import type { EncodedRequest } from './safe-decode.js';
import type { ServedRpc } from './served-rpc.js';

/**
 * The grpc-js handler of a unary RPC: spend the caller's address point, decode and convert
 * the request and pick the agent (in the order of `callAdmission`), call the core's operation, answer with the converted response
 * (initial metadata echoing the activated extensions) or with the failure's status.
 */
export function unaryHandler(op: UnaryOperation, rpc: ServedRpc) {
  const { route, admit, dialect, logger } = rpc;
  return (call: ServerUnaryCall<EncodedRequest, unknown>, callback: sendUnaryData<unknown>): void => {
    let ctx: CallContext | undefined;
    let release: () => void = () => undefined;
    // Charging (over budget), decoding (malformed protobuf), converting (bad v0.3 resource
    // name) and routing (unknown agent) may throw: answered like any failed call.
    Promise.resolve()
      .then(() => admit(call))
      .then(({ handler, tenant, coreRequest, addressCharged }) => {
        ({ ctx, release } = unaryCallContext(call, dialect, tenant, logger, addressCharged));
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
