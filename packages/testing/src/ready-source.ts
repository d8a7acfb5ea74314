import { Role, type StreamResponse } from '@a2a-polyglot/model';
import { TurnProbe } from './turn-probe.js';

/** One numbered event, shaped like the core's `LoggedEvent` (this package does not depend on the core). */
export interface ReadyEvent {
  readonly seq: number;
  readonly event: StreamResponse;
}

/** Options of {@link ReadySource}. */
export interface ReadySourceOptions {
  /** The event every pull returns (default: a short agent message). */
  readonly event?: StreamResponse;
  /** Events per batch (default 1). */
  readonly batch?: number;
  /**
   * The source ends by itself after this many events (default 20 000), so that a delivery
   * loop that neither stops nor yields ends too, and the test fails on the counts instead of
   * hanging the test process.
   */
  readonly fuse?: number;
  /** Called after each pull with the number of events pulled so far (a test closes the sink at some count). */
  readonly onPull?: (pulled: number) => void;
}

/** A short agent message. */
const TICK: StreamResponse = {
  payload: {
    $case: 'message',
    value: {
      messageId: 'tick',
      contextId: '',
      taskId: '',
      role: Role.ROLE_AGENT,
      parts: [{ content: { $case: 'text', value: 'tick' }, metadata: undefined, filename: '', mediaType: '' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
  },
};

/**
 * An event stream whose events are always ready (a long replay, a fast agent), for tests of
 * the bindings' delivery loops: the case where neither the source nor a sink that takes every
 * write ever waits on I/O, so only the loop itself can let the event loop turn or stop.
 *
 * It counts how far it was pulled and measures, from its first pull until it ends, the most
 * events pulled between two turns of the event loop ({@link maxPullsBetweenTurns}, a
 * {@link TurnProbe}). Structurally an `EventStream` of the core (`nextBatch`,
 * `close`, async iteration).
 */
export class ReadySource implements AsyncIterable<ReadyEvent> {
  /** Events pulled so far. */
  pulled = 0;
  /** `close()` was called (the loop released the stream). */
  closed = false;
  /** The fuse ended the stream: the loop under test did not stop by itself. */
  fused = false;
  private readonly event: StreamResponse;
  private readonly batch: number;
  private readonly fuse: number;
  private readonly onPull: ((pulled: number) => void) | undefined;
  private readonly probe = new TurnProbe(() => this.pulled);

  constructor(options: ReadySourceOptions = {}) {
    this.event = options.event ?? TICK;
    this.batch = options.batch ?? 1;
    this.fuse = options.fuse ?? 20_000;
    this.onPull = options.onPull;
  }

  /** The source stopped being pulled: closed by the loop, or ended by the fuse. */
  get ended(): boolean {
    return this.closed || this.fused;
  }

  /** The most events pulled between two turns of the event loop (up to now, while open). */
  get maxPullsBetweenTurns(): number {
    return this.probe.maxBetweenTurns;
  }

  async nextBatch(): Promise<readonly ReadyEvent[] | undefined> {
    if (this.ended) return undefined;
    if (this.pulled >= this.fuse) {
      this.fused = true;
      this.probe.stop();
      return undefined;
    }
    this.probe.start();
    const out: ReadyEvent[] = [];
    for (let i = 0; i < this.batch; i++) out.push({ seq: ++this.pulled, event: this.event });
    this.onPull?.(this.pulled);
    return out;
  }

  close(): void {
    if (this.ended) return;
    this.closed = true;
    this.probe.stop();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ReadyEvent> {
    for (let batch = await this.nextBatch(); batch; batch = await this.nextBatch()) yield* batch;
  }
}
