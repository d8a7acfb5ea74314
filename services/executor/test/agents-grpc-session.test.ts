/**
 * The experimental gRPC session service of a multi-agent gateway routes like the standard
 * service: a session opened with `a2a-agent: <id>` metadata serves that agent for every
 * operation (an unknown id refuses the session with INVALID_ARGUMENT), a session without it
 * routes each operation by its request's `tenant` (consumed: the agent sees `''`, the namespace
 * of its JSON-RPC interface), else to the default agent. The routed agent's API keys and
 * address budget apply to each operation, as on its other bindings.
 */
import { A2AErrorCode, silentLogger } from '@a2a-polyglot/core';
import { GrpcSessionClient } from '@a2a-polyglot/client/grpc';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { GATEWAY_LISTENERS } from './conformance-gateway.js';
import { json, postJson, rpc } from './helpers.js';

const C_POINTS = 4;

let running: RunningExecutor;
const sessions: GrpcSessionClient[] = [];

beforeAll(async () => {
  running = await startExecutor(
    {
      ...GATEWAY_LISTENERS,
      demo: { chunkDelayMs: 0 },
      agents: [
        { id: 'a', handler: 'demo', auth: { apiKeys: { ka: 'alice' } } },
        { id: 'b', handler: 'demo', auth: { apiKeys: { kb: 'bob' } } },
        { id: 'c', handler: 'demo', rateLimit: { addressPoints: C_POINTS, addressWindowSec: 3600 } },
      ],
    },
    { logger: silentLogger, env: {} },
  );
});
afterEach(() => {
  for (const session of sessions.splice(0)) session.destroy();
});
afterAll(async () => {
  await running?.close();
});

/** A session on the gateway's gRPC port with these metadata entries, dropped after the test. */
function openSession(headers: Record<string, string>): GrpcSessionClient {
  const session = new GrpcSessionClient({ url: running.grpc!.url, headers });
  sessions.push(session);
  return session;
}

const grpcMessage = (text: string) => ({ message: { messageId: crypto.randomUUID(), role: 1, parts: [{ content: { $case: 'text' as const, value: text } }] } });

/** Sends one message over the session and returns the id of the task it made. */
async function sendTask(session: GrpcSessionClient, extra: { tenant?: string } = {}): Promise<string> {
  const response = await session.send({ ...grpcMessage('hello'), ...extra });
  const payload = response.payload;
  if (payload?.$case === 'task') return payload.value.id;
  if (payload?.$case === 'message' && payload.value.taskId) return payload.value.taskId;
  throw new Error(`no task in ${JSON.stringify(response)}`);
}

/** GetTask over the JSON-RPC interface at `path` (`/agents/b/a2a/rpc`, or the default agent's `/a2a/rpc`). */
async function jsonRpcGet(path: string, key: string, id: string): Promise<any> {
  return json(await postJson(`${running.url}${path}`, rpc('GetTask', { id }), { 'x-api-key': key }));
}

/** The error a session operation failed with (undefined: it succeeded). */
function failure(operation: Promise<unknown>): Promise<any> {
  return operation.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('executor: the gRPC session routes each operation to its agent', () => {
  it.each([
    ['a2a-agent metadata', { 'a2a-agent': 'b' }, {}],
    ['request tenant', {}, { tenant: 'b' }],
  ] as const)('a task sent to b by %s lands on b, and only there', async (_how, metadata, tenant) => {
    const session = openSession({ 'x-api-key': 'kb', ...metadata });
    const taskId = await sendTask(session, tenant);
    // The same session's later operations reach b too, whose tenant '' holds the task.
    await expect(session.get({ id: taskId, ...tenant })).resolves.toMatchObject({ id: taskId });
    // b's JSON-RPC interface (tenant '') finds it; the default agent's does not.
    expect((await jsonRpcGet('/agents/b/a2a/rpc', 'kb', taskId)).result).toMatchObject({ id: taskId });
    expect((await jsonRpcGet('/a2a/rpc', 'ka', taskId)).error).toMatchObject({ code: -32001 });
    // Agent a, over a session of its own, cannot see it either.
    const asA = openSession({ 'x-api-key': 'ka', 'a2a-agent': 'a' });
    expect(await failure(asA.get({ id: taskId }))).toMatchObject({ code: A2AErrorCode.TaskNotFound });
  });

  it('serves the default agent when neither metadata nor tenant names another one', async () => {
    const session = openSession({ 'x-api-key': 'ka' });
    const taskId = await sendTask(session);
    expect((await jsonRpcGet('/a2a/rpc', 'ka', taskId)).result).toMatchObject({ id: taskId });
    expect((await jsonRpcGet('/agents/b/a2a/rpc', 'kb', taskId)).error).toMatchObject({ code: -32001 });
  });

  it('refuses a session naming an agent not served here, before any operation', async () => {
    const session = openSession({ 'x-api-key': 'kb', 'a2a-agent': 'nobody' });
    expect(await failure(session.get({ id: 'none' }))).toMatchObject({ code: A2AErrorCode.InvalidParams });
    expect(await session.closed).toMatchObject({ code: A2AErrorCode.InvalidParams });
  });

  it("holds b's API keys over the session: a's key is refused by b, by metadata and by tenant", async () => {
    const byMetadata = openSession({ 'x-api-key': 'ka', 'a2a-agent': 'b' });
    expect(await failure(byMetadata.send(grpcMessage('m')))).toMatchObject({ code: A2AErrorCode.Unauthenticated });
    const byTenant = openSession({ 'x-api-key': 'ka' });
    expect(await failure(byTenant.send({ ...grpcMessage('t'), tenant: 'b' }))).toMatchObject({ code: A2AErrorCode.Unauthenticated });
    // The same session still reaches the default agent a, which admits ka.
    await expect(sendTask(byTenant)).resolves.toEqual(expect.any(String));
    // And b's key is refused by a.
    const bOnA = openSession({ 'x-api-key': 'kb' });
    expect(await failure(bOnA.send(grpcMessage('r')))).toMatchObject({ code: A2AErrorCode.Unauthenticated });
  });

  it("spends c's address budget for c's operations, by metadata and by tenant, and refuses them at its limit", async () => {
    const byMetadata = openSession({ 'a2a-agent': 'c' });
    const byTenant = openSession({});
    const calls = [() => failure(byMetadata.get({ id: 'none' })), () => failure(byTenant.get({ id: 'none', tenant: 'c' }))];
    for (let i = 0; i < C_POINTS; i++) expect(await calls[i % 2]!()).toMatchObject({ code: A2AErrorCode.TaskNotFound });
    for (const call of calls) expect(await call()).toMatchObject({ code: A2AErrorCode.RateLimited });
    // The default agent a (no address budget) is not refused on the same session.
    expect(await failure(byTenant.get({ id: 'none' }))).toMatchObject({ code: A2AErrorCode.Unauthenticated });
  });
});
