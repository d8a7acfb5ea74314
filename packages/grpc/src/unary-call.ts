import type { CallContext, UnaryOperation } from '@a2a-polyglot/core';
import type { sendUnaryData, ServerUnaryCall, ServiceError } from '@grpc/grpc-js';
import { unaryCallContext } from './call-context.js';
import { failure } from './failure.js';
import { extensionsMetadata } from './metadata.js';
import { UndecodableRequest } from './safe-decode.js';
import type { ServedRpc } from './served-rpc.js';

/**
 * The grpc-js handler of a unary RPC: convert the decoded request, pick the agent, call the
 * core's operation, answer with the converted response (initial metadata echoing the
 * activated extensions) or with the failure's status.
 */
export function unaryHandler(op: UnaryOperation, rpc: ServedRpc) {
  const { route, target, wire, logger } = rpc;
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>): void => {
    const request = call.request;
    if (request instanceof UndecodableRequest) {
      callback(failure(logger, request.error, undefined, op.name, wire.status) as ServiceError);
      return;
    }
    let ctx: CallContext | undefined;
    let release: () => void = () => undefined;
    // Converting (bad v0.3 resource name) and routing (unknown agent) may throw: answered like any failed call.
    Promise.resolve()
      .then(() => {
        const coreRequest = route.toCore(request);
        const { handler, tenant } = target(call.metadata, coreRequest);
        ({ ctx, release } = unaryCallContext(call, wire, tenant, logger));
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
          callback(failure(logger, error, ctx, op.name, wire.status) as ServiceError);
        },
      );
  };
}
