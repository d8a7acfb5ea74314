/**
 * Per-agent policy of a multi-agent executor, from each agent's config entry: its own `auth`
 * (a key accepted by agent a is refused by agent b on every binding; an agent without its own
 * keeps the service-level auth), concurrency caps (`maxConcurrentTasks`,
 * `maxConcurrentTasksPerIdentity`: a send past the cap is refused with RESOURCE_EXHAUSTED,
 * HTTP 429 + Retry-After, gRPC RESOURCE_EXHAUSTED) and its own `rateLimit` budgets.
 */
import { A2AErrorCode, callContext, GrpcStatus, silentLogger } from '@a2a-polyglot/core';
import { Role, SendMessageRequest } from '@a2a-polyglot/model';
import type { AgentRow } from '@a2a-polyglot/stores/postgres';
import { WEBSOCKET_SUBPROTOCOL } from '@a2a-polyglot/client';
import { GrpcTransport } from '@a2a-polyglot/client/grpc';
import { TestIdentityProvider } from '@a2a-polyglot/testing';
import { WebSocket } from 'ws';
import { resolveConfig, type ExecutorConfigInput } from '../src/config.js';
import { serviceInstrumentation } from '../src/instrumentation.js';
import { buildRegistryRow } from '../src/registry-row.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { startupWarnings } from '../src/startup-warnings.js';
import { json, postJson, rpc, userMessage, waitFor } from './helpers.js';

let running: RunningExecutor;
const grpcs: GrpcTransport[] = [];

beforeAll(async () => {
  running = await startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      shutdownGraceMs: 200,
      demo: { chunkDelayMs: 0 },
      auth: { apiKeys: { ks: 'service' } },
      agents: [
        { id: 'a', handler: 'demo', auth: { apiKeys: { ka: 'alice' } }, maxConcurrentTasks: 1 },
        { id: 'b', handler: 'demo', auth: { apiKeys: { kb: 'bob', kc: 'carol' } }, maxConcurrentTasksPerIdentity: 1 },
        { id: 'c', handler: 'demo' },
        { id: 'd', handler: 'demo', rateLimit: { identityPoints: 2, identityWindowSec: 3600 } },
      ],
    },
    { logger: silentLogger, env: {} },
  );
});
afterAll(async () => {
  await Promise.all(grpcs.splice(0).map((g) => g.close()));
  await running?.close();
});

/** A gRPC client of the shared port, closed after the suite. */
function grpcClient(): GrpcTransport {
  const grpc = new GrpcTransport({ url: running.grpc!.url });
  grpcs.push(grpc);
  return grpc;
}

const grpcMessage = (text: string) => ({ message: { messageId: crypto.randomUUID(), role: 1, parts: [{ content: { $case: 'text' as const, value: text } }] } });
const jsonRpcSend = (agent: string, key: string, params: Record<string, unknown> = { message: userMessage('hi') }) =>
  postJson(`${running.url}/agents/${agent}/a2a/rpc`, rpc('SendMessage', params), { 'x-api-key': key });
const restSend = (agent: string, key: string, body: Record<string, unknown> = { message: userMessage('hi') }) =>
  postJson(`${running.url}/agents/${agent}/a2a/message:send`, body, { 'x-api-key': key });
const activeRuns = (id: string) => running.agents.find((a) => a.id === id)?.handler.activeRuns ?? -1;

