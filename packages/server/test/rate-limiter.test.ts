import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import Redis from 'ioredis';
import { createRateLimiter } from '../src/index.js';

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
});
