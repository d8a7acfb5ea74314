import {
  A2AError,
  A2AErrorCode,
  ApiKeyAuthenticator,
  callContext,
  ERROR_TABLE,
  GrpcStatus,
  rateLimited,
  RequestHandler,
  retryAfterSeconds,
  silentLogger,
  type RateLimiter,
  type RateLimitScope,
} from '../src/index.js';
import { addressBudgetKey } from '../src/rate-limit.js';
import { testAgentCard, userSend } from '@a2a-polyglot/testing';

/** Records every budget spent; refuses the scopes listed in `refuse`. */
class RecordingLimiter implements RateLimiter {
  readonly spent: Array<[RateLimitScope, string]> = [];
  refuse = new Set<RateLimitScope>();
  async consume(scope: RateLimitScope, key: string): Promise<void> {
    this.spent.push([scope, key]);
    if (this.refuse.has(scope)) throw rateLimited(scope, 1200);
  }
}

const handlerWith = (limiter: RateLimiter) =>
  new RequestHandler({
    card: testAgentCard(),
    executor: { execute: async (c) => c.complete('done') },
    authenticator: new ApiKeyAuthenticator({ keys: { ka: 'alice' } }),
    rateLimiter: limiter,
    logger: silentLogger,
  });

const ctx = (key: string, remoteAddress?: string) => callContext('IN-PROCESS', { 'a2a-version': '1.0', 'x-api-key': key }, { remoteAddress });

async function failure(call: Promise<unknown>): Promise<A2AError> {
  try {
    await call;
  } catch (error) {
    return error as A2AError;
  }
  throw new Error('expected a failure');
}

describe('the rate-limit seam', () => {
  it('has one row in the error table: HTTP 429, gRPC RESOURCE_EXHAUSTED, its own JSON-RPC code in both generations', () => {
    expect(ERROR_TABLE[A2AErrorCode.RateLimited]).toMatchObject({
      http: 429,
      grpc: GrpcStatus.RESOURCE_EXHAUSTED,
      jsonRpc: -31430,
      v03: { jsonRpc: -31430, name: 'RateLimitedError' },
    });
  });

  it('refuses with RateLimited carrying the wait in whole seconds (at least 1) and the scope', () => {
    const error = rateLimited('identity', 1200);
    expect(error.code).toBe(A2AErrorCode.RateLimited);
    expect(error.metadata).toEqual({ retryAfterSeconds: '2', scope: 'identity' });
    expect(retryAfterSeconds(error)).toBe(2);
    expect(retryAfterSeconds(rateLimited('address', 3))).toBe(1);
    expect(retryAfterSeconds(new A2AError(A2AErrorCode.ResourceExhausted))).toBeUndefined();
  });

  it('keys addresses by IPv4, the IPv4 inside a mapped IPv6 address, or the IPv6 /64', () => {
    expect(addressBudgetKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBudgetKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBudgetKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBudgetKey('2001:db8:1:2:bbbb::9')).toBe(addressBudgetKey('2001:db8:1:2:aaaa::1'));
    expect(addressBudgetKey('not-an-ip')).toBe('not-an-ip');
  });

  it('spends the address budget before authentication and the identity budget after it', async () => {
    const limiter = new RecordingLimiter();
    const handler = handlerWith(limiter);
    await handler.getTask({ tenant: '', id: 'x', historyLength: undefined }, ctx('ka', '::ffff:198.51.100.1')).catch(() => undefined);
    expect(limiter.spent).toEqual([
      ['address', '198.51.100.1'],
      ['identity', 'key:alice'],
    ]);
    // Bad credentials still spend the address budget (brute force is limited), never an identity one.
    limiter.spent.length = 0;
    expect((await failure(handler.listTasks({ tenant: '' } as never, ctx('wrong', '198.51.100.1')))).code).toBe(A2AErrorCode.Unauthenticated);
    expect(limiter.spent).toEqual([['address', '198.51.100.1']]);
  });

  it('refuses the operation with RateLimited when a budget is spent, before any work', async () => {
    const limiter = new RecordingLimiter();
    const handler = handlerWith(limiter);
    limiter.refuse.add('identity');
    const error = await failure(handler.sendMessage(userSend('hi'), ctx('ka', '198.51.100.1')));
    expect(error.code).toBe(A2AErrorCode.RateLimited);
    expect(error.metadata.scope).toBe('identity');
    expect(handler.activeRuns).toBe(0);
  });

  it('counts nothing without an address or a limiter', async () => {
    const limiter = new RecordingLimiter();
    await handlerWith(limiter).listTasks({ tenant: '' } as never, ctx('ka'));
    expect(limiter.spent).toEqual([['identity', 'key:alice']]);
    expect(handlerWith(limiter).chargeArrival('JSONRPC', undefined)).toBeUndefined();
    const unlimited = new RequestHandler({ card: testAgentCard(), executor: { execute: async (c) => c.complete('done') }, logger: silentLogger });
    expect(unlimited.chargeArrival('JSONRPC', '198.51.100.1')).toBeUndefined();
  });

  it('chargeArrival spends the address point of an arriving request; its call then spends none, the identity one still', async () => {
    const limiter = new RecordingLimiter();
    const refused: Array<[string, A2AErrorCode]> = [];
    const handler = new RequestHandler({
      card: testAgentCard(),
      executor: { execute: async (c) => c.complete('done') },
      authenticator: new ApiKeyAuthenticator({ keys: { ka: 'alice' } }),
      rateLimiter: limiter,
      observer: { operationStarted: () => ({ done: () => undefined }), requestRefused: (binding, error) => refused.push([binding, error.code]) },
      logger: silentLogger,
    });
    await handler.chargeArrival('JSONRPC', '::ffff:198.51.100.1');
    const charged = callContext('JSONRPC', { 'a2a-version': '1.0', 'x-api-key': 'ka' }, { remoteAddress: '198.51.100.1', addressCharged: true });
    await handler.listTasks({ tenant: '' } as never, charged);
    expect(limiter.spent).toEqual([
      ['address', '198.51.100.1'],
      ['identity', 'key:alice'],
    ]);
    // A refusal on arrival rejects with RateLimited and is reported, as no operation sees it.
    limiter.refuse.add('address');
    const error = await failure(handler.chargeArrival('GRPC', '198.51.100.1') ?? Promise.resolve());
    expect(error).toMatchObject({ code: A2AErrorCode.RateLimited, metadata: { scope: 'address' } });
    expect(refused).toEqual([['GRPC', A2AErrorCode.RateLimited]]);
  });
});
