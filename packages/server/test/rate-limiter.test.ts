import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import Redis from 'ioredis';
import { BoundedRateLimiterMemory } from '../src/bounded-memory-limiter.js';
import { createRateLimiter, DEFAULT_RATE_LIMIT_MAX_KEYS } from '../src/index.js';

async function refusal(call: Promise<unknown>): Promise<A2AError> {
  try {
    await call;
  } catch (error) {
    return error as A2AError;
  }
  throw new Error('expected a refusal');
}

describe('createRateLimiter (rate-limiter-flexible, in memory)', () => {
  it('is off when no budget is configured', () => {
    expect(createRateLimiter({})).toBeUndefined();
  });

  it('admits `points` requests per key and window, then refuses with RateLimited and the wait', async () => {
    const limiter = createRateLimiter({ perAddress: { points: 2, durationSeconds: 60 }, keyPrefix: 'unit-a' })!;
    await limiter.consume('address', '198.51.100.1');
    await limiter.consume('address', '198.51.100.1');
    const error = await refusal(limiter.consume('address', '198.51.100.1'));
    expect(error).toBeInstanceOf(A2AError);
    expect(error.code).toBe(A2AErrorCode.RateLimited);
    expect(Number(error.metadata.retryAfterSeconds)).toBeGreaterThanOrEqual(59);
    expect(Number(error.metadata.retryAfterSeconds)).toBeLessThanOrEqual(60);
    // Another address has its own budget.
    await limiter.consume('address', '198.51.100.2');
  });

  it('keeps the address and identity budgets apart, and leaves an unconfigured scope unlimited', async () => {
    const limiter = createRateLimiter({ perIdentity: { points: 1, durationSeconds: 60 }, keyPrefix: 'unit-b' })!;
    await limiter.consume('identity', 'alice');
    expect((await refusal(limiter.consume('identity', 'alice'))).metadata.scope).toBe('identity');
    await limiter.consume('identity', 'bob');
    for (let i = 0; i < 10; i++) await limiter.consume('address', 'alice');
  });

  it('counts at most maxKeys keys per budget: the least recently counted one starts a fresh window', async () => {
    const limiter = createRateLimiter({ perAddress: { points: 1, durationSeconds: 60 }, maxKeys: 2, keyPrefix: 'unit-cap' })!;
    await limiter.consume('address', '198.51.100.1');
    expect((await refusal(limiter.consume('address', '198.51.100.1'))).code).toBe(A2AErrorCode.RateLimited);
    await limiter.consume('address', '198.51.100.2');
    await limiter.consume('address', '198.51.100.3'); // a third key: .1, the least recent, is forgotten
    await limiter.consume('address', '198.51.100.1'); // …so it has a fresh window (and .2 is forgotten)
    expect((await refusal(limiter.consume('address', '198.51.100.3'))).code).toBe(A2AErrorCode.RateLimited);
    expect((await refusal(limiter.consume('address', '198.51.100.1'))).code).toBe(A2AErrorCode.RateLimited);
  });

  it('holds no more than maxKeys records in memory, however many clients come (default 10 000)', async () => {
    expect(DEFAULT_RATE_LIMIT_MAX_KEYS).toBe(10_000);
    const limiter = new BoundedRateLimiterMemory({ points: 5, duration: 60, keyPrefix: 'unit-bound' }, 100);
    for (let i = 0; i < 5000; i++) await limiter.consume(`10.0.${i >> 8}.${i & 255}`);
    // The library's store (a Map of records, each with its expiry timer) is private: read it to see the bound.
    expect((limiter as any)._memoryStorage._storage.size).toBe(100);
  });

  it('keeps limiting in memory while its Redis is unreachable (insurance limiter)', async () => {
    // Nothing listens on port 1: every Redis command fails at once (no offline queue).
    const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    try {
      const limiter = createRateLimiter({ perAddress: { points: 2, durationSeconds: 60 }, redis, keyPrefix: 'unit-down' })!;
      await limiter.consume('address', '198.51.100.9');
      await limiter.consume('address', '198.51.100.9');
      expect((await refusal(limiter.consume('address', '198.51.100.9'))).code).toBe(A2AErrorCode.RateLimited);
    } finally {
      redis.disconnect();
    }
  });

  it('bounds the insurance copy too: maxKeys applies while Redis is unreachable', async () => {
    const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    try {
      const limiter = createRateLimiter({ perAddress: { points: 1, durationSeconds: 60 }, redis, maxKeys: 1, keyPrefix: 'unit-down-cap' })!;
      await limiter.consume('address', '198.51.100.9');
      expect((await refusal(limiter.consume('address', '198.51.100.9'))).code).toBe(A2AErrorCode.RateLimited);
      await limiter.consume('address', '198.51.100.10');
      await limiter.consume('address', '198.51.100.9');
    } finally {
      redis.disconnect();
    }
  });
});
