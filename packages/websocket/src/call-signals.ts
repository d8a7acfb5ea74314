/**
 * The abort signals of the calls running on one socket. The core reads "the caller left"
 * from a call's `CallContext.signal` (a handler with background execution off then cancels a
 * stream's task); here they fire when the socket goes away, or for one call when
 * `cancelStream` stops its stream.
 *
 * Signals are made only when a call's context first reads them (most unary calls never do),
 * and the same signal is returned on every later read while the call runs.
 */
export class CallSignals {
  /** Per request id key: the abort of that call's signal, once somebody read it (or it was aborted first). */
  private readonly aborts = new Map<string, AbortController>();
  /** Aborted when the socket goes away; made only for a notification that reads its signal. */
  private notifications: AbortController | undefined;
  private gone = false;

  /** @param isRunning whether the call with that id key is still dispatched or streaming. */
  constructor(private readonly isRunning: (key: string) => boolean) {}

  /** The socket went away (every signal made so far, or later, is aborted). */
  get socketGone(): boolean {
    return this.gone;
  }

  /**
   * The signal of the call with request id `key`: aborts on `cancelStream` for it, or when the
   * socket goes away. A call that is over (or a socket that is gone) gets an aborted one.
   */
  forCall(key: string): AbortSignal {
    const made = this.aborts.get(key);
    if (made) return made.signal;
    const abort = new AbortController();
    if (this.gone || !this.isRunning(key)) abort.abort();
    else this.aborts.set(key, abort);
    return abort.signal;
  }

  /** The signal of calls without an id (notifications): aborts when the socket goes away. */
  forNotification(): AbortSignal {
    if (!this.notifications) {
      this.notifications = new AbortController();
      if (this.gone) this.notifications.abort();
    }
    return this.notifications.signal;
  }

  /** Aborts the call's signal, or, when nobody read it yet, leaves an aborted one for the next read. */
  abort(key: string): void {
    const made = this.aborts.get(key);
    if (made) {
      made.abort();
      return;
    }
    const aborted = new AbortController();
    aborted.abort();
    this.aborts.set(key, aborted);
  }

  /** The call is over: its signal is no longer kept. */
  forget(key: string): void {
    this.aborts.delete(key);
  }

  /** The socket went away: aborts every signal, now and on any later read. */
  socketClosed(): void {
    this.gone = true;
    this.notifications?.abort();
    for (const abort of this.aborts.values()) abort.abort();
    this.aborts.clear();
  }
}
