import type { WebSocket } from 'ws';
import { A2AError, A2AErrorCode, type CallContext, type Logger } from '@a2a-polyglot/core';
import { jsonRpcFailure, type JsonRpcDispatcher, type JsonRpcId, type JsonRpcOutcome } from '@a2a-polyglot/jsonrpc';
import { responseParams, webSocketCallContext } from './call-context.js';
import { CallSignals } from './call-signals.js';
import { idKey, type InboundFrame, parseInbound, textOf } from './frames.js';
import type { ResolvedWebSocketOptions } from './options.js';
import { Outbox } from './outbox.js';
import { CloseCode } from './protocol.js';
import { TokenBucket } from './rate-limit.js';
import { pumpStream, type PumpedStream } from './stream-pump.js';

/** What a socket reports for monitoring (and the memory-bound test). */
export interface ConnectionStats {
  /** Bytes queued for sending right now. */
  readonly bufferedAmount: number;
  /** Largest send-buffer size seen on this socket. */
  readonly peakBufferedAmount: number;
  /** Operations running: pending unary calls plus open streams. */
  readonly inFlight: number;
  readonly openStreams: number;
}

/**
 * One accepted socket: reads frames, enforces the per-socket limits, dispatches requests
 * through the shared JSON-RPC dispatcher (same methods and params as the HTTP JSON-RPC
 * binding) and multiplexes the answers and streams by request id.
 *
 * Failure isolation: nothing thrown here escapes to the process; a bug closes this socket
 * with 1011 and leaves every other socket alone.
 */
export class Connection {
  private readonly outbox: Outbox;
  private readonly bucket: TokenBucket;
  private readonly streams = new Map<string, PumpedStream>();
  /** Ids of requests dispatched but not yet answered (unary) or not yet opened (streams). */
  private readonly pending = new Set<string>();
  /** Each call's `CallContext.signal`: aborted on `cancelStream` or when the socket goes away. */
  private readonly signals = new CallSignals((key) => this.pending.has(key) || this.streams.has(key));
  private readonly running = new Set<Promise<void>>();
  private inFlight = 0;
  private closing = false;
  /** Heartbeat: set by every pong, cleared by every ping. */
  alive = true;

  constructor(
    private readonly socket: WebSocket,
    /** Service parameters from the upgrade request (headers, credentials, version). */
    private readonly headers: Readonly<Record<string, string>>,
    private readonly dispatcher: JsonRpcDispatcher,
    private readonly options: ResolvedWebSocketOptions,
    private readonly logger: Logger,
    /** The upgraded byte stream under `socket` (corked around batches of frames). */
    transport?: { cork(): void; uncork(): void },
    /** The client's address and verified TLS certificate, from the upgrade request's socket. */
    private readonly peer: Pick<CallContext, 'remoteAddress' | 'clientCertificate'> = {},
    /**
     * Spends the address point of one inbound frame (`RequestHandler.chargeArrival`);
     * undefined when no address limit applies.
     */
    private readonly chargeFrame: () => Promise<void> | undefined = () => undefined,
  ) {
    this.outbox = new Outbox(socket, {
      transport,
      highWaterMark: options.highWaterMark,
      stallTimeoutMs: options.stallTimeoutMs,
      onStall: () => {
        logger.warn({ bufferedAmount: socket.bufferedAmount }, 'WebSocket peer stopped reading; closing');
        this.close(CloseCode.TryAgainLater, 'send buffer full: the client is not reading');
      },
    });
    this.bucket = new TokenBucket(options.maxMessagesPerSecond, options.messageBurst);
    socket.on('message', (data, isBinary) => {
      // (The guard written out: a closure per frame showed in the unary profile.)
      try {
        this.onMessage(data, isBinary);
      } catch (error) {
        this.failed(error);
      }
    });
    socket.on('pong', () => {
      this.alive = true;
    });
    socket.on('close', () => this.onClose());
    socket.on('error', (error) => logger.debug({ message: error.message }, 'WebSocket error'));
  }

