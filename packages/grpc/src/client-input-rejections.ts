import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { status as GrpcCode, type ServerInterceptingCall, type ServerInterceptingCallInterface, type ServerInterceptor } from '@grpc/grpc-js';
import { toGrpcError } from './grpc-error.js';

type Status = Parameters<ServerInterceptingCallInterface['sendStatus']>[0];

/**
 * The client-input rejections grpc-js (1.14) answers itself with a bare INTERNAL, by their
 * status text, and the A2A error each one really is. Tests with raw HTTP/2 frames pin the texts.
 */
const CLIENT_INPUT_REJECTIONS: ReadonlyArray<{ readonly text: RegExp; readonly error: (rpc: string) => A2AError }> = [
  {
    // A message flagged compressed that does not inflate with the call's grpc-encoding.
    text: /^Failed to decompress message$/,
    error: (rpc) =>
      new A2AError(
        A2AErrorCode.ParseError,
        `Malformed request: the ${rpc} request message is flagged compressed but does not decompress with its grpc-encoding`,
        { metadata: { rpc } },
      ),
  },
  {
    // A grpc-timeout header that is not `<1-8 digits><H|M|S|m|u|n>`.
    text: /^Invalid grpc-timeout value /,
    error: (rpc) =>
      new A2AError(
        A2AErrorCode.InvalidRequest,
        'Malformed request: the grpc-timeout header is not a gRPC timeout (1 to 8 digits and a unit H, M, S, m, u or n)',
        {
          metadata: { rpc },
        },
      ),
  },
];

/**
 * A server interceptor that answers the bad client input grpc-js rejects on its own (a
 * message that does not decompress, a malformed `grpc-timeout`) with INVALID_ARGUMENT and our
 * ErrorInfo, like any other bad request, instead of grpc-js's bare INTERNAL: the client sent
 * bad input, the server did not fail.
 *
 * Why it patches the call: grpc-js checks these in its base call, before any interceptor or
 * handler sees the request, and ends the call itself through that call's own `sendStatus`
 * (the interceptor API's responder only sees statuses the handler sends on the way down).
 * Interceptors receive that base call, so this one (registered first, so it gets the base
 * call) wraps the call object's `sendStatus` and rewrites exactly those statuses. It returns
 * that base call itself, not a `ServerInterceptingCall` around it: the wrapper would only
 * forward, through listener layers every call pays for.
 */
export const clientInputRejectionsAsInvalidArgument: ServerInterceptor = (method, call) => {
  const send = call.sendStatus.bind(call);
  call.sendStatus = (status: Status) => {
    const rejection = status.code === GrpcCode.INTERNAL ? CLIENT_INPUT_REJECTIONS.find((r) => r.text.test(status.details ?? '')) : undefined;
    if (!rejection) return send(status);
    const { code, details, metadata } = toGrpcError(rejection.error(method.path.slice(method.path.lastIndexOf('/') + 1)));
    send({ code, details, metadata });
  };
  // (grpc-js types an interceptor's result as its class, but only calls the interface on it.)
  return call as ServerInterceptingCall;
};
