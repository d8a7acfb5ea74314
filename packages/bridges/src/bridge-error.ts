/**
 * What went wrong talking to an upstream, in words fit for the A2A client: the message of a
 * FAILED task (or the log line behind `A2A request failed.`). It names the bridge and the
 * kind of failure but never the upstream URL, headers or credentials; `detail` carries
 * extra context for the operator's log only (still redacted before it is logged).
 */
export class BridgeError extends Error {
  /** Operator-only context (upstream origin, status, raw error code). */
  readonly detail: Readonly<Record<string, unknown>>;

  constructor(message: string, detail: Record<string, unknown> = {}) {
    super(message);
    this.name = 'BridgeError';
    this.detail = detail;
  }

  /**
   * Any thrown value as a BridgeError: a BridgeError stays as it is; anything else (a bug, a
   * surprise from a runtime) becomes a generic message, so internals never reach the client.
   */
  static from(error: unknown, bridge: string): BridgeError {
    if (error instanceof BridgeError) return error;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return new BridgeError(`The ${bridge} bridge failed unexpectedly`, { error: message });
  }
}
