import type { CallContext, EventStream } from '@a2a-polyglot/core';
import type { TaskState } from '@a2a-polyglot/model';
import type { GrpcPeer } from '../peer.js';
import { NO_STATE } from './frames.js';

/** Abort reason of an operation that ended (its answer is written, or the session went away). */
const OPERATION_ENDED = Object.freeze({ reason: 'session operation ended' });

/** One open operation of a session. */
export interface OpenOperation {
  readonly id: string;
  /** Aborts when the operation ends; made when the core first reads the context's signal. */
  controller?: AbortController;
  stream?: EventStream;
  /** The client asked to stop this stream (possibly before it was open). */
  unsubscribed: boolean;
  /** Its last frame (result / end / error) is written, or the session is going away. */
  finished: boolean;
  lastSeq: number;
  lastState: TaskState;
}

/** A just-opened operation with correlation id `id`: nothing sent, no state yet. */
export function openOperation(id: string): OpenOperation {
  return { id, controller: undefined, unsubscribed: false, finished: false, lastSeq: 0, lastState: NO_STATE };
}

/**
 * The CallContext of one session operation. Every operation of a session shares the header
 * lookup and the peer (they carry the same service parameters); the signal is the
 * operation's own, made only when the core reads it. `tenant`: the tenant the routed agent
 * sees when the router consumed the request's (see `RoutedCall.tenant`).
 */
export function operationContext(op: OpenOperation, header: CallContext['header'], peer: GrpcPeer, tenant: string | undefined): CallContext {
  return {
    binding: 'SESSION',
    header,
    ...(tenant === undefined ? {} : { pathTenant: tenant }),
    ...peer,
    get signal(): AbortSignal {
      op.controller ??= new AbortController();
      return op.controller.signal;
    },
  };
}

/** Stops what an operation holds: aborts its signal and closes its event stream (the task keeps running). */
export function releaseOperation(op: OpenOperation): void {
  // A reason, so no DOMException (with its stack trace) is built for every operation.
  op.controller?.abort(OPERATION_ENDED);
  op.stream?.close();
}
