import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { ServerInterceptingCall, status as GrpcCode, type ServerInterceptingCallInterface, type ServerInterceptor } from '@grpc/grpc-js';
import { toGrpcError } from './grpc-error.js';

/**
 * grpc-js's status text (1.14) when a request message flagged compressed does not inflate
 * with the call's `grpc-encoding` (gzip or deflate). A test with a raw HTTP/2 frame pins it.
 */
const DECOMPRESSION_FAILED = 'Failed to decompress message';

/**
 * A server interceptor that answers a request message grpc-js could not decompress with
 * INVALID_ARGUMENT and our ErrorInfo (reason `PARSE_ERROR`), like any other undecodable
 * request, instead of grpc-js's bare INTERNAL: the client sent bad bytes, the server did not fail.
 *
 * Why it patches the call: grpc-js decompresses in its base call, before any interceptor or
 * handler sees the message, and ends the call itself through that call's own `sendStatus`
 * (the interceptor API's responder only sees statuses the handler sends on the way down).
 * Interceptors receive that base call, so this one (registered first, so it gets the base
 * call) wraps the call object's `sendStatus` and rewrites exactly that one status.
 */
export const decompressionFailureAsInvalidArgument: ServerInterceptor = (method, call) => {
  const send = call.sendStatus.bind(call);
  call.sendStatus = (status: Parameters<ServerInterceptingCallInterface['sendStatus']>[0]) => {
    if (status.code !== GrpcCode.INTERNAL || status.details !== DECOMPRESSION_FAILED) return send(status);
    const rpc = method.path.slice(method.path.lastIndexOf('/') + 1);
    const error = new A2AError(A2AErrorCode.ParseError, `Malformed request: the ${rpc} request message is flagged compressed but does not decompress with its grpc-encoding`, {
      metadata: { rpc },
    });
    const { code, details, metadata } = toGrpcError(error);
    send({ code, details, metadata });
  };
  return new ServerInterceptingCall(call);
};