/** Opens a WebSocket to agent `agent` with `key` and answers one SendMessage frame. */
async function webSocketSend(agent: string, key: string): Promise<any> {
  const ws = new WebSocket(`${running.url.replace('http:', 'ws:')}/agents/${agent}/a2a/ws`, [WEBSOCKET_SUBPROTOCOL], {
    headers: { 'A2A-Version': '1.0', 'x-api-key': key },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const reply = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    ws.send(JSON.stringify(rpc('SendMessage', { message: userMessage('over ws') }, 7)));
    return await reply;
  } finally {
    ws.terminate();
  }
}

describe('executor: per-agent auth', () => {
  it('admits an agent’s own key and refuses it on another agent over JSON-RPC and REST', async () => {
    const ok = await jsonRpcSend('a', 'ka');
    expect(ok.status).toBe(200);
    expect((await json(ok)).result).toBeDefined();
    expect((await jsonRpcSend('b', 'ka')).status).toBe(401);
    expect((await jsonRpcSend('a', 'kb')).status).toBe(401);
    expect((await restSend('b', 'kb')).status).toBe(200);
    expect((await restSend('b', 'ka')).status).toBe(401);
    expect((await restSend('a', 'kb')).status).toBe(401);
    // The default agent (a) is served at the root too, with its own auth there as well.
    expect((await postJson(`${running.url}/a2a/message:send`, { message: userMessage('root') }, { 'x-api-key': 'kb' })).status).toBe(401);
    expect((await postJson(`${running.url}/a2a/message:send`, { message: userMessage('root') }, { 'x-api-key': 'ka' })).status).toBe(200);
    // The short alias of the daemon-engine path shape is the same agent.
    expect((await postJson(`${running.url}/b/a2a`, rpc('SendMessage', { message: userMessage('alias') }), { 'x-api-key': 'ka' })).status).toBe(401);
  });

  it('keeps the service-level auth for an agent without its own, and only for it', async () => {
    expect((await restSend('c', 'ks')).status).toBe(200);
    expect((await restSend('c', 'ka')).status).toBe(401);
    expect((await restSend('a', 'ks')).status).toBe(401);
    expect((await restSend('b', 'ks')).status).toBe(401);
  });

  it('declares each agent’s own scheme in its card', async () => {
    const card = await json(await fetch(`${running.url}/agents/b/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } }));
    expect(Object.keys(card.securitySchemes)).toEqual(expect.arrayContaining(['apiKey']));
  });

  it('refuses another agent’s key over gRPC, by tenant and by a2a-agent metadata', async () => {
    const grpc = grpcClient();
    const withKey = (key: string, agent?: string) => ({ headers: { 'x-api-key': key, ...(agent && { 'a2a-agent': agent }) } });
    await expect(grpc.sendMessage({ ...grpcMessage('t'), tenant: 'b' }, withKey('kb'))).resolves.toBeDefined();
    await expect(grpc.sendMessage({ ...grpcMessage('t'), tenant: 'b' }, withKey('ka'))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    await expect(grpc.sendMessage(grpcMessage('m'), withKey('kb', 'b'))).resolves.toBeDefined();
    await expect(grpc.sendMessage(grpcMessage('m'), withKey('ka', 'b'))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    // The root (agent a) admits ka and refuses kb.
    await expect(grpc.sendMessage(grpcMessage('r'), withKey('ka'))).resolves.toBeDefined();
    await expect(grpc.sendMessage(grpcMessage('r'), withKey('kb'))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
  });

  it('refuses another agent’s key over WebSocket', async () => {
    expect((await webSocketSend('b', 'kb')).result).toBeDefined();
    const refused = await webSocketSend('b', 'ka');
    expect(refused.error).toBeDefined();
    expect(refused.error.code).toBe(-31401);
  });
});

describe('executor: per-agent concurrency caps', () => {
  it('refuses a send past maxConcurrentTasks with 429 + Retry-After (HTTP) and RESOURCE_EXHAUSTED (gRPC) until the running task ends', async () => {
    const slow = await json(await restSend('a', 'ka', { message: userMessage('slow'), configuration: { returnImmediately: true } }));
    const taskId = slow.task.id;
    expect(taskId).toBeDefined();
    expect(activeRuns('a')).toBe(1);

    const rest = await restSend('a', 'ka');
    expect(rest.status).toBe(429);
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(await json(rest))).toContain('RESOURCE_EXHAUSTED');

    const jsonRpc = await jsonRpcSend('a', 'ka');
    expect(jsonRpc.status).toBe(429);
    expect(Number(jsonRpc.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await json(jsonRpc)).error.code).toBe(-31429);

    const grpc = grpcClient();
    const refused = await grpc.sendMessage(grpcMessage('one more'), { headers: { 'x-api-key': 'ka' } }).then(
      () => undefined,
      (error: any) => error,
    );
    expect(refused).toMatchObject({ code: A2AErrorCode.ResourceExhausted });
    expect(refused.cause.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);

    // Another agent is not held by a's cap.
    expect((await restSend('b', 'kb')).status).toBe(200);

    const canceled = await postJson(`${running.url}/agents/a/a2a/tasks/${taskId}:cancel`, {}, { 'x-api-key': 'ka' });
    expect(canceled.status).toBe(200);
    await waitFor(() => activeRuns('a') === 0, { what: "agent a's slow run to end" });
    const again = await restSend('a', 'ka');
    expect(again.status).toBe(200);
  });

  it('caps each identity with maxConcurrentTasksPerIdentity; other identities still run', async () => {
    const slow = await json(await restSend('b', 'kb', { message: userMessage('slow'), configuration: { returnImmediately: true } }));
    const taskId = slow.task.id;
    const refused = await restSend('b', 'kb');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    // carol is another identity: her send runs.
    expect((await restSend('b', 'kc')).status).toBe(200);
    expect((await postJson(`${running.url}/agents/b/a2a/tasks/${taskId}:cancel`, {}, { 'x-api-key': 'kb' })).status).toBe(200);
    await waitFor(() => activeRuns('b') === 0, { what: "agent b's slow run to end" });
    expect((await restSend('b', 'kb')).status).toBe(200);
  });
});

describe('executor: per-agent rate limits', () => {
  it("spends the agent's own budget, for that agent only", async () => {
    const list = (agent: string) => fetch(`${running.url}/agents/${agent}/a2a/tasks`, { headers: { 'A2A-Version': '1.0', 'x-api-key': 'ks' } });
    expect((await list('d')).status).toBe(200);
    expect((await list('d')).status).toBe(200);
    const limited = await list('d');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(await json(limited))).toContain('RATE_LIMITED');
    // The identity budget is the agent's on gRPC too.
    const grpc = grpcClient();
    await expect(grpc.getTask({ id: 'none', tenant: 'd' }, { headers: { 'x-api-key': 'ks' } })).rejects.toMatchObject({ code: A2AErrorCode.RateLimited });
    await expect(grpc.getTask({ id: 'none', tenant: 'c' }, { headers: { 'x-api-key': 'ks' } })).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
    // The same identity on an agent without budgets of its own is not limited.
    for (let i = 0; i < 3; i++) expect((await list('c')).status).toBe(200);
  });
});

describe('executor config: per-agent policy keys', () => {
  const agent = (extra: Record<string, unknown>) => ({ agents: [{ id: 'a', handler: 'demo', ...extra }] });

  it('resolves an entry’s auth and rateLimit with the section defaults, and its caps', () => {
    const config = resolveConfig(
      agent({ auth: { apiKeys: { ka: 'alice' } }, rateLimit: { identityPoints: 5 }, maxConcurrentTasks: 3, maxConcurrentTasksPerIdentity: 1 }),
    );
    const [entry] = config.agents;
    expect(entry?.auth).toMatchObject({ apiKeys: { ka: 'alice' }, header: 'x-api-key', jwtRequireExp: true, principalAliases: {} });
    expect(entry?.rateLimit).toMatchObject({ identityPoints: 5, identityWindowSec: 60, addressPoints: 0 });
    expect(entry).toMatchObject({ maxConcurrentTasks: 3, maxConcurrentTasksPerIdentity: 1 });
    expect(resolveConfig(agent({})).agents[0]?.auth).toBeUndefined();
  });

  it('checks the keys like the service-level ones, never echoing an API key', () => {
    expect(() => resolveConfig(agent({ maxConcurrentTasks: 0 }))).toThrow('agents[0].maxConcurrentTasks must be an integer between 1 and 1000000');
    expect(() => resolveConfig(agent({ auth: { jwksUrl: 'https://idp.example.com/jwks' } }))).toThrow(
      'bearer JWTs need agents[0].auth.jwksUrl, agents[0].auth.jwtIssuer and agents[0].auth.jwtAudience together',
    );
    expect(() => resolveConfig(agent({ auth: { principalAliases: { alice: 'x' } } }))).toThrow('agents[0].auth.principalAliases key "alice"');
    let message = '';
    try {
      resolveConfig(agent({ auth: { apiKeys: { 'secret-key-1': '' } } }));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('agents[0].auth.apiKeys');
    expect(message).not.toContain('secret-key-1');
  });

  it('reads the JWT scopes of auth.jwtRequiredScopes', () => {
    expect(resolveConfig({ auth: { jwtRequiredScopes: ['a2a'] } }).auth.jwtRequiredScopes).toEqual(['a2a']);
  });
});

describe('executor: per-agent JWT scopes', () => {
  let idp: TestIdentityProvider;
  let gateway: RunningExecutor;
  let key: Awaited<ReturnType<TestIdentityProvider['newKey']>>;

  beforeAll(async () => {
    idp = await new TestIdentityProvider('https://idp.test', 'a2a-gateway').start();
    key = await idp.newKey('k1', 'ES256');
    idp.published = [key.jwk];
    const jwt = { jwksUrl: idp.jwksUrl, jwtIssuer: idp.issuer, jwtAudience: idp.audience };
    gateway = await startExecutor(
      {
        host: '127.0.0.1',
        port: 0,
        grpcPort: 0,
        demo: { chunkDelayMs: 0 },
        agents: [
          { id: 'quotes', handler: 'demo', auth: { ...jwt, jwtRequiredScopes: ['quotes'] } },
          { id: 'catalog', handler: 'demo', auth: { ...jwt, jwtRequiredScopes: ['catalog'] } },
        ],
      },
      { logger: silentLogger, env: {} },
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await idp?.close();
  });

  it("declares each agent's own JWT scheme in its card, without the API-key schemes", async () => {
    const card = await json(await fetch(`${gateway.url}/agents/catalog/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } }));
    expect(Object.keys(card.securitySchemes)).toEqual(['oauth2Bearer']);
  });

  it("admits a token with the agent's scope and refuses it on the agent that requires another (403 / PERMISSION_DENIED)", async () => {
    const token = await idp.sign(key, { scope: 'quotes' });
    const send = (agent: string) =>
      postJson(`${gateway.url}/agents/${agent}/a2a/message:send`, { message: userMessage('scoped') }, { authorization: `Bearer ${token}` });
    expect((await send('quotes')).status).toBe(200);
    expect((await send('catalog')).status).toBe(403);
    const grpc = new GrpcTransport({ url: gateway.grpc!.url });
    try {
      const headers = { authorization: `Bearer ${token}` };
      await expect(grpc.sendMessage({ ...grpcMessage('g'), tenant: 'quotes' }, { headers })).resolves.toBeDefined();
      await expect(grpc.sendMessage({ ...grpcMessage('g'), tenant: 'catalog' }, { headers })).rejects.toMatchObject({ code: A2AErrorCode.PermissionDenied });
    } finally {
      grpc.close();
    }
  });
});

