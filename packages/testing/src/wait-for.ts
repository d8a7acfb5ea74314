/** Bounds and pace of {@link waitFor}. */
export interface WaitForOptions {
  /** Give up (reject) after this long. Default 5000 ms. */
  readonly timeoutMs?: number;
  /** Pause between two checks. Default 10 ms. */
  readonly intervalMs?: number;
  /** What is awaited, for the failure message. */
  readonly what?: string;
}

/**
 * Resolves as soon as `condition` holds, checking it again every `intervalMs`; rejects after
 * `timeoutMs`. Tests synchronise on this instead of sleeping for a guessed time: a sleep is
 * either too short on a loaded machine (flaky) or too long everywhere else (slow), a poll is
 * as fast as the condition and only fails when it really never holds.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, options: WaitForOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${options.what ?? 'condition'} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 10));
  }
}