  /** Monitoring snapshot. */
  stats(): ConnectionStats {
    return {
      bufferedAmount: this.outbox.bufferedAmount,
      peakBufferedAmount: this.outbox.peakBufferedAmount,
      inFlight: this.inFlight,
      openStreams: this.streams.size,
    };
  }

  /** Heartbeat tick: terminate a peer that did not answer the last ping, else ping again. */
  heartbeat(): void {
    if (!this.alive) {
      this.logger.debug('WebSocket peer missed a heartbeat; terminating');
      this.socket.terminate();
      return;
    }
    this.alive = false;
    this.guard(() => this.socket.ping());
  }

  /**
   * Server shutdown: every open stream ends with `streamEnd` reason `shutdown`, running
   * calls get a bounded time to answer, then the socket closes with 1001.
   */
  async shutdown(): Promise<void> {
    for (const stream of this.streams.values()) stream.stop('shutdown');
    await settleWithin([...this.running], this.options.closeTimeoutMs);
    this.close(CloseCode.GoingAway, 'server shutting down');
  }

  /** Sends a close frame, and drops the TCP connection if the peer does not answer it in time. */
  close(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    try {
      this.socket.close(code, reason);
    } catch {
      this.socket.terminate();
      return;
    }
    setTimeout(() => this.socket.terminate(), this.options.closeTimeoutMs).unref();
  }

  private onMessage(data: unknown, isBinary: boolean): void {
    if (this.closing) return;
    if (!this.bucket.take()) {
      this.logger.warn('WebSocket peer exceeded the message rate; closing');
      this.close(CloseCode.PolicyViolation, 'message rate exceeded');
      return;
    }
    if (isBinary) {
      this.close(CloseCode.UnsupportedData, 'binary frames are not supported; send JSON text frames');
      return;
    }
    const frame = parseInbound(textOf(data));
    // Every frame but cancelStream (which only stops delivery of a stream already open)
    // spends the address point, before its request is decoded or validated, invalid frames
    // too. Parsed first: a refusal must carry the request id, the multiplexing key.
    const charge = frame.kind === 'cancelStream' ? undefined : this.chargeFrame();
    if (!charge) {
      this.handle(frame, false);
      return;
    }
    void charge.then(
      () => this.guard(() => this.handle(frame, true)),
      (error: unknown) => this.guard(() => this.refuse(frame, A2AError.from(error))),
    );
  }

  /** A frame refused by the address budget: its request gets the error (a notification, none). */
  private refuse(frame: InboundFrame, error: A2AError): void {
    if (this.closing || frame.id === undefined) return;
    this.fail(frame.id, error);
  }

  /** One parsed frame; `charged`: its address point is spent (see `CallContext.addressCharged`). */
  private handle(frame: InboundFrame, charged: boolean): void {
    if (this.closing) return;
    switch (frame.kind) {
      case 'invalid':
        this.fail(frame.id, frame.error);
        return;
      case 'cancelStream': {
        // Unknown ids are ignored: the stream may have ended while the cancel was in flight.
        const key = idKey(frame.id);
        const stream = this.streams.get(key);
        if (stream) this.signals.abort(key);
        stream?.stop('canceled');
        return;
      }
      case 'request':
        this.request(frame.message, frame.id, frame.serviceParams, frame.resumeAfterSeq, charged);
        return;
    }
  }

