import { estimateBytes } from './estimate-size.js';
import type { IdempotencyStore, SendClaim, SendKey, SendOutcome } from './idempotency-store.js';

/** Default of {@link InMemoryIdempotencyStoreOptions.maxKeys}. */
export const DEFAULT_IDEMPOTENCY_MAX_KEYS = 100_000;

/** Default of {@link InMemoryIdempotencyStoreOptions.maxBytes}: 32 MiB of estimated entry bytes. */
export const DEFAULT_IDEMPOTENCY_MAX_BYTES = 32 * 1024 * 1024;

/** Bounds of the {@link InMemoryIdempotencyStore}. */
export interface InMemoryIdempotencyStoreOptions {
  /** The most sends remembered; past it the least recently used go first. Default 100,000. */
  readonly maxKeys?: number;
  /** The most estimated bytes of keys and recorded replies held (a message reply can be large). Default 32 MiB. */
  readonly maxBytes?: number;
}

/** How often claims look for expired entries at the old end (expired entries are taken over anyway). */
const SWEEP_INTERVAL_MS = 1000;

/** Past a bound, the store trims to this share of it, so trimming happens in batches. */
const TRIM_TO = 0.9;

/** Shared: a claim answer carries nothing of its own. */
const NEW_CLAIM: SendClaim = { kind: 'new' };

interface Entry {
  readonly fingerprint: string;
  outcome: SendOutcome | undefined;
  expiresAt: number;
  bytes: number;
}

/**
 * The sends of one process, for the in-memory task store: a `Map` kept in least-recently-used
 * order (re-inserted on every use), trimmed from its oldest end when an entry expired or a
 * bound is passed. Bounded like the task store, so a client that sends millions of distinct ids
 * costs at most `maxBytes`: the sends evicted early lose only their replay, never correctness
 * of a first send. Hand-written because the LRU libraries bound by count or by a size function
 * but not by both with an expiry per entry that a claim can take over; a `Map` does all three.
 */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private heldBytes = 0;
  private lastSweep = Number.NEGATIVE_INFINITY;
  private readonly maxKeys: number;
  private readonly maxBytes: number;

  constructor(options: InMemoryIdempotencyStoreOptions = {}) {
    this.maxKeys = options.maxKeys ?? DEFAULT_IDEMPOTENCY_MAX_KEYS;
    this.maxBytes = options.maxBytes ?? DEFAULT_IDEMPOTENCY_MAX_BYTES;
  }

  /** Sends remembered now (tests, metrics). */
  get size(): number {
    return this.entries.size;
  }

  claim(key: SendKey, fingerprint: string, now: number, expiresAt: number): SendClaim {
    const id = keyOf(key);
    const found = this.entries.get(id);
    if (found && found.expiresAt > now) {
      this.touch(id, found);
      return { kind: 'existing', fingerprint: found.fingerprint, outcome: found.outcome };
    }
    if (found) this.remove(id, found);
    const entry: Entry = { fingerprint, outcome: undefined, expiresAt, bytes: estimateBytes(id) + estimateBytes(fingerprint) + 64 };
    this.entries.set(id, entry);
    this.heldBytes += entry.bytes;
    if (this.overBounds() || now - this.lastSweep >= SWEEP_INTERVAL_MS) this.trim(now);
    return NEW_CLAIM;
  }

  record(key: SendKey, fingerprint: string, outcome: SendOutcome, expiresAt: number): void {
    const id = keyOf(key);
    const found = this.entries.get(id);
    if (!found || found.fingerprint !== fingerprint) return;
    found.outcome = outcome;
    found.expiresAt = expiresAt;
    const bytes = found.bytes + (outcome.kind === 'message' ? estimateBytes(outcome.message) : estimateBytes(outcome.taskId));
    this.heldBytes += bytes - found.bytes;
    found.bytes = bytes;
    // Only the bounds: the store reads no clock of its own (claims say what time it is).
    if (this.overBounds()) this.trim(Number.NEGATIVE_INFINITY);
  }

  release(key: SendKey, fingerprint: string): void {
    const id = keyOf(key);
    const found = this.entries.get(id);
    if (found && found.outcome === undefined && found.fingerprint === fingerprint) this.remove(id, found);
  }

  private touch(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  private remove(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.heldBytes -= entry.bytes;
  }

  private overBounds(): boolean {
    return this.entries.size > this.maxKeys || this.heldBytes > this.maxBytes;
  }

  /**
   * Drops from the least recently used end: expired entries, then, once a bound is passed,
   * enough to get {@link TRIM_TO} below it. In batches, because a `Map` keeps the slots of
   * deleted entries until it rehashes and every walk from its start skips them again: trimming
   * one entry per claim cost a walk over all earlier evictions each time (~9 µs per send at
   * 30k keys); a batch pays that walk once.
   */
  private trim(now: number): void {
    this.lastSweep = now;
    const over = this.overBounds();
    const keys = over ? Math.floor(this.maxKeys * TRIM_TO) : this.maxKeys;
    const bytes = over ? Math.floor(this.maxBytes * TRIM_TO) : this.maxBytes;
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt > now && this.entries.size <= keys && this.heldBytes <= bytes) return;
      this.remove(id, entry);
    }
  }
}

function keyOf(key: SendKey): string {
  return `${key.principal}\u0000${key.tenant}\u0000${key.messageId}`;
}
