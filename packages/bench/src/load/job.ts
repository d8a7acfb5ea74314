import type { LatencySummary } from '../stats.js';
import type { LoopTiming } from './closed-loop.js';

/**
 * Placeholder in request templates, replaced per operation by 12 digits (slot and counter)
 * so every request carries a unique message id at the cost of one small write.
 */
export const ID_PLACEHOLDER = '############';

/** How a response is checked (once per job, on its first completed operation). */
export interface CheckSpec {
  /** jsonrpc / rest: A2A JSON; grpc-a2a: A2A protobuf; grpc-session: SessionResponse frames; raw: a ceiling (only counted). */
  readonly kind: 'jsonrpc' | 'rest' | 'grpc-a2a' | 'grpc-session' | 'raw';
  readonly expect: 'message' | 'task' | 'stream';
  /** Events a stream should carry (K + 3). */
  readonly events?: number;
}

/** One kind of request, fully prepared by the orchestrator. */
export interface RequestSpec {
  readonly protocol: 'http' | 'grpc' | 'grpc-session' | 'ws';
  readonly shape: 'unary' | 'stream';
  readonly host: string;
  readonly port: number;
  /** HTTP: the whole request (request line, headers, body) with {@link ID_PLACEHOLDER}. */
  readonly http?: string;
  /**
   * gRPC: method path, metadata, and the serialized request (base64) with the placeholder.
   * `grpc-session`: the path of the Session call and one serialized SessionRequest whose
   * correlation id and message id are both the placeholder.
   */
  readonly grpc?: { readonly path: string; readonly metadata: Readonly<Record<string, string>>; readonly messageB64: string };
  /**
   * WebSocket: the text frame to send. `framing: 'count'` (raw ceiling): the answer is
   * `expectMessages` messages. `framing: 'a2a'` (our WebSocket binding): the answer is one
   * JSON-RPC response (unary), or `streamStart`, events, then `streamEnd` or an error.
   */
  readonly ws?: {
    readonly text: string;
    readonly expectMessages: number;
    readonly framing: 'count' | 'a2a';
    /** Upgrade path with query, default `/`. */
    readonly path?: string;
    readonly subprotocols?: readonly string[];
  };
  readonly check: CheckSpec;
}

/** A closed-loop measurement; `progressEveryMs` also emits `progress` events (sustained run). */
export interface LoadJob extends LoopTiming {
  readonly request: RequestSpec;
  /** Connections (HTTP, ws) or calls in flight on one HTTP/2 connection (gRPC). */
  readonly concurrency: number;
  /** Server process whose CPU time is read from /proc over the window. */
  readonly serverPid: number;
  readonly clkTck: number;
}

/** What a {@link LoadJob} measured. */
export interface LoadResult {
  readonly ops: number;
  readonly errors: number;
  readonly events: number;
  readonly windowMs: number;
  readonly latency: LatencySummary;
  readonly ttfe: LatencySummary;
  readonly eventsMin: number;
  readonly eventsMax: number;
  /** Server CPU time (user + system) over the window, µs; undefined without /proc. */
  readonly serverCpuUs?: number;
  readonly warmupErrors: number;
  readonly firstError?: string;
  readonly abandoned: number;
  /** 'ok', or what was wrong with the checked response. */
  readonly check: string;
}

/** Open many idle streams and hold them. */
export interface IdleJob {
  readonly request: RequestSpec;
  readonly streams: number;
  /** Streams being opened at once. */
  readonly openConcurrency: number;
  readonly timeoutMs: number;
}

/** What opening idle streams achieved. */
export interface IdleResult {
  readonly opened: number;
  readonly failed: number;
  readonly ms: number;
  /** HTTP/2 connections used (gRPC). */
  readonly connections: number;
  readonly firstError?: string;
}

/** The gRPC part of a request, or a clear error when the orchestrator prepared none for a gRPC protocol. */
export function grpcPartOf(spec: RequestSpec): NonNullable<RequestSpec['grpc']> {
  if (!spec.grpc) throw new Error(`a ${spec.protocol} request needs its gRPC part (path, metadata, message)`);
  return spec.grpc;
}

/** The WebSocket part of a request, or a clear error when the orchestrator prepared none for a ws protocol. */
export function wsPartOf(spec: RequestSpec): NonNullable<RequestSpec['ws']> {
  if (!spec.ws) throw new Error(`a ${spec.protocol} request needs its WebSocket part (text, framing)`);
  return spec.ws;
}

/** The HTTP request text, or a clear error when the orchestrator prepared none for an http protocol. */
export function httpPartOf(spec: RequestSpec): string {
  if (spec.http === undefined) throw new Error(`a ${spec.protocol} request needs its HTTP request text`);
  return spec.http;
}
