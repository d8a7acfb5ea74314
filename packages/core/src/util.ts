/**
 * Small helpers shared across the core.
 * @internal
 */

/**
 * A random UUID from the platform (Node 20+ and browsers both expose `crypto.randomUUID`),
 * flattened. Why: Node builds the UUID by concatenating 20 pieces, which V8 keeps as a rope of
 * cons strings, about 480 bytes instead of 60 for as long as the id lives; a task holds two
 * (task and context id) for its whole life, and an idle task paid about 1 KB for them. Reading
 * one character makes V8 flatten the rope in place.
 */
export function newId(): string {
  const id = globalThis.crypto.randomUUID();
  id.charCodeAt(0);
  return id;
}

/** Now as ProtoJSON Timestamp text: RFC 3339, UTC, millisecond precision (spec §6.1). */
export function nowTimestamp(): string {
  // Several events per task land in the same millisecond: format each millisecond once.
  const now = Date.now();
  if (now !== lastStampMs) {
    lastStampMs = now;
    lastStamp = new Date(now).toISOString();
  }
  return lastStamp;
}

let lastStampMs = Number.NaN;
let lastStamp = '';

/** Resolves after `ms`, or rejects with the signal's reason once `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
