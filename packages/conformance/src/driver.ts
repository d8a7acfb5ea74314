import { A2AError, type ProtocolVersion, type RequestHandler } from '@a2a-polyglot/core';

/**
 * A failed call in binding-neutral terms: the A2A error code (ErrorInfo reason, e.g.
 * `TASK_NOT_FOUND`) a client of that binding would rebuild, the message it carried, and, for
 * diagnostics only, the message of what caused it as the driver saw it (the in-process
 * binding sees the handler's own errors, so the cause is not what a client was sent).
 */
export interface DriverError {
  readonly code: string;
  readonly message: string;
  readonly cause?: string;
}

/** A {@link DriverError} as one line for a failure report: the message, then the cause. */
export function describeDriverError(error: DriverError): string {
  return error.cause === undefined ? error.message : `${error.message} (${error.cause})`;
}

/** The answer to a unary call: the result JSON (`null` for Empty) or an error. */
export type CallResult = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: DriverError };

/**
 * One event of a stream: its sequence number (SSE `id:`; undefined for an unnumbered event,
 * i.e. the message-only stream, which cannot be resumed) and the StreamResponse JSON.
 */
export interface StreamItem {
  readonly seq: number | undefined;
  readonly event: unknown;
}

/**
 * An open stream. Iterating yields events until the server ends the stream; a mid-stream
 * error is thrown from the iterator as an {@link A2AError}. `close()` is the client cut:
 * it drops the connection at once, even while a read is pending (the iterator then ends).
 */
export interface DriverStream extends AsyncIterable<StreamItem> {
  close(): void;
}

/** The answer to opening a stream: the stream, or a pre-stream error. */
export type OpenResult = { readonly ok: true; readonly stream: DriverStream } | { readonly ok: false; readonly error: DriverError };

/** Per-call options. */
export interface CallOptions {
  /**
   * Service parameters / headers to set on top of the defaults (`A2A-Version: 1.0`); a
   * `null` value removes a default (e.g. `{"A2A-Version": null}` to omit the version).
   */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** Resume a SubscribeToTask after this sequence number (SSE `Last-Event-ID`). */
  readonly resumeAfterSeq?: number;
}

/**
 * Bad input that cannot be expressed as a request message:
 * - `unknown-method`: an operation that does not exist (JSON-RPC method name, REST path, ...).
 * - `malformed-json`: a SendMessage whose body is not valid JSON.
 */
export type ProbeKind = 'unknown-method' | 'malformed-json';

/** Every probe kind (validation of scenario files). */
export const PROBE_KINDS: readonly ProbeKind[] = ['unknown-method', 'malformed-json'];

/**
 * How the conformance runner talks to one binding. Operations are named as in the spec
 * (`SendMessage`, `GetTask`, ...) and requests are the ProtoJSON of the proto request
 * message; each driver turns that into its own wire form and back. Drivers only translate:
 * no retries, no fixing up, so whatever the binding does is what the comparator sees.
 */
export interface Driver {
  /** The binding's name as used in test names (`jsonrpc`, `rest`, ...). */
  readonly binding: string;
  /** A request → response operation. */
  call(operation: string, request: unknown, options?: CallOptions): Promise<CallResult>;
  /** A streaming operation (`SendStreamingMessage`, `SubscribeToTask`). */
  open(operation: string, request: unknown, options?: CallOptions): Promise<OpenResult>;
  /** Sends bad input of the given kind. */
  probe(kind: ProbeKind): Promise<CallResult>;
  /** Agent card discovery (`/.well-known/agent-card.json` on HTTP bindings). */
  agentCard(): Promise<CallResult>;
  /** Stops whatever {@link Binding.start} started. */
  close(): Promise<void>;
}

/**
 * A binding under test: starts a fresh server for one handler and returns a driver talking
 * to it. Adding a binding to the suite = one driver file exporting one of these, plus one
 * line in {@link BINDINGS}.
 */
export interface Binding {
  readonly name: string;
  /** How this binding's requests travel; default `json`. Scenarios may be limited to one (see {@link RequestEncoding}). */
  readonly requestEncoding?: RequestEncoding;
  /** The A2A generation the binding speaks; default `1.0`. Scenarios may need one (`protocolVersion`). */
  readonly protocolVersion?: ProtocolVersion;
  start(handler: RequestHandler): Promise<Driver>;
}

/**
 * How a binding's requests travel: as JSON text (JSON-RPC, REST, WebSocket, in-process) or as
 * protobuf messages (gRPC). Some bad input exists in only one of them: a JSON member that no
 * proto field has cannot be put into a protobuf message at all (and unknown field numbers,
 * the protobuf counterpart, are skipped by protobuf parsers by design). A scenario about such
 * input names the encoding it needs (`requestEncoding` in the scenario file) and is skipped,
 * visibly, on bindings of the other one.
 */
export type RequestEncoding = 'json' | 'protobuf';

/** Every request encoding (validation of scenario files). */
export const REQUEST_ENCODINGS: readonly RequestEncoding[] = ['json', 'protobuf'];

/**
 * Thrown by a driver (typically from a stream iterator) when the binding's answer carries no
 * A2A error but is still wrong on the wire; `code` says what kind of wrong.
 */
export class DriverFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DriverFailure';
  }
}

/** Maps anything thrown into a {@link DriverError} the way a client of any binding would see it. */
export function toDriverError(error: unknown): DriverError {
  if (error instanceof DriverFailure) return { code: error.code, message: error.message };
  const e = A2AError.from(error);
  return { code: e.code, message: e.message, ...(e.cause instanceof Error && { cause: e.cause.message }) };
}

/** Shorthand for a failed {@link CallResult}. */
export function failed(error: unknown): { ok: false; error: DriverError } {
  return { ok: false, error: toDriverError(error) };
}

/**
 * Merges per-call headers over the defaults every A2A v1.0 client sends; `null` removes.
 * @internal
 */
export function mergeHeaders(defaults: Record<string, string>, overrides: CallOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(defaults)) {
    out[k] = v;
    lower.set(k.toLowerCase(), k);
  }
  for (const [k, v] of Object.entries(overrides ?? {})) {
    const existing = lower.get(k.toLowerCase());
    if (existing !== undefined) delete out[existing];
    if (v !== null) {
      out[k] = v;
      lower.set(k.toLowerCase(), k);
    }
  }
  return out;
}

/** The headers an A2A v1.0 client sends on every call. */
export const DEFAULT_HEADERS: Readonly<Record<string, string>> = { 'A2A-Version': '1.0' };

/**
 * Waits for a stream's first item (or its end or failure) and hands the stream over with
 * that item still to be read; a failure before any event is a refused stream. For bindings
 * that only learn from the first read whether a stream was refused (gRPC, v0.3 JSON-RPC).
 * @internal
 */
export async function opened(stream: DriverStream): Promise<OpenResult> {
  const iterator = stream[Symbol.asyncIterator]();
  let first: IteratorResult<StreamItem>;
  try {
    first = await iterator.next();
  } catch (error) {
    stream.close();
    return failed(error);
  }
  return {
    ok: true,
    stream: {
      close: () => stream.close(),
      async *[Symbol.asyncIterator]() {
        if (first.done) return;
        yield first.value;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      },
    },
  };
}
