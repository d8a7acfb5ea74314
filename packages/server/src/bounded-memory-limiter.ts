import { LRUCache } from 'lru-cache';
import { type IRateLimiterOptions, RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Most client keys one in-memory budget holds by default. Measured with rate-limiter-flexible
 * 11.4 on Node 20 (heap after GC): a key costs about 450 bytes (its record, its expiry timer,
 * the Map entry), so the default caps one budget at about 5 MB, where without a cap 100 000
 * client addresses took 43 MB and 300 000 took 134 MB.
 */
export const DEFAULT_RATE_LIMIT_MAX_KEYS = 10_000;

/**
 * A `RateLimiterMemory` that holds at most `maxKeys` keys.
 *
 * Why: the library's memory store is a Map with one timer per key that only drops a key when
 * its window ends, and it has no size option, so a client that rotates addresses (any IPv6
 * host with a /48 has 65 536 /64 networks) grows it without bound within a window. Here an LRU
 * list of the keys (`lru-cache`) deletes the least recently counted key's record when a new key
 * would exceed the cap: that key starts a fresh window when it comes back. Evicting a heavy
 * user takes `maxKeys` admitted requests from as many other keys in between, so the cap does
 * not open a way around the limit; it only forgets the quietest clients.
 *
 * The same class is the insurance limiter of the Redis budgets (the library calls its
 * `consume` while Redis is unreachable), so that copy is bounded too.
 */
export class BoundedRateLimiterMemory extends RateLimiterMemory {
  private readonly keys: LRUCache<string, true>;

  constructor(options: IRateLimiterOptions, maxKeys: number) {
    super(options);
    this.keys = new LRUCache<string, true>({
      max: maxKeys,
      dispose: (_value, key, reason) => {
        // Only an eviction frees a record here; the library expires records itself.
        if (reason === 'evict') void this.delete(key);
      },
    });
  }

  /** Counts `key` as most recently used (evicting the least recent one when full), then consumes. */
  override consume(key: string | number, pointsToConsume?: number, options?: Record<string, unknown>): Promise<RateLimiterRes> {
    this.keys.set(String(key), true);
    return super.consume(key, pointsToConsume, options);
  }
}
