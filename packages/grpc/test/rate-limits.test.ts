import { A2AError, A2AErrorCode, rateLimited, type RateLimiter, type RateLimitScope } from '@a2a-polyglot/core';
import { status as GrpcCode } from '@grpc/grpc-js';
import { GrpcSessionClient, GrpcTransport } from './client.js';
import { collect, detailsOf, rawUnary, startTestServer, userMessage, type TestServer } from './helpers.js';

/** Admits `budget` requests, then refuses every scope; records the keys it was asked about. */
class CountingLimiter implements RateLimiter {
  readonly seen: Array<[RateLimitScope, string]> = [];
  constructor(public budget: number) {}
  async consume(scope: RateLimitScope, key: string): Promise<void> {
    this.seen.push([scope, key]);
    if (this.budget-- <= 0) throw rateLimited(scope, 2500);
  }
}

describe('rate limits on the gRPC binding', () => {
  let t: TestServer;
  let limiter: CountingLimiter;
  let client: GrpcTransport;

  beforeEach(async () => {
    limiter = new CountingLimiter(1);
    t = await startTestServer({ handler: { rateLimiter: limiter } });
    client = new GrpcTransport({ url: t.url });
  });
  afterEach(async () => {
    client.close();
    await t.close();
  });

  it('answers RESOURCE_EXHAUSTED with our ErrorInfo (RATE_LIMITED, retryAfterSeconds) and counts the peer address', async () => {
    await client.listTasks({});
    expect(limiter.seen).toEqual([['address', '127.0.0.1']]);
    const raw = await rawUnary(t.url, '/lf.a2a.v1.A2AService/ListTasks', Buffer.alloc(0));
    expect(raw.error?.code).toBe(GrpcCode.RESOURCE_EXHAUSTED);
    const details = detailsOf(raw.error!);
    expect(details.info).toMatchObject({ reason: 'RATE_LIMITED', domain: 'a2a-polyglot', metadata: { retryAfterSeconds: '3', scope: 'address' } });
    // Our client rebuilds the same A2AError.
    const error = await client.getTask({ id: 'x' }).catch((e: unknown) => e as A2AError);
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).code).toBe(A2AErrorCode.RateLimited);
    expect((error as A2AError).metadata.retryAfterSeconds).toBe('3');
  });

  it('spends the address point before decoding: undecodable requests spend it, a refused call is not decoded', async () => {
    limiter.budget = 3;
    // 0xff: field 31 with wire type 7, which no protobuf message has.
    const garbage = Buffer.from([0xff, 0xff, 0xff]);
    for (const path of ['/lf.a2a.v1.A2AService/ListTasks', '/lf.a2a.v1.A2AService/SendStreamingMessage', '/a2a.v1.A2AService/GetTask']) {
      const metadata = path.startsWith('/a2a.v1.') ? {} : undefined;
      expect((await rawUnary(t.url, path, garbage, metadata)).error?.code).toBe(GrpcCode.INVALID_ARGUMENT);
    }
    expect(limiter.seen).toEqual(Array(3).fill(['address', '127.0.0.1']));
    // Over budget, the same bytes are refused, not decoded.
    const refused = await rawUnary(t.url, '/lf.a2a.v1.A2AService/SendStreamingMessage', garbage);
    expect(refused.error?.code).toBe(GrpcCode.RESOURCE_EXHAUSTED);
    expect(detailsOf(refused.error!).info).toMatchObject({ reason: 'RATE_LIMITED' });
    expect(limiter.seen).toHaveLength(4);
  });

  it('refuses a stream before it opens, with the same status', async () => {
    await client.listTasks({});
    const error = await collect(client.sendStreamingMessage(userMessage('hello'))).catch((e: unknown) => e as A2AError);
    expect((error as A2AError).code).toBe(A2AErrorCode.RateLimited);
    expect(t.handler.activeRuns).toBe(0);
  });

  it('session service: the refused operation fails with RATE_LIMITED, the session keeps serving', async () => {
    const session = new GrpcSessionClient({ url: t.url });
    try {
      await session.list({});
      const error = await session.list({}).catch((e: unknown) => e as A2AError);
      expect(error).toMatchObject({ code: A2AErrorCode.RateLimited, metadata: { scope: 'address' } });
      expect(limiter.seen.map(([scope, key]) => `${scope}:${key}`)).toEqual(['address:127.0.0.1', 'address:127.0.0.1']);
      // Still open: the next operation is answered (refused again, not cut).
      expect(await session.list({}).catch((e: unknown) => (e as A2AError).code)).toBe(A2AErrorCode.RateLimited);
    } finally {
      await session.close();
    }
  });
});