  private request(
    message: Record<string, unknown>,
    id: JsonRpcId | undefined,
    serviceParams: Readonly<Record<string, string>>,
    resumeAfterSeq: number | undefined,
    addressCharged: boolean,
  ): void {
    const key = id === undefined ? undefined : idKey(id);
    if (id !== undefined && key !== undefined && (this.pending.has(key) || this.streams.has(key))) {
      this.fail(id, new A2AError(A2AErrorCode.InvalidRequest, `Request id ${key} is already in use by a running operation on this socket`));
      return;
    }
    if (this.inFlight >= this.options.maxInFlight) {
      if (id === undefined) return; // a notification gets no answer, not even this one
      this.fail(id, new A2AError(A2AErrorCode.ResourceExhausted, `At most ${this.options.maxInFlight} operations may run at once on one socket`));
      return;
    }
    this.inFlight++;
    if (key !== undefined) this.pending.add(key);
    const contexts: CallContext[] = [];
    const signal = key === undefined ? () => this.signals.forNotification() : () => this.signals.forCall(key);
    const contextFor = (): CallContext => {
      // Named members, not `{ ...this.peer, logger, addressCharged }`: on Node 20 each member a
      // spread's copy gains afterwards takes V8's slow path (~1.5 µs a call).
      const { remoteAddress, clientCertificate } = this.peer;
      const ctx = webSocketCallContext(this.headers, serviceParams, signal, { remoteAddress, clientCertificate, logger: this.logger, addressCharged });
      contexts.push(ctx);
      return ctx;
    };
    const work = this.dispatcher
      .dispatch(message, contextFor, { resumeAfterSeq })
      .then((outcome) => {
        if (key !== undefined) this.pending.delete(key);
        if (key !== undefined && outcome.kind !== 'stream') this.signals.forget(key);
        this.deliver(outcome, key, responseParams(contexts));
      })
      .catch((error: unknown) => {
        // dispatch() never rejects; this is a bug guard.
        this.logger.error({ err: error }, 'WebSocket dispatch failed');
        if (key !== undefined) this.pending.delete(key);
        if (key !== undefined) this.signals.forget(key);
        this.inFlight--;
        this.fail(id ?? null, new A2AError(A2AErrorCode.Internal));
      });
    this.track(work);
  }

  private deliver(outcome: JsonRpcOutcome, key: string | undefined, serviceParams: Record<string, string> | undefined): void {
    switch (outcome.kind) {
      case 'none':
        this.inFlight--;
        return;
      case 'batch': // arrays are refused before dispatch; kept for completeness
        this.inFlight--;
        if (outcome.responses.length > 0) this.outbox.send(outcome.responses);
        return;
      case 'response':
        this.inFlight--;
        this.outbox.send(serviceParams ? { ...outcome.response, serviceParams } : outcome.response);
        return;
      case 'stream': {
        if (this.closing || key === undefined || this.signals.socketGone) {
          this.inFlight--;
          if (key !== undefined) this.signals.forget(key);
          outcome.stream.close();
          return;
        }
        const pumped = pumpStream(outcome, this.outbox, this.logger, serviceParams);
        this.streams.set(key, pumped);
        this.trackStream(key, pumped);
      }
    }
  }

  private fail(id: JsonRpcId, error: A2AError): void {
    this.outbox.send(jsonRpcFailure(id, error, this.logger));
  }

  private onClose(): void {
    this.closing = true;
    this.signals.socketClosed();
    this.outbox.shutdown();
    for (const stream of this.streams.values()) stream.stop('canceled');
  }

  /**
   * {@link track} of an open stream, with one reaction: a stream may stay open for hours, and
   * a `then` plus a `finally` kept three promises and their closures alive for it. (`done`
   * never rejects, and the cleanup does not throw.)
   */
  private trackStream(key: string, pumped: PumpedStream): void {
    const work: Promise<void> = pumped.done.then(() => {
      this.streams.delete(key);
      this.signals.forget(key);
      this.inFlight--;
      this.running.delete(work);
    });
    this.running.add(work);
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /** Runs socket work; a throw is a bug: log it and close only this socket. */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.failed(error);
    }
  }

  /** A bug in socket work: log it and close only this socket. */
  private failed(error: unknown): void {
    this.logger.error({ err: error }, 'WebSocket connection failed');
    this.close(CloseCode.InternalError, 'internal error');
  }
}

/** Waits for all promises, but no longer than `ms`. */
async function settleWithin(promises: readonly Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(promises), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
