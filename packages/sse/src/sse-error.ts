/** Why {@link readSse} gave up on a stream. */
export type SseFailure =
  /** One event (or one unfinished line) grew past `maxEventChars`. */
  | 'too-large'
  /** No bytes at all (comments included) for `idleTimeoutMs` while waiting for some. */
  | 'idle'
  /** With `rejectUnknownLines`: a line that is no SSE field. */
  | 'malformed';

/**
 * A stream-level failure of {@link readSse}, kept apart from transport errors (which pass
 * through unchanged) so that each caller can word it in its own error type: the client as an
 * A2AError, a bridge as a BridgeError, A2A-Lite as a LiteRpcError.
 */
export class SseError extends Error {
  constructor(
    /** Which limit or rule the stream broke. */
    readonly failure: SseFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SseError';
  }
}
