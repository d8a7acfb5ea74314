import type { StreamResponse } from '@a2a-polyglot/model';
import type { SourcedEvent } from './failing-stream.js';

/**
 * A stream source that never ends by itself and counts how far it was pulled: the producer
 * of the backpressure tests (a client that does not read must not make the server pull the
 * whole stream; closing the consumer must close the source). Structurally what the core's
 * `eventStreamFrom` takes.
 */
export class EndlessSource implements AsyncIterable<SourcedEvent> {
  /** Events handed out so far. */
  pulled = 0;
  /** Whether the consumer closed the source. */
  closed = false;

  constructor(private readonly event: StreamResponse) {}

  close(): void {
    this.closed = true;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<SourcedEvent> {
    while (!this.closed) yield { seq: ++this.pulled, event: this.event };
  }
}
