import { callContext, type CallContext, type Logger } from '@a2a-polyglot/core';
import type { ServerUnaryCall, ServerWritableStream } from '@grpc/grpc-js';
import { metadataHeaders } from './metadata.js';
import { grpcPeer } from './peer.js';
import type { GrpcDialect } from './grpc-dialect.js';

/**
 * Builds the CallContext of one server-streaming call from its metadata, aborting when the
 * call ends early (`addressCharged`: the call's address point is spent, see `CallContext.addressCharged`).
 */
export function streamCallContext(
  call: ServerWritableStream<unknown, unknown>,
  signal: AbortSignal,
  dialect: GrpcDialect,
  tenant: string | undefined,
  logger: Logger,
  addressCharged: boolean,
): CallContext {
  return callContext('GRPC', metadataHeaders(call.metadata), {
    signal,
    wireVersion: dialect.wireVersion,
    pathTenant: tenant,
    logger,
    addressCharged,
    ...grpcPeer(call),
  });
}

/**
 * The CallContext of a unary call (`addressCharged`: the call's address point is spent, see
 * `CallContext.addressCharged`). Its signal (client cancel or deadline: the core stops
 * waiting; a running task is not canceled unless the handler runs with background execution
 * off) is made when the core first reads it: most calls
 * are answered before anything waits, and then cost no AbortController.
 */
export function unaryCallContext(
  call: ServerUnaryCall<unknown, unknown>,
  dialect: GrpcDialect,
  tenant: string | undefined,
  logger: Logger,
  addressCharged: boolean,
): { ctx: CallContext; release: () => void } {
  const ctx = callContext('GRPC', metadataHeaders(call.metadata), {
    wireVersion: dialect.wireVersion,
    pathTenant: tenant,
    logger,
    addressCharged,
    ...grpcPeer(call),
  });
  let controller: AbortController | undefined;
  // Dropped once the call is answered: a context that outlives its call until the next full
  // GC must not keep the call (request, metadata, stream) alive with it.
  let source: ServerUnaryCall<unknown, unknown> | undefined = call;
  const onCancelled = () => controller?.abort();
  Object.defineProperty(ctx, 'signal', {
    enumerable: true,
    get(): AbortSignal {
      if (!controller) {
        controller = new AbortController();
        if (source?.cancelled) controller.abort();
        else source?.once('cancelled', onCancelled);
      }
      return controller.signal;
    },
  });
  // grpc-js emits `cancelled` after every call's status, answered ones too: once answered,
  // the call is not listened to any more, so an answered call's signal is not aborted (an
  // abort without a reason builds a DOMException: 3 % of a gRPC server's CPU, profiled).
  const release = () => {
    source?.off('cancelled', onCancelled);
    source = undefined;
  };
  return { ctx, release };
}
