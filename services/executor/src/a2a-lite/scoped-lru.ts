import { LRUCache } from 'lru-cache';

/** The bounds of a {@link ScopedLru}. */
export interface ScopedLruLimits {
  /** Entries kept in all scopes together. */
  readonly maxEntries: number;
  /** Entries one scope keeps at most: a full scope forgets its own oldest entry first. */
  readonly maxEntriesPerScope: number;
  /** Bytes kept in all scopes together, as `sizeOf` counts them; unset: only entries are counted. */
  readonly maxBytes?: number;
}

/** What a {@link ScopedLru} is built with. */
export interface ScopedLruOptions<V> extends ScopedLruLimits {
  /** The bytes an entry counts for (required with `maxBytes`). */
  readonly sizeOf?: (value: V) => number;
  /** Called when an entry leaves (evicted to make room, or deleted), not when it is replaced. */
  readonly onRemove?: (scope: string, key: string, value: V) => void;
}

/** One cached value and where it belongs. */
interface Slot<V> {
  readonly scope: string;
  readonly key: string;
  readonly value: V;
}

/**
 * A least-recently-used cache (lru-cache, bounded by entries and bytes) whose entries belong
 * to scopes: one per principal in the A2A-Lite caches. Keys are separate per scope, so one
 * caller can neither read nor replace another's entry, and each scope has its own entry
 * quota, so a caller that fills its share evicts its own oldest entries rather than another
 * caller's. Only the overall bounds (entries, bytes) are shared.
 */
export class ScopedLru<V> {
  private readonly cache: LRUCache<string, Slot<V>>;
  private readonly counts = new Map<string, number>();
  private readonly perScope: number;
  private readonly fits: (value: V) => boolean;

  constructor(options: ScopedLruOptions<V>) {
    this.perScope = options.maxEntriesPerScope;
    const { sizeOf, onRemove, maxBytes } = options;
    // lru-cache drops an entry larger than its maxSize with the reason of a replacement; refusing it here keeps the counts right.
    this.fits = maxBytes !== undefined && sizeOf ? (value) => sizeOf(value) <= maxBytes : () => true;
    this.cache = new LRUCache<string, Slot<V>>({
      max: options.maxEntries,
      ...(options.maxBytes !== undefined && sizeOf && { maxSize: options.maxBytes, sizeCalculation: (slot) => Math.max(1, sizeOf(slot.value)) }),
      onInsert: (slot, _key, reason) => {
        if (reason === 'add') this.counts.set(slot.scope, (this.counts.get(slot.scope) ?? 0) + 1);
      },
      dispose: (slot, _key, reason) => {
        if (reason === 'set') return;
        const left = (this.counts.get(slot.scope) ?? 1) - 1;
        if (left > 0) this.counts.set(slot.scope, left);
        else this.counts.delete(slot.scope);
        onRemove?.(slot.scope, slot.key, slot.value);
      },
    });
  }

  /** The value of `key` in `scope` (it becomes the most recently used), or undefined. */
  get(scope: string, key: string): V | undefined {
    return this.cache.get(slotKey(scope, key))?.value;
  }

  /**
   * Keeps `value` as `key` of `scope`, evicting the scope's own oldest entry when the scope is
   * full, then the least recently used entries of any scope past the overall bounds. False
   * (and nothing changed) for a value larger than `maxBytes` on its own.
   */
  set(scope: string, key: string, value: V): boolean {
    if (!this.fits(value)) return false;
    const id = slotKey(scope, key);
    if (!this.cache.has(id) && (this.counts.get(scope) ?? 0) >= this.perScope) this.evictOldestOf(scope);
    this.cache.set(id, { scope, key, value });
    return true;
  }

  /** Entries kept now, in all scopes. */
  get size(): number {
    return this.cache.size;
  }

  /** Bytes kept now, in all scopes (0 without `maxBytes`). */
  get bytes(): number {
    return this.cache.calculatedSize ?? 0;
  }

  /** The least recently used entry of `scope` leaves (an O(entries) walk, only when a scope is full). */
  private evictOldestOf(scope: string): void {
    for (const id of this.cache.rkeys()) {
      if (this.cache.peek(id)?.scope !== scope) continue;
      this.cache.delete(id);
      return;
    }
  }
}

/** One string per (scope, key) pair: JSON keeps any two pairs apart, whatever characters they hold. */
function slotKey(scope: string, key: string): string {
  return JSON.stringify([scope, key]);
}
