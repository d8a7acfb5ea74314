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

/** {@link WaitForOptions}, plus how many checks in a row must see the same value. */
export interface WaitForSteadyOptions extends WaitForOptions {
  /** Checks in a row (after the first) that must see the same positive value. Default 20. */
  readonly steadyChecks?: number;
}

/**
 * Resolves with `value()` once it is positive and has not changed for `steadyChecks` checks in
 * a row: the condition "a producer has stopped" (a paused reader filled every buffer), which
 * no single reading can tell. Rejects after `timeoutMs` if the value keeps moving.
 */
export async function waitForSteady(value: () => number, options: WaitForSteadyOptions = {}): Promise<number> {
  const steadyChecks = options.steadyChecks ?? 20;
  let last = -1;
  let steady = 0;
  await waitFor(
    () => {
      const now = value();
      steady = now === last && now > 0 ? steady + 1 : 0;
      last = now;
      return steady >= steadyChecks;
    },
    { what: 'a steady value', timeoutMs: 15_000, ...options },
  );
  return last;
}

/**
 * Resolves with the first result of `attempt` that does not throw, trying again every
 * `intervalMs` (default 100 ms); after `timeoutMs` (default 15 s) rejects with the last error.
 * The condition "the service has recovered", which only a real call can tell: the test waits
 * for the call to succeed, not for a guessed reconnect delay, and a failure shows why.
 */
export async function eventually<T>(attempt: () => Promise<T>, options: WaitForOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
    }
  }
}
