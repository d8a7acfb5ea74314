import { A2AError, A2AErrorCode, type StreamOperation, type UnaryOperation } from '@a2a-polyglot/core';
import { aborted, clientError, timedOut, unreachable } from '../failures.js';
import { isV03Interface } from '../select-interface.js';
import type { CallOptions, ClientEvent, StreamOptions, Transport, TransportFactory } from '../transport.js';
import type { GrpcCallOptions, GrpcClientOptions } from './grpc-channel.js';
import { type GrpcDialect, V1_GRPC } from './grpc-dialect.js';
import { GrpcTransport as GrpcClient } from './grpc-service-client.js';
import { V03_GRPC } from './grpc-v03.js';

export { type GrpcDialect, V1_GRPC } from './grpc-dialect.js';

/** grpc-js's texts for "nothing is listening there" (its UNAVAILABLE carries no ErrorInfo). */
const UNREACHABLE_TEXT = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|No connection established|Name resolution failed|connect failed/i;

/**
 * The gRPC binding behind the client's {@link Transport} seam: a thin adapter over the typed
 * gRPC client (`GrpcTransport` of `grpc-service-client.ts`), which already speaks `a2a-version`
 * metadata, ErrorInfo details and the `a2a-last-event-id` resume field. Node only (grpc-js),
 * which is why it lives behind the `@a2a-polyglot/client/grpc` entry point.
 */
export class GrpcClientTransport implements Transport {
  readonly binding = 'GRPC' as const;
  private readonly client: GrpcClient;

  constructor(
    private readonly url: string,
    options: Omit<GrpcClientOptions, 'url'> = {},
    private readonly dialect: GrpcDialect = V1_GRPC,
  ) {
    this.client = new GrpcClient({ versionMetadata: dialect.versionMetadata, ...options, url });
  }

  async unary<Req, Res>(op: UnaryOperation<Req, Res>, request: Req, options: CallOptions = {}): Promise<Res> {
    const what = `${op.name} at ${this.url}`;
    try {
      return (await this.dialect.unary(this.client, op.name, request, {
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        headers: lower(options.headers),
      })) as Res;
    } catch (error) {
      throw this.refine(error, what, options);
    }
  }

  stream<Req>(op: StreamOperation<Req>, request: Req, options: StreamOptions = {}): AsyncIterable<ClientEvent> {
    return { [Symbol.asyncIterator]: () => this.openStream(op, request, options) };
  }

  async close(): Promise<void> {
    this.client.close();
  }

  private async *openStream<Req>(op: StreamOperation<Req>, request: Req, options: StreamOptions): AsyncGenerator<ClientEvent> {
    const what = `${op.name} at ${this.url}`;
    if (options.signal?.aborted) throw aborted(what);
    const callOptions: GrpcCallOptions = { signal: options.signal, headers: lower(options.headers) };
    const stream = this.dialect.stream(this.client, op.name, request, callOptions, options.resumeAfterSeq);
    // The open deadline runs until the first event, the idle timeout between events.
    let failure: A2AError | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number | undefined, make: (ms: number) => A2AError) => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (ms === undefined || ms <= 0) return;
      timer = setTimeout(() => {
        failure = make(ms);
        stream.cancel();
      }, ms);
    };
    arm(options.timeoutMs, (ms) => timedOut(what, ms));
    try {
      for await (const { seq, event } of stream) {
        arm(options.idleTimeoutMs, (ms) => clientError(A2AErrorCode.DeadlineExceeded, 'idle', `${what}: the stream sent nothing for ${ms} ms`));
        yield { seq, event };
      }
      if (failure) throw failure;
    } catch (error) {
      throw failure ?? this.refine(error, what, options);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      stream.cancel();
    }
  }

  /** Tags connection failures and caller aborts like the HTTP transports do. */
  private refine(error: unknown, what: string, options: CallOptions): A2AError {
    const a2a = A2AError.from(error);
    if (options.signal?.aborted) return aborted(what);
    if (a2a.code === A2AErrorCode.Unavailable && UNREACHABLE_TEXT.test(a2a.message))
      return unreachable(`grpc://${this.url.replace(/^[a-z]+:\/\//i, '')}`, { message: a2a.message });
    if (a2a.code === A2AErrorCode.DeadlineExceeded && options.timeoutMs !== undefined && /deadline/i.test(a2a.message))
      return timedOut(what, options.timeoutMs);
    return a2a;
  }
}

function lower(headers: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() !== 'a2a-version') out[k.toLowerCase()] = v;
  return out;
}

/**
 * A {@link TransportFactory} of the gRPC binding with channel options: `credentials` for a
 * server whose certificate a private CA signed (`credentials.createSsl(ca)`), or for mutual
 * TLS (`credentials.createSsl(ca, clientKey, clientCert)`); they replace the default of
 * {@link grpcTransportFactory} whatever the interface's URL scheme says.
 */
export function grpcTransportFactoryWith(options: Omit<GrpcClientOptions, 'url' | 'versionMetadata'>): TransportFactory {
  return ({ agentInterface }) => new GrpcClientTransport(agentInterface.url, options, isV03Interface(agentInterface) ? V03_GRPC : V1_GRPC);
}

/**
 * {@link TransportFactory} of the gRPC binding (plaintext for `host:port`/`http://`, TLS with
 * the system's CAs for `https://`): v1.0, or v0.3 (`a2a.v1.A2AService`) for an interface
 * marked `protocolVersion` 0.3. For a private CA or mutual TLS use {@link grpcTransportFactoryWith}.
 */
export const grpcTransportFactory: TransportFactory = grpcTransportFactoryWith({});
