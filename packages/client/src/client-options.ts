import type { Credential } from './auth.js';
import type { BindingKey } from './bindings.js';
import type { CardVerification } from './card-verification.js';
import type { Interceptor } from './interceptors.js';
import type { RetryPolicy } from './retry.js';
import type { ResumeInfo } from './task-stream.js';
import type { CallOptions, TransportFactory } from './transport.js';

/** Options of {@link Client}. */
export interface ClientOptions {
  /**
   * Bindings the client may use, e.g. `['rest']` to force one. Default: every binding that
   * has a transport factory. The card's order decides among the allowed ones.
   */
  readonly bindings?: readonly BindingKey[];
  /**
   * Extra transport factories by `protocolBinding` identifier, merged over the built-in ones
   * (JSON-RPC, REST, and WebSocket where a global `WebSocket` exists). gRPC:
   * `@a2a-polyglot/client/grpc`; WebSocket on Node < 22: `webSocketTransportFactory({ WebSocket })`
   * with the `ws` package.
   */
  readonly transports?: Readonly<Record<string, TransportFactory>>;
  /** The fetch of the HTTP bindings and card resolution (default: global fetch). */
  readonly fetch?: typeof fetch;
  /** Headers sent on every call and on the card GET. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Shorthand for `bearerAuth`. */
  readonly bearerToken?: Credential;
  /** Shorthand for `apiKeyAuth`; the header defaults to `X-API-Key`. */
  readonly apiKey?: Credential;
  readonly apiKeyHeader?: string;
  /** Extensions to activate (`A2A-Extensions`). */
  readonly extensions?: readonly string[];
  /** Run around every call (after the auth shorthands). */
  readonly interceptors?: readonly Interceptor[];
  /** Default deadline of a unary call / of opening a stream, in ms. Default: none. */
  readonly timeoutMs?: number;
  /** Default longest silence of an open stream before it counts as cut. Default: none. */
  readonly idleTimeoutMs?: number;
  /** Retries of safe reads; never applied to SendMessage (unless {@link retrySends}), CancelTask or push-config writes. */
  readonly retry?: Partial<RetryPolicy>;
  /**
   * Retry SendMessage like a safe read (same {@link retry} policy, transient failures only),
   * every attempt carrying the same `messageId` (one is filled in when the request has none).
   * For servers with idempotent sends (A2A Polyglot's `idempotencyWindowMs`), which answer a
   * repeated messageId with the first send's task instead of running it again. Default false:
   * a server without them would run a retried send twice.
   */
  readonly retrySends?: boolean;
  /** Resubscribes of a cut stream; `false` disables resuming. */
  readonly resume?: Partial<RetryPolicy> | false;
  /**
   * Require agent cards signed by one of these keys (spec §8 signatures): the card `connect`
   * resolves and every extended card `getExtendedAgentCard` returns. A card whose signature
   * does not verify is refused with `clientFailure: 'bad-card-signature'`. Default: not checked.
   */
  readonly verifyCard?: CardVerification;
}

/** Per-call options of the client's methods. */
export interface RequestOptions extends CallOptions {
  /** Longest silence of an open stream (streams only). */
  readonly idleTimeoutMs?: number;
  /** Called before each automatic resubscribe (streams only). */
  readonly onResume?: (info: ResumeInfo) => void;
}

/** Options of {@link Client.connect}: the client's, plus the card lookup's. */
export interface ConnectOptions extends ClientOptions {
  /** Deadline of each card GET (default: `timeoutMs`). */
  readonly cardTimeoutMs?: number;
  readonly signal?: AbortSignal;
}
