import { rateLimited, type RateLimiter, type RateLimitScope } from '@a2a-polyglot/core';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { BoundedRateLimiterMemory, DEFAULT_RATE_LIMIT_MAX_KEYS } from './bounded-memory-limiter.js';

/** One budget: `points` requests per `durationSeconds`, counted per key. */
export interface RateLimitBudget {
  readonly points: number;
  readonly durationSeconds: number;
}

/** Options of {@link createRateLimiter}. */
export interface RateLimitOptions {
  /** Requests per client address (IPv4, or IPv6 /64). No address limit when undefined. */
  readonly perAddress?: RateLimitBudget;
  /** Requests per authenticated identity (principal id). No identity limit when undefined. */
  readonly perIdentity?: RateLimitBudget;
  /**
   * An ioredis client (use one with `enableOfflineQueue: false`): every instance that uses
   * the same Redis and {@link keyPrefix} spends the same budgets. In-process budgets when
   * undefined.
   */
  readonly redis?: unknown;
  /** Prefix of the Redis keys (and of the in-memory ones). Default `a2a:ratelimit`. */
  readonly keyPrefix?: string;
  /**
   * Most client keys (addresses, identities) each budget counts in memory; past it the least
   * recently counted key is forgotten and starts a fresh window (see
   * {@link BoundedRateLimiterMemory}). Bounds the in-memory budgets and, with Redis, their
   * insurance copies. Default {@link DEFAULT_RATE_LIMIT_MAX_KEYS}.
   */
  readonly maxKeys?: number;
}

/**
 * The core's {@link RateLimiter} over `rate-limiter-flexible` (fixed windows, atomic in Redis
 * by a Lua script): in memory, or in Redis to share budgets across instances. While Redis is
 * unreachable each instance falls back to an in-memory copy of the same budget (the library's
 * insurance limiter): an outage neither refuses every request nor lifts the limits. Every
 * in-memory budget holds at most {@link RateLimitOptions.maxKeys} keys. Returns undefined when
 * neither budget is set (rate limiting off).
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter | undefined {
  const prefix = options.keyPrefix ?? 'a2a:ratelimit';
  const maxKeys = options.maxKeys ?? DEFAULT_RATE_LIMIT_MAX_KEYS;
  const limiters: Partial<Record<RateLimitScope, RateLimiterAbstract>> = {};
  if (options.perAddress) limiters.address = limiterFor(`${prefix}:address`, options.perAddress, options.redis, maxKeys);
  if (options.perIdentity) limiters.identity = limiterFor(`${prefix}:identity`, options.perIdentity, options.redis, maxKeys);
  if (!limiters.address && !limiters.identity) return undefined;
  return {
    async consume(scope: RateLimitScope, key: string): Promise<void> {
      const limiter = limiters[scope];
      if (!limiter) return;
      try {
        await limiter.consume(key);
      } catch (refusal) {
        // The library rejects with its result object when the budget is spent; anything else
        // (both Redis and the insurance limiter failing) is a bug worth an Internal.
        if (refusal instanceof RateLimiterRes) throw rateLimited(scope, refusal.msBeforeNext);
        throw refusal;
      }
    },
  };
}

function limiterFor(keyPrefix: string, budget: RateLimitBudget, redis: unknown, maxKeys: number): RateLimiterAbstract {
  const base = { keyPrefix, points: budget.points, duration: budget.durationSeconds };
  const memory = new BoundedRateLimiterMemory(base, maxKeys);
  return redis === undefined ? memory : new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter: memory });
}
