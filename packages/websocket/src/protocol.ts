/**
 * The wire vocabulary of the A2A WebSocket binding: names, close codes and frame shapes.
 * Everything here is plain data so the README, the server and any client agree on one list.
 * (The browser client keeps its own copy of the few constants it needs, to stay free of
 * Node dependencies; a client test checks both copies are equal.)
 */

/**
 * The WebSocket subprotocol a client MUST offer in `Sec-WebSocket-Protocol` and the server
 * selects: JSON-RPC 2.0 objects in text frames, A2A v1 method names (a2aproject/A2A#1864).
 */
export const SUBPROTOCOL = 'a2a.v1';

/**
 * Prefix of the credential subprotocol `a2a.auth.<base64url(token)>`: how a browser, which
 * cannot set headers on a WebSocket, presents a bearer token at upgrade. The server never
 * selects it; it becomes `Authorization: Bearer <token>` for every call on the socket.
 */
export const AUTH_SUBPROTOCOL_PREFIX = 'a2a.auth.';

/**
 * `AgentInterface.protocolBinding` of this binding in agent cards. Custom bindings SHOULD be
 * identified by a URI (spec §2); a breaking change to the frames gets a new URI.
 */
export const WEBSOCKET_BINDING_URI = 'urn:a2a-polyglot:binding:websocket:v1';

/** Default upgrade path, relative to the server's `basePath` (`/a2a` → `/a2a/ws`). */
export const DEFAULT_WEBSOCKET_SUBPATH = '/ws';

/** WebSocket close codes this binding sends, and why. */
export const CloseCode = {
  /** The client asked to close, or the server closed an idle socket cleanly. */
  Normal: 1000,
  /** The server is shutting down; reconnect (to another instance) and resume. */
  GoingAway: 1001,
  /** A binary frame arrived: this binding only speaks JSON text frames. */
  UnsupportedData: 1003,
  /** A text frame was not valid UTF-8 (sent by the `ws` library itself). */
  InvalidPayload: 1007,
  /** The client sent messages faster than the per-socket rate limit allows. */
  PolicyViolation: 1008,
  /** A frame exceeded `maxPayload` (sent by the `ws` library itself). */
  MessageTooBig: 1009,
  /** An unexpected server failure on this socket (other sockets are unaffected). */
  InternalError: 1011,
  /**
   * The client did not read: the send buffer stayed above the high-water mark for longer
   * than `stallTimeoutMs`. Reconnect and resume from the last seq seen.
   */
  TryAgainLater: 1013,
} as const;

/** Why a stream ended, as carried by its `streamEnd` frame. */
export type StreamEndReason =
  /** The stream ran to its end: the task settled (terminal or interrupted) or the one Message was sent. */
  | 'done'
  /** The client sent `cancelStream`; delivery stopped, the task goes on. */
  | 'canceled'
  /** The server is shutting down; resubscribe (with `resumeAfterSeq`) elsewhere or later. */
  | 'shutdown';

/**
 * The first frame of every stream: the pre-stream checks passed (credentials, version, task
 * found, resume point accepted) and events follow. It plays the part of the HTTP response
 * headers (SSE) and gRPC response metadata: a client can tell a refused stream (an error
 * response instead) from an open one that has nothing to say yet, and bound the opening.
 */
export interface StreamStartFrame {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly streamStart: true;
  /** Response service parameters; today `A2A-Extensions` when extensions were activated. */
  readonly serviceParams?: Readonly<Record<string, string>>;
}

/**
 * The last frame of a stream that did not fail (a failed stream ends with a JSON-RPC error
 * response carrying the same id instead). Not a JSON-RPC response: a binding control frame.
 */
export interface StreamEndFrame {
  readonly jsonrpc: '2.0';
  /** The id of the request that opened the stream. */
  readonly id: string | number | null;
  readonly streamEnd: true;
  readonly reason: StreamEndReason;
  /** The last task state this stream carried (`TASK_STATE_COMPLETED`, ...); absent for a message-only stream. */
  readonly state?: string;
  /** Seq of the last event delivered; resume after it with `resumeAfterSeq`. Absent when none was numbered. */
  readonly lastSeq?: number;
}

/** A client's request to stop delivery of one of its streams (the task is not canceled). */
export interface CancelStreamFrame {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly cancelStream: true;
}
