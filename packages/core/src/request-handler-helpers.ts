/**
 * Small pieces shared by the {@link RequestHandler} and the modules it delegates to (task
 * queries, cancel, push configs, cluster work): the caller an operation's preamble
 * established, the key of a task's run, and two waits.
 * @internal
 */
import { A2AError, errors } from './a2a-error.js';
import type { Principal } from './auth.js';
import { A2AErrorCode } from './error-code.js';
import type { NegotiatedVersion } from './protocol-version.js';

/** What the preamble of every operation established. */
export interface Caller {
  readonly principal: Principal | undefined;
  readonly owner: string | undefined;
  readonly tenant: string;
  readonly extensions: readonly string[];
  /** The protocol version the call negotiated: `1.1` (experimental) adds the task generations to its answers. */
  readonly version: NegotiatedVersion;
}

/** The key of a task in this process's maps (its run, its webhook deliveries): tenants are separate namespaces of task ids. */
export function runKey(tenant: string, taskId: string): string {
  return `${tenant}\u0000${taskId}`;
}

/** Throws InvalidParams naming `field` when a required id is empty. */
export function requireId(value: string, field: string): void {
  if (!value) throw errors.invalidParams(`${field} is required`, [{ field, description: 'required' }]);
}

/** Waits for `promise` at most `ms` (never rejects). */
export async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Waits for `promise`, or until the caller's signal aborts (the run itself goes on). */
export function waitOrAbort(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new A2AError(A2AErrorCode.DeadlineExceeded, 'The caller went away'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new A2AError(A2AErrorCode.DeadlineExceeded, 'The caller went away'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, reject);
  });
}
