import {
  A2AError,
  A2AErrorCode,
  BoundedWriter,
  type CallContext,
  type DeliveryResult,
  EventDelivery,
  GRPC_METADATA,
  type LoggedEvent,
  type StreamOperation,
} from '@a2a-polyglot/core';
import { Metadata, type ServerWritableStream } from '@grpc/grpc-js';
import { streamCallContext } from './call-context.js';
import { GrpcCallSink } from './call-sink.js';
import { failure } from './failure.js';
import { extensionsMetadata, parseLastEventId } from './metadata.js';
import type { EncodedRequest } from './safe-decode.js';
import type { ServedRpc } from './served-rpc.js';
import { resetStalledCall } from './stalled-call.js';

/** Flow limits of one server stream: unflushed messages, and how long it may stay blocked. */
export interface StreamLimits {
  readonly highWater: number;
  readonly stallTimeoutMs: number;
}

/**
 * The server streams of a service that are open: each registers how to stop it, so server
 * shutdown can end them all.
 */
export type OpenStreams = Set<(error: A2AError) => void>;

/**
 * One server-streaming call: open the core's event stream, then write each event as the
 * client can take it. The first event's number goes out as initial metadata
 * `a2a-stream-first-seq` (gRPC messages have no per-message metadata; events of a stream are
 * numbered consecutively, see README), the last one as trailer `a2a-last-seq`.
 *
 * The delivery is the core's one loop ({@link EventDelivery}) into a {@link BoundedWriter} over
 * the call ({@link GrpcCallSink}): one message per event, the next batch pulled only while
 * fewer than `highWater` messages are unflushed and HTTP/2 reports no backpressure, so a slow
 * reader pauses the stream at its log cursor. Pacing: delivery stops at once when the call is
 * cancelled or stopped, and the event loop turns at least every `DELIVERY_TURN_FRAMES`
 * messages. A client that reads nothing for `stallTimeoutMs` loses the call
 * (RESOURCE_EXHAUSTED, see {@link resetStalledCall}); the task keeps running.
 */
export async function serveStream(
  op: StreamOperation,
  rpc: ServedRpc,
  limits: StreamLimits,
  open: OpenStreams,
  call: ServerWritableStream<EncodedRequest, unknown>,
): Promise<void> {
  const { route, admit, dialect, logger } = rpc;
  const controller = new AbortController();
  let delivery: EventDelivery<unknown> | undefined;
  let writer: BoundedWriter<readonly unknown[]> | undefined;
  let stopError: A2AError | undefined;
  let ctx: CallContext | undefined;
  // Client cancel, deadline or peer loss: stop delivery (the abort stops it; the sink closes
  // the writer). The task itself keeps running (with background execution off, the core
  // cancels a streaming send's task on this abort).
  const onCancelled = () => controller.abort();
  const stop = (error: A2AError) => {
    stopError = error;
    delivery?.stop();
    writer?.close();
  };
  const cleanUp = () => {
    delivery?.stop();
    writer?.close();
    open.delete(stop);
    call.off('cancelled', onCancelled);
  };
  const failed = (error: unknown) => {
    if (!call.cancelled) call.emit('error', failure(logger, error, ctx, op.name, dialect.status));
  };
  /** The end of a delivery: the trailers, or the error it ended with. */
  const ended = ({ error, lastSeq }: DeliveryResult) => {
    try {
      if (stopError) throw stopError;
      if (error) throw error;
      if (!controller.signal.aborted) {
        const trailers = new Metadata();
        if (lastSeq !== undefined) trailers.set(GRPC_METADATA.streamLastSeq, String(lastSeq));
        call.end(trailers);
      }
    } catch (thrown) {
      failed(thrown);
    } finally {
      cleanUp();
    }
  };
  call.on('cancelled', onCancelled);
  open.add(stop);
  let delivering = false;
  try {
    // The address point first, before the request is decoded where the agent is known (see callAdmission).
    const { handler, tenant, coreRequest, addressCharged } = await admit(call);
    const resumeAfterSeq = op.name === 'SubscribeToTask' ? parseLastEventId(call.metadata) : undefined;
    const context = streamCallContext(call, controller.signal, dialect, tenant, logger, addressCharged);
    ctx = context;
    const stream = await op.open(handler, coreRequest, context, resumeAfterSeq);
    writer = new BoundedWriter(new GrpcCallSink(call, limits.highWater), {
      stallTimeoutMs: limits.stallTimeoutMs,
      onStall: () => {
        (context.logger ?? logger).warn({ operation: op.name, stallTimeoutMs: limits.stallTimeoutMs }, 'gRPC stream ended: the client stopped reading');
        stop(
          new A2AError(
            A2AErrorCode.Unavailable,
            `The client read nothing for ${limits.stallTimeoutMs} ms; the stream was ended (the task continues: resubscribe to follow it)`,
          ),
        );
        resetStalledCall(call);
      },
    });
    delivery = new EventDelivery(stream, writer, {
      encode: (logged: LoggedEvent) => route.fromCore(logged.event),
      onFirst: ({ seq }: LoggedEvent) => {
        const md = extensionsMetadata(context.activatedExtensions) ?? new Metadata();
        md.set(GRPC_METADATA.streamFirstSeq, String(seq));
        call.sendMetadata(md);
      },
      signal: controller.signal,
    });
    if (stopError) delivery.stop();
    // A reaction, not an awaited frame: an idle stream keeps no suspended frame of its own here.
    const delivered = delivery.run().then(ended);
    delivering = true;
    return delivered;
  } catch (error) {
    failed(error);
  } finally {
    if (!delivering) cleanUp();
  }
}
