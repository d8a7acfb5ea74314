/** How often a durable idempotency store deletes its expired sends: at most once a minute per instance. */
export const SEND_PURGE_INTERVAL_MS = 60_000;

/**
 * True when a claim at `now` should first delete the expired sends. Why on claims: the table
 * grows only by claims, so purging on them bounds it to the sends of one window (plus a
 * minute) without a timer that would keep a process alive.
 */
export function purgeDue(lastPurge: number, now: number): boolean {
  return now - lastPurge >= SEND_PURGE_INTERVAL_MS;
}
