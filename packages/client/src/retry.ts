import { A2AErrorCode, type A2AError } from '@a2a-polyglot/core';
import { aborted, clientFailureOf } from './failures.js';

/** How often and how patiently to try again. */
export interface RetryPolicy {
  /** Further attempts after the first (0 = never retry). */
  readonly attempts: number;
  /** Delay before the first retry; doubles each time (with ±20 % jitter). */
  readonly initialDelayMs: number;
  /** Upper bound of one delay. */
  readonly maxDelayMs: number;
}

/** Retries of safe reads (GetTask, ListTasks, push-config reads, extended card). */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 2, initialDelayMs: 200, maxDelayMs: 2000 };
/** Resubscribes of a cut stream. */
export const DEFAULT_RESUME: RetryPolicy = { attempts: 5, initialDelayMs: 250, maxDelayMs: 4000 };

/** The delay before retry number `attempt` (1-based). */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * Whether trying again can help: nothing answered, or the server said it is temporarily
 * unavailable. Deadlines and caller aborts are final: retrying would overrun the caller's
 * budget or ignore their wish.
 */
export function isTransient(error: A2AError): boolean {
  const failure = clientFailureOf(error);
  if (failure === 'unreachable' || failure === 'cut' || failure === 'idle') return true;
  if (failure !== undefined) return false;
  return error.code === A2AErrorCode.Unavailable;
}

/** Waits `ms`, or rejects with an `aborted` error as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(what));
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted(what));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
