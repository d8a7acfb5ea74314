import { ID_PLACEHOLDER } from './job.js';
import type { Observed } from './checks.js';

/** Receives what the first completed operation of a job looked like, for checking. */
export type ObserveFirst = (seen: Observed) => void;

/** The clock of operation timings (hrtime, ns). */
export const now = (): bigint => process.hrtime.bigint();

/**
 * The 12-digit id of a slot's operation (slot index, then an 8-digit counter): unique per
 * operation across the slots of a job, and the same width as {@link ID_PLACEHOLDER}.
 */
export function slotOperationId(slotIndex: number, counter: number): string {
  return String(slotIndex * 100_000_000 + (counter % 100_000_000)).padStart(12, '0');
}

/** A request template with a unique id written in per operation. */
export class IdTemplate {
  readonly bytes: Buffer;
  private readonly offset: number;
  private counter = 0;

  constructor(
    template: Buffer,
    private readonly slotIndex: number,
  ) {
    this.bytes = Buffer.from(template);
    this.offset = this.bytes.indexOf(ID_PLACEHOLDER, 0, 'latin1');
  }

  /** Writes the next id; returns the bytes (the same buffer every time). */
  next(): Buffer {
    if (this.offset >= 0) {
      this.counter = (this.counter + 1) % 100_000_000;
      this.bytes.write(slotOperationId(this.slotIndex, this.counter), this.offset, 'latin1');
    }
    return this.bytes;
  }
}
