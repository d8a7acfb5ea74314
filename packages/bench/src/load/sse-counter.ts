const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;

/**
 * Counts Server-Sent Events in a byte stream without decoding them: an event ends at a blank
 * line (`\n\n`, also across chunk boundaries; `\r` is ignored). Blocks that hold only comments
 * (`: ping` heartbeats) are not counted. Optionally keeps the text of the first and last
 * event so a run can check what it measured.
 */
export class SseCounter {
  /** Complete events seen. */
  events = 0;
  /** Whether the block in progress has a non-comment line. */
  private blockHasData = false;
  private atLineStart = true;
  private readonly keep: boolean;
  private current: Buffer[] = [];
  /** Text of the first and last complete event (only when constructed with `keep`). */
  first: string | undefined;
  last: string | undefined;

  constructor(options: { keep?: boolean } = {}) {
    this.keep = options.keep ?? false;
  }

  /** Feeds body bytes; returns the number of events completed by this chunk. */
  push(chunk: Buffer): number {
    const before = this.events;
    const len = chunk.length;
    let start = 0;
    let pos = 0;
    while (pos < len) {
      if (this.atLineStart) {
        const b = chunk.readUInt8(pos);
        if (b === CR) {
          pos++;
          continue;
        }
        if (b === LF) {
          // A blank line ends the block.
          if (this.blockHasData) {
            this.events++;
            if (this.keep) this.finishEvent(chunk.subarray(start, pos + 1));
          } else if (this.keep) this.current = [];
          this.blockHasData = false;
          pos++;
          start = pos;
          continue;
        }
        if (b !== COLON) this.blockHasData = true;
        this.atLineStart = false;
      }
      const lf = chunk.indexOf(LF, pos);
      if (lf < 0) break;
      pos = lf + 1;
      this.atLineStart = true;
    }
    if (this.keep && start < len) this.current.push(Buffer.from(chunk.subarray(start)));
    return this.events - before;
  }

  private finishEvent(tail: Buffer): void {
    this.current.push(tail);
    const text = Buffer.concat(this.current).toString('utf8').trim();
    this.current = [];
    this.first ??= text;
    this.last = text;
  }
}
