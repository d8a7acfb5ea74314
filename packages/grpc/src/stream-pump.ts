import { constants as http2Constants } from 'node:http2';
import { A2AError, A2AErrorCode, type CallContext, DeliveryPace, type EventStream, GRPC_METADATA, type StreamOperation } from '@a2a-polyglot/core';
import { Metadata, type ServerWritableStream } from '@grpc/grpc-js';
import { BackpressureWriter } from './backpressure-writer.js';
import { streamCallContext } from './call-context.js';
import { failure } from './failure.js';
import { extensionsMetadata, parseLastEventId } from './metadata.js';
import type { EncodedRequest } from './safe-decode.js';
import type { ServedRpc } from './served-rpc.js';

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
 * Pacing ({@link DeliveryPace}): delivery stops at once when the call is cancelled or stopped,
 * and the event loop turns at least every `DELIVERY_TURN_FRAMES` messages, whatever the
 * writer's bound of unflushed messages is configured to.
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
  let stream: EventStream | undefined;
  let writer: BackpressureWriter<unknown> | undefined;
  let stopError: A2AError | undefined;
  let ctx: CallContext | undefined;
  const release = () => {
    stream?.close();
    writer?.close();
  };
  // Client cancel, deadline or peer loss: stop delivery. The task itself keeps running (with
  // background execution off, the core cancels a streaming send's task on this abort).
  const onCancelled = () => {
    controller.abort();
    release();
  };
  const stop = (error: A2AError) => {
    stopError = error;
    release();
  };
  const pace = new DeliveryPace(() => !controller.signal.aborted && stopError === undefined && !call.cancelled);
  call.on('cancelled', onCancelled);
  open.add(stop);
  try {
    // The address point first, before the request is decoded where the agent is known (see callAdmission).
    const { handler, tenant, coreRequest, addressCharged } = await admit(call);
    const resumeAfterSeq = op.name === 'SubscribeToTask' ? parseLastEventId(call.metadata) : undefined;
    ctx = streamCallContext(call, controller.signal, dialect, tenant, logger, addressCharged);
    stream = await op.open(handler, coreRequest, ctx, resumeAfterSeq);
    if (controller.signal.aborted || stopError) stream.close();
    writer = new BackpressureWriter(call, limits.highWater, {
      stallTimeoutMs: limits.stallTimeoutMs,
      onStall: () => {
        (ctx?.logger ?? logger).warn({ operation: op.name, stallTimeoutMs: limits.stallTimeoutMs }, 'gRPC stream ended: the client stopped reading');
        stop(
          new A2AError(
            A2AErrorCode.Unavailable,
            `The client read nothing for ${limits.stallTimeoutMs} ms; the stream was ended (the task continues: resubscribe to follow it)`,
          ),
        );
        resetStalledCall(call);
      },
    });
    let lastSeq: number | undefined;
    pump: for (;;) {
      await writer.ready();
      if (pace.due) await pace.turn();
      if (!pace.open) break;
      // Every ready event at once; each still waits for room in the writer.
      const batch = await stream.nextBatch();
      if (!batch || !pace.open) break;
      for (const { seq, event } of batch) {
        if (!writer.writable) await writer.ready();
        if (pace.due) await pace.turn();
        if (!pace.open) break pump;
        if (lastSeq === undefined) {
          const md = extensionsMetadata(ctx.activatedExtensions) ?? new Metadata();
          md.set(GRPC_METADATA.streamFirstSeq, String(seq));
          call.sendMetadata(md);
        }
        writer.write(route.fromCore(event));
        pace.sent();
        lastSeq = seq;
      }
    }
    if (stopError) throw stopError;
    if (!controller.signal.aborted) {
      const trailers = new Metadata();
      if (lastSeq !== undefined) trailers.set(GRPC_METADATA.streamLastSeq, String(lastSeq));
      call.end(trailers);
    }
  } catch (error) {
    if (!call.cancelled) call.emit('error', failure(logger, error, ctx, op.name, dialect.status));
  } finally {
    release();
    open.delete(stop);
    call.off('cancelled', onCancelled);
  }
}

/**
 * Resets the HTTP/2 stream of a call whose client stopped reading, with ENHANCE_YOUR_CALM
 * (grpc-js clients report RESOURCE_EXHAUSTED). Needed because a status travels in trailers,
 * which HTTP/2 sends only after the unread messages, that is never; the reset drops those
 * buffers. grpc-js has no public way to reach the stream, so this walks its call chain and
 * does nothing when the shape is not the expected one (the status then ends the call if the
 * client ever reads again).
 */
function resetStalledCall(call: ServerWritableStream<unknown, unknown>): void {
  let link: unknown = (call as unknown as { call?: unknown }).call;
  for (let depth = 0; depth < 8 && link && typeof link === 'object'; depth++) {
    const stream = (link as { stream?: { close?: (code: number) => void; destroyed?: boolean } }).stream;
    if (stream && typeof stream.close === 'function') {
      if (!stream.destroyed) stream.close(http2Constants.NGHTTP2_ENHANCE_YOUR_CALM);
      return;
    }
    link = (link as { nextCall?: unknown }).nextCall;
  }
}
