/**
 * Keys in the order of their last save, oldest first, with lazy deletion: every save appends
 * (key, stamp); an entry whose stamp is no longer the key's latest (the key was saved again,
 * moved to another queue, or deleted) is stale and skipped. Reading the oldest entry and
 * removing it are amortised O(1), which is what eviction needs. (Re-inserting into a `Map` on
 * every save instead made eviction walk over the Map's deleted slots.)
 * @internal
 */
export class SaveOrder {
  private entries: Array<{ key: string; stamp: number }> = [];
  private head = 0;

  /** @param isCurrent whether (key, stamp) is still the key's latest save in this queue. */
  constructor(private readonly isCurrent: (key: string, stamp: number) => boolean) {}

  push(key: string, stamp: number): void {
    this.entries.push({ key, stamp });
  }

  /** The key saved longest ago that is still current, or undefined when there is none. */
  oldest(): string | undefined {
    for (let entry = this.entries[this.head]; entry !== undefined; entry = this.entries[++this.head]) {
      if (this.isCurrent(entry.key, entry.stamp)) return entry.key;
    }
    this.entries = [];
    this.head = 0;
    return undefined;
  }

  /**
   * Drops the consumed head and the stale entries once they dominate the queue, so it stays
   * within a constant factor of `current` (the number of keys currently in it).
   */
  compact(current: number): void {
    const consumed = this.head > 1024 && this.head * 2 > this.entries.length;
    const stale = this.entries.length - this.head > 2 * current + 64;
    if (!consumed && !stale) return;
    this.entries = this.entries.slice(this.head).filter((entry) => this.isCurrent(entry.key, entry.stamp));
    this.head = 0;
  }
}