describe('executor: per-agent policy from an agent registry row', () => {
  it("reads auth and caps from the row's card JSON, checked like a config entry", async () => {
    const config = resolveConfig({ agents: [{ id: 'main', handler: 'demo' }], demo: { chunkDelayMs: 0 } });
    const options = { logger: silentLogger, instrumentation: serviceInstrumentation(false, undefined), env: {} };
    const row: AgentRow = {
      id: 'r',
      handler: 'demo',
      settings: {},
      card: { auth: { apiKeys: { kr: 'rita' } }, maxConcurrentTasks: 1 },
      cardBytes: 64,
      enabled: true,
      updatedAt: new Date().toISOString(),
    };
    const outcome = await buildRegistryRow(row, config, options);
    if (!('agent' in outcome)) throw new Error(`row refused: ${outcome.reason}`);
    const { handler } = outcome.agent;
    const ctx = (key: string) => callContext('IN-PROCESS', { 'a2a-version': '1.0', 'x-api-key': key });
    const send = (key: string) =>
      handler.sendMessage(SendMessageRequest.fromPartial({ message: { ...grpcMessage('row').message, role: Role.ROLE_USER } }), ctx(key));
    await expect(send('kr')).resolves.toBeDefined();
    await expect(send('ks')).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    const bad = await buildRegistryRow({ ...row, card: { auth: { jwtIssuer: 'https://idp.example.com' } } }, config, options);
    expect('reason' in bad && bad.reason).toContain('agent registry row "r" auth.jwksUrl');
  });
});

describe('executor startup warnings with per-agent auth', () => {
  const authWarnings = (agents: ExecutorConfigInput['agents']) =>
    startupWarnings(resolveConfig({ host: '0.0.0.0', publicBaseUrl: 'https://a2a.example.com', agents })).filter((w) => w.includes('no authentication'));

  it('warns about the agents no auth guards, and only those', () => {
    expect(authWarnings([{ id: 'a', handler: 'demo', auth: { apiKeys: { ka: 'alice' } } }])).toEqual([]);
    const [warning, ...rest] = authWarnings([
      { id: 'a', handler: 'demo', auth: { apiKeys: { ka: 'alice' } } },
      { id: 'b', handler: 'demo' },
    ]);
    expect(rest).toEqual([]);
    expect(warning).toContain('with no authentication for agent b:');
  });
});
