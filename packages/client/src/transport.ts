import type { AgentInterface, StreamResponse } from '@a2a-polyglot/model';
import type { BindingName, StreamOperation, UnaryOperation } from '@a2a-polyglot/core';

/** Per-call options every transport honours. */
export interface CallOptions {
  /** Aborts the call (and, for streams, stops delivery; the task itself is not canceled). */
  readonly signal?: AbortSignal;
  /**
   * Gives up after this many milliseconds with A2AError(DeadlineExceeded). For a unary call
   * it bounds the whole call; for a stream, the time until the stream is open (headers in).
   */
  readonly timeoutMs?: number;
  /** Extra service parameters / headers / metadata (auth, A2A-Extensions, ...). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Options of a streaming call. */
export interface StreamOptions extends CallOptions {
  /** Resume: deliver only events after this sequence number (SSE Last-Event-ID and equivalents). */
  readonly resumeAfterSeq?: number;
  /**
   * Longest silence tolerated on an open stream (any bytes count, heartbeats included).
   * When it passes, the transport ends the stream with A2AError(DeadlineExceeded) whose
   * `metadata.clientFailure` is `idle`, which the client treats as a cut and resumes.
   * Transports that cannot observe liveness may ignore it.
   */
  readonly idleTimeoutMs?: number;
}

/** One event as a client receives it: the StreamResponse and, when the server numbers events, its seq. */
export interface ClientEvent {
  readonly seq: number | undefined;
  readonly event: StreamResponse;
}

/**
 * One wire, client side. A transport only encodes a request, moves bytes and decodes the
 * answer or the error (always rethrown as core's A2AError); everything else — card
 * resolution, binding choice, retries, resubscribe — lives above it, once, in the client.
 * Operations come from core's OPERATIONS table, so client and server share codecs and names.
 */
export interface Transport {
  readonly binding: BindingName;
  unary<Req, Res>(op: UnaryOperation<Req, Res>, request: Req, options?: CallOptions): Promise<Res>;
  /** Opens a stream; pre-stream errors reject the first `next()` (or the iteration). Breaking out of the loop closes it. */
  stream<Req>(op: StreamOperation<Req>, request: Req, options?: StreamOptions): AsyncIterable<ClientEvent>;
  close(): Promise<void>;
}

/** What a {@link TransportFactory} gets: the interface chosen from the card, and shared plumbing. */
export interface TransportInit {
  /** The selected card entry: its `url` is used as is; its `tenant` is applied by the client. */
  readonly agentInterface: AgentInterface;
  /** The fetch to use (HTTP bindings). Default: the global fetch. */
  readonly fetch?: typeof fetch;
}

/**
 * Builds a transport for one card interface. The client keeps one factory per
 * `protocolBinding` identifier (see bindings.ts), so a new wire plugs in without touching
 * the client: `new Client(card, { transports: { [MY_BINDING]: myFactory } })`.
 */
export type TransportFactory = (init: TransportInit) => Transport;
