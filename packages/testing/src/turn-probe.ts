/**
 * Measures how far a counter (events pulled, frames written) moves between two turns of the
 * event loop, with a chain of `setImmediate`s that runs from {@link start} to {@link stop}. A
 * loop that never lets the event loop turn shows up as one long stretch, and a test can bound
 * it instead of hanging.
 */
export class TurnProbe {
  private running = false;
  private atTurn = 0;
  private maxStretch = 0;

  constructor(private readonly count: () => number) {}

  /** The longest stretch seen, including the current one while running. */
  get maxBetweenTurns(): number {
    return Math.max(this.maxStretch, this.running ? this.count() - this.atTurn : 0);
  }

  /** Starts measuring (from the counter's current value); idempotent. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.atTurn = this.count();
    const tick = () => {
      if (!this.running) return;
      this.endStretch();
      setImmediate(tick);
    };
    setImmediate(tick);
  }

  /** Ends the current stretch and stops the chain. */
  stop(): void {
    if (!this.running) return;
    this.endStretch();
    this.running = false;
  }

  private endStretch(): void {
    const now = this.count();
    this.maxStretch = Math.max(this.maxStretch, now - this.atTurn);
    this.atTurn = now;
  }
}
