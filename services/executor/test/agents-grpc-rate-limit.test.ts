/**
 * Per-agent address budgets over gRPC: one port serves every agent, and each call spends the
 * address point of the agent that serves it (as on JSON-RPC, REST and WebSocket, where the
 * path names the agent), whether it names that agent in `a2a-agent` metadata (charged before
 * the request is decoded) or by its request's `tenant` (charged once decoded, before it runs).
 * Agent b's small budget refuses b's calls with RESOURCE_EXHAUSTED at its limit, and spends
 * nothing of the default agent a's own budget, which a's calls use up by themselves.
 */
import { A2AErrorCode, GrpcStatus, silentLogger } from '@a2a-polyglot/core';
import { GrpcTransport, type GrpcEventStream } from '@a2a-polyglot/client/grpc';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';

const B_POINTS = 6;
const A_POINTS = 7;

let running: RunningExecutor;
let grpc: GrpcTransport;

beforeAll(async () => {
  running = await startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      shutdownGraceMs: 200,
      agents: [
        { id: 'a', handler: 'demo', rateLimit: { addressPoints: A_POINTS, addressWindowSec: 3600 } },
        { id: 'b', handler: 'demo', rateLimit: { addressPoints: B_POINTS, addressWindowSec: 3600 } },
      ],
    },
    { logger: silentLogger, env: {} },
  );
  grpc = new GrpcTransport({ url: running.grpc!.url });
});
afterAll(async () => {
  await grpc?.close();
  await running?.close();
});

/** The error a call ends with (undefined: it succeeded). */
async function failure(call: Promise<unknown>): Promise<any> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** The error a server stream ends with. */
async function streamFailure(stream: GrpcEventStream): Promise<any> {
  return failure(
    (async () => {
      for await (const _ of stream);
    })(),
  );
}

const byMetadata = (agent: string) => ({ headers: { 'a2a-agent': agent } });

/** Every way of calling agent b over gRPC: unary and streaming, by metadata and by tenant. */
const bCalls = [
  () => failure(grpc.getTask({ id: 'none' }, byMetadata('b'))),
  () => failure(grpc.getTask({ id: 'none', tenant: 'b' })),
  () => streamFailure(grpc.subscribeToTask({ id: 'none' }, byMetadata('b'))),
  () => streamFailure(grpc.subscribeToTask({ id: 'none', tenant: 'b' })),
];

describe('executor: per-agent address budgets over gRPC', () => {
  it("refuses b's calls at b's limit, by metadata and by tenant, and leaves a's budget to a", async () => {
    // b's budget: every kind of call spends one of its points (a call within it reaches b's core).
    const within = [...bCalls, ...bCalls.slice(0, 2)];
    expect(within).toHaveLength(B_POINTS);
    for (const call of within) expect(await call()).toMatchObject({ code: A2AErrorCode.TaskNotFound });
    for (const call of bCalls) {
      const refused = await call();
      expect(refused).toMatchObject({ code: A2AErrorCode.RateLimited });
      expect(refused.cause.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    }
    // a's calls (the root, and a named in metadata) still pass: b's calls spent none of a's points...
    for (let i = 0; i < A_POINTS - 1; i++) expect(await failure(grpc.getTask({ id: 'none' }))).toMatchObject({ code: A2AErrorCode.TaskNotFound });
    expect(await failure(grpc.getTask({ id: 'none' }, byMetadata('a')))).toMatchObject({ code: A2AErrorCode.TaskNotFound });
    // ...and a's own budget holds for a.
    expect(await failure(grpc.getTask({ id: 'none' }))).toMatchObject({ code: A2AErrorCode.RateLimited });
  });
});
