/**
 * The gRPC metadata keys of the A2A gRPC binding, in core because both sides use them: the
 * server (`@a2a-polyglot/grpc`) reads the request keys and writes the response ones, the
 * client (`@a2a-polyglot/client/grpc`) the reverse. Plain names, no grpc-js: gRPC metadata
 * keys are lower-case on the wire.
 */
export const GRPC_METADATA = {
  /** A2A service parameter: protocol version (`1.0`). Required on every call. */
  version: 'a2a-version',
  /** A2A service parameter: requested extensions (request) / activated extensions (response). */
  extensions: 'a2a-extensions',
  /**
   * Our extension, request metadata: the id of the agent a multi-agent gateway should route
   * the call to (see `agentRouter`). Without it, the request's `tenant` may name the agent.
   */
  agent: 'a2a-agent',
  /** Credentials, as declared by the agent card's security schemes. */
  authorization: 'authorization',
  /**
   * Our extension, request metadata of SubscribeToTask: resume after this event number
   * (the gRPC counterpart of SSE `Last-Event-ID`).
   */
  lastEventId: 'a2a-last-event-id',
  /** Our extension, initial response metadata of a stream: the number of its first event. */
  streamFirstSeq: 'a2a-stream-first-seq',
  /** Our extension, trailing metadata of a stream that ended normally: its last event number. */
  streamLastSeq: 'a2a-last-seq',
} as const;

/**
 * The binary trailer that carries the full `google.rpc.Status` of a failed call (ErrorInfo,
 * BadRequest): written by the server, read by the client.
 */
export const GRPC_STATUS_DETAILS_KEY = 'grpc-status-details-bin';
