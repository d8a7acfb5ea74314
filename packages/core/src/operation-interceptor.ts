/**
 * The operation interceptor seam: code that stands between a binding and the handler for
 * some operations — answering a call itself, rewriting its request, or wrapping its answer —
 * without subclassing the handler. Interceptors are given to the handler
 * (`RequestHandlerOptions.interceptors`); the OPERATIONS table runs them around every call it
 * dispatches, inside the observer (so metrics and traces see what the interceptor answered),
 * the way connect-es runs its interceptors around a procedure. The executor's A2A-Lite tag
 * routing is one; tests fake a stream or a failure with one.
 */
import type { CallContext } from './call-context.js';
import type { OperationHandler } from './operation-handler.js';
import type { OperationName, OperationRequest, OperationResult } from './operation-types.js';

/** One call as an interceptor sees it. */
export interface OperationCall<N extends OperationName = OperationName> {
  readonly operation: N;
  readonly request: OperationRequest<N>;
  readonly ctx: CallContext;
  /** SubscribeToTask's resume cursor (SSE Last-Event-ID, the resume field of gRPC and WebSocket). */
  readonly resumeAfterSeq?: number;
  /**
   * The handler the call reached. An interceptor may call its methods directly (GetTask,
   * CancelTask, the caller's preamble): such calls do not pass through interceptors again.
   */
  readonly handler: OperationHandler;
}

/**
 * A handler as the OPERATIONS table dispatches to it: the operations, and the interceptors
 * the handler was given ({@link RequestHandler} exposes its options' list). Optional, so any
 * {@link OperationHandler} is one.
 */
export type InterceptedHandler = OperationHandler & { readonly interceptors?: readonly OperationInterceptor[] };

/** The rest of the chain: the next interceptor, and at the end the handler's method. */
export type OperationNext<N extends OperationName = OperationName> = (call: OperationCall<N>) => Promise<OperationResult<N>>;

/**
 * Wraps calls: given the next step, returns the step that runs instead. It sees every
 * operation; {@link interceptOperation} narrows one to a single operation with its types.
 */
export type OperationInterceptor = (next: OperationNext) => OperationNext;

/**
 * An interceptor for operation `name` only, typed by it; every other operation passes
 * straight through.
 */
export function interceptOperation<N extends OperationName>(
  name: N,
  intercept: (call: OperationCall<N>, next: OperationNext<N>) => Promise<OperationResult<N>>,
): OperationInterceptor {
  return (next) => (call) => (call.operation === name ? intercept(call as OperationCall<N>, next as OperationNext<N>) : next(call));
}

/**
 * Runs `call` through `interceptors` (first given is outermost) and then `last`. Without
 * interceptors it is `last(call)`: the table pays one length check per call.
 */
export function runIntercepted<N extends OperationName>(
  interceptors: readonly OperationInterceptor[] | undefined,
  call: OperationCall<N>,
  last: OperationNext<N>,
): Promise<OperationResult<N>> {
  if (!interceptors || interceptors.length === 0) return last(call);
  let next = last as OperationNext;
  for (const intercept of [...interceptors].reverse()) next = intercept(next);
  return next(call) as Promise<OperationResult<N>>;
}
