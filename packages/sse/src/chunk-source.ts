/** What {@link readSse} reads: a fetch body, or any async iterable of bytes or text. */
export type SseBody = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

/** One pull from a body. */
export interface Chunk {
  readonly done?: boolean;
  readonly value?: Uint8Array | string;
}

/** A body as a pull source that can be let go of early. */
export interface ChunkSource {
  read(): Promise<Chunk>;
  /** Stops reading and releases the connection; never throws. */
  cancel(): void;
}

/**
 * Pulls through `getReader()` when the body is a ReadableStream, because browsers (Safari)
 * do not all make ReadableStream async-iterable; anything else is iterated.
 */
export function chunkSource(body: SseBody): ChunkSource {
  if ('getReader' in body) {
    const reader = body.getReader();
    return {
      read: () => reader.read(),
      cancel: () => void reader.cancel().catch(() => undefined),
    };
  }
  const iterator = body[Symbol.asyncIterator]();
  return {
    read: () => iterator.next(),
    cancel: () => void iterator.return?.()?.catch(() => undefined),
  };
}
