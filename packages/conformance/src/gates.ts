/**
 * Named, latched gates shared by a test and the scripted executor. A script step
 * `{"gate": "g"}` parks the agent until the test opens `g`; this is what makes "subscribe
 * while the task is mid-stream" and "cut, then resume" deterministic without sleeping.
 */
export class Gates {
  private readonly opened = new Set<string>();
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Opens a gate: current and future waiters pass at once. */
  open(name: string): void {
    this.opened.add(name);
    const waiting = this.waiters.get(name);
    this.waiters.delete(name);
    for (const wake of waiting ?? []) wake();
  }

  /** True once {@link open} was called for `name`. */
  isOpen(name: string): boolean {
    return this.opened.has(name);
  }

  /** Number of agents currently parked at `name` (lets a test know the agent got there). */
  waiting(name: string): number {
    return this.waiters.get(name)?.size ?? 0;
  }

  /**
   * Resolves when the gate is open; rejects with the signal's reason when `signal` aborts
   * first (a canceled task must not stay parked).
   */
  wait(name: string, signal?: AbortSignal): Promise<void> {
    if (this.opened.has(name)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const set = this.waiters.get(name) ?? new Set<() => void>();
      this.waiters.set(name, set);
      const onAbort = () => {
        set.delete(wake);
        reject(signal?.reason);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      set.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Opens every gate anyone waits on (cleanup at the end of a scenario). */
  openAll(): void {
    for (const name of [...this.waiters.keys()]) this.open(name);
  }
}
