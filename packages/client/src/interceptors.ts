import type { A2AError, OperationName } from '@a2a-polyglot/core';
import type { BindingKey } from './bindings.js';

/** One call as interceptors see it. `before` may change `headers` and replace `request`. */
export interface CallInfo {
  readonly operation: OperationName;
  readonly binding: BindingKey;
  /** The interface URL the call goes to. */
  readonly url: string;
  /** The request message (proto type of the operation). */
  request: unknown;
  /** Headers / metadata of this call; add credentials, extensions, tracing here. */
  readonly headers: Record<string, string>;
}

/** How a call ended, for `after`. Streams report when the underlying stream ends. */
export interface CallOutcome {
  /** The response message of a unary call (undefined for streams and Empty). */
  readonly result?: unknown;
  readonly error?: A2AError;
  readonly durationMs: number;
}

/**
 * Runs around every call the client makes, retries and resubscribes included (each is a
 * call of its own, so a refreshed token is picked up). Interceptors run in order for
 * `before`, in reverse order for `after`. An error thrown by `before` fails the call.
 */
export interface Interceptor {
  before?(call: CallInfo): void | Promise<void>;
  after?(call: CallInfo, outcome: CallOutcome): void | Promise<void>;
}
