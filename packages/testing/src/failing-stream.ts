import type { StreamResponse } from '@a2a-polyglot/model';

/** One numbered event of a stream source, as the core's event log hands them out. */
export interface SourcedEvent {
  readonly seq: number;
  readonly event: StreamResponse;
}

/**
 * A stream source that yields one agent message and then throws an Error whose message is
 * `detail`: the "stream fails after its first event" case every streaming binding must end
 * with its own error frame and without leaking `detail`. Structurally what the core's
 * `eventStreamFrom` takes (async iteration and `close`), so this package stays free of the core.
 */
export function failsAfterFirstEvent(detail: string): AsyncIterable<SourcedEvent> & { close(): void } {
  return {
    close() {},
    async *[Symbol.asyncIterator]() {
      yield {
        seq: 1,
        event: {
          payload: {
            $case: 'message' as const,
            value: { messageId: 'm', contextId: '', taskId: '', role: 2, parts: [], metadata: undefined, extensions: [], referenceTaskIds: [] },
          },
        },
      };
      throw new Error(detail);
    },
  };
}
