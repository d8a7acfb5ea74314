import { setMaxListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * An AbortSignal that fires when the client goes away before the response finished.
 *
 * Why the response's `close` and not the request's: the request emits `close` as soon as its
 * body was read, which says nothing about the client. The response closes early (before
 * `finish`) exactly when the connection dropped, and the core uses the signal to stop
 * waiting on a blocking SendMessage or to release a stream.
 */
export function requestAbortSignal(req: IncomingMessage, res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) controller.abort();
  };
  if (res.destroyed || req.socket?.destroyed) onClose();
  else res.once('close', onClose);
  return controller.signal;
}

/** {@link lazyRequestSignal}: the signal on demand, and a way to let go of the request. */
export interface LazyRequestSignal {
  (): AbortSignal;
  /**
   * The call is answered: drop the references to the request and response. A call context
   * that outlives its call for a while (until the next full garbage collection) then no
   * longer keeps the whole request, response and socket buffers alive with it.
   */
  release(): void;
}

/**
 * {@link requestAbortSignal}, made on the first call and the same signal on every later call.
 * Most calls are answered before anything listens for the client going away; they then cost
 * no AbortController and no `close` listener. Asked for after {@link LazyRequestSignal.release},
 * it gives a signal that never aborts (the call is over).
 */
export function lazyRequestSignal(req: IncomingMessage, res: ServerResponse): LazyRequestSignal {
  let signal: AbortSignal | undefined;
  let source: { req: IncomingMessage; res: ServerResponse } | undefined = { req, res };
  const get = (() => (signal ??= source ? requestAbortSignal(source.req, source.res) : new AbortController().signal)) as LazyRequestSignal;
  get.release = () => {
    source = undefined;
  };
  return get;
}

/** A signal that aborts when any source does, and a way to detach it from the sources. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Removes the listeners from the sources; call when the work the signal guards is over. */
  dispose(): void;
}

/**
 * Links a per-request signal with a long-lived one (server shutdown). Unlike
 * `AbortSignal.any`, the link is removed explicitly, so thousands of finished streams leave
 * no listeners behind on the long-lived signal.
 */
export function linkSignals(...sources: ReadonlyArray<AbortSignal | undefined>): LinkedSignal {
  const controller = new AbortController();
  const present = sources.filter((s): s is AbortSignal => s !== undefined);
  // A long-lived source (server shutdown) holds one listener per open stream, legitimately:
  // lift Node's leak warning (10 listeners) for it.
  for (const s of present) allowManyListeners(s);
  const abort = () => controller.abort();
  const dispose = () => {
    for (const s of present) s.removeEventListener('abort', abort);
  };
  for (const s of present) {
    if (s.aborted) {
      abort();
      break;
    }
    s.addEventListener('abort', abort, { once: true });
  }
  if (controller.signal.aborted) dispose();
  return { signal: controller.signal, dispose };
}

/** Signals whose listener limit is already lifted (getMaxListeners throws on those in Node 20). */
const lifted = new WeakSet<AbortSignal>();

/**
 * Lifts Node's listener-leak warning (more than 10 listeners) for a long-lived signal, such as
 * a server's shutdown signal, which legitimately holds one listener per open stream.
 */
export function allowManyListeners(signal: AbortSignal): void {
  if (lifted.has(signal)) return;
  lifted.add(signal);
  try {
    setMaxListeners(0, signal);
  } catch {
    // A signal of another realm (a test sandbox) is not an EventTarget to node:events.
  }
}
