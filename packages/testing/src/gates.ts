/**
 * A gate a scripted agent parks on until the test opens it (or the run is aborted): the test
 * decides when the agent goes on, so it can act while a task is provably in flight instead of
 * racing a timer. {@link open} releases the agents waiting now; later ones wait for the next open.
 */
export class Gate {
  private waiters: Array<() => void> = [];

  /** Resolves when the gate next opens, or when `signal` aborts (the run was canceled). */
  wait(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** Releases every agent waiting now. */
  open(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const release of waiters) release();
  }
}

/**
 * Named one-shot gates (`gate K` in a scripted agent's command): each key opens once and
 * stays open, whether the agent reaches it before or after the test opens it. {@link reached}
 * is the readiness a test waits on ("the agent is parked at K") before acting.
 */
export class Gates {
  private readonly gates = new Map<string, { promise: Promise<void>; open: () => void }>();
  private readonly waiting = new Set<string>();

  /** Resolves when gate `key` is open, or when `signal` aborts. */
  wait(key: string, signal: AbortSignal): Promise<void> {
    const gate = this.get(key);
    this.waiting.add(key);
    return new Promise((resolve) => {
      void gate.promise.then(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** True once an agent has reached the gate `key`. */
  reached(key: string): boolean {
    return this.waiting.has(key);
  }

  /** Opens gate `key` for good. */
  open(key: string): void {
    this.get(key).open();
  }

  /** Opens every gate an agent waits on or a test named (cleanup before a server shuts down). */
  openAll(): void {
    for (const gate of this.gates.values()) gate.open();
  }

  private get(key: string): { promise: Promise<void>; open: () => void } {
    const existing = this.gates.get(key);
    if (existing) return existing;
    let open: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => {
      open = resolve;
    });
    const gate = { promise, open };
    this.gates.set(key, gate);
    return gate;
  }
}
