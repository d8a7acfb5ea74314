/**
 * Every agent of a multi-agent executor on every binding: a non-default agent's card lists
 * JSON-RPC, REST, WebSocket and gRPC (v1.0 and v0.3 entries), its WebSocket endpoint is
 * `/agents/{id}/a2a/ws`, and the one gRPC port reaches it by the request's `tenant` (what the
 * card advertises) or by the `a2a-agent` metadata. The default agent keeps its root
 * interfaces unchanged.
 */
import { A2AErrorCode, silentLogger } from '@a2a-polyglot/core';
import { Client, textMessage, WEBSOCKET_BINDING, webSocketTransportFactory, type WebSocketConstructor } from '@a2a-polyglot/client';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { GrpcTransport } from '@a2a-polyglot/client/grpc';
import { resolve, join } from 'node:path';
import { WebSocket } from 'ws';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, partsText, V1 } from './helpers.js';

const EXAMPLES = resolve(__dirname, '../examples');
const WS = WebSocket as unknown as WebSocketConstructor;

const started: RunningExecutor[] = [];
const closers: Array<() => unknown> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await Promise.all(started.splice(0).map((r) => r.close()));
});

async function start(extra: Record<string, unknown> = {}): Promise<RunningExecutor> {
  const running = await startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      ...extra,
      shutdownGraceMs: 200,
      demo: { chunkDelayMs: 0 },
      agents: [
        { id: 'main', handler: 'demo', name: 'Main' },
        { id: 'shout', handler: 'module', name: 'Shouter', settings: { path: join(EXAMPLES, 'echo-agent.js') }, capabilities: { extendedAgentCard: true } },
      ],
    },
    { logger: silentLogger, env: {} },
  );
  started.push(running);
  return running;
}

const userMessage = (text: string) => ({ message: { messageId: crypto.randomUUID(), role: 1, parts: [{ content: { $case: 'text' as const, value: text } }] } });
const answerText = (response: any): string =>
  partsText((response.payload?.value?.artifacts?.[0]?.parts ?? response.payload?.value?.parts ?? []).map((p: any) => ({ text: p.content?.value })));

describe('executor: a non-default agent on every binding', () => {
  it("lists all four bindings in the agent's card, v1.0 first, then the v0.3 ones; the default agent's card is unchanged", async () => {
    const running = await start();
    const grpcPort = running.grpc!.port;
    const card = await json(await fetch(`${running.url}/agents/shout/.well-known/agent-card.json`, { headers: V1 }));
    const host = new URL(running.url).host;
    expect(card.supportedInterfaces).toEqual([
      { url: `http://${host}/agents/shout/a2a/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `http://${host}/agents/shout/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: `ws://${host}/agents/shout/a2a/ws`, protocolBinding: WEBSOCKET_BINDING, protocolVersion: '1.0' },
      { url: `127.0.0.1:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: 'shout' },
      { url: `http://${host}/agents/shout/a2a/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: `http://${host}/agents/shout/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ]);
    // No v0.3 gRPC entry: v0.3 requests carry no tenant, so following one would reach the default agent.
    const root = await json(await fetch(`${running.url}/.well-known/agent-card.json`, { headers: V1 }));
    expect(root.supportedInterfaces.map((i: any) => [i.protocolBinding, i.url, i.protocolVersion, i.tenant ?? ''])).toEqual([
      ['JSONRPC', `http://${host}/a2a/rpc`, '1.0', ''],
      ['HTTP+JSON', `http://${host}/a2a`, '1.0', ''],
      [WEBSOCKET_BINDING, `ws://${host}/a2a/ws`, '1.0', ''],
      ['GRPC', `127.0.0.1:${grpcPort}`, '1.0', ''],
      ['JSONRPC', `http://${host}/a2a/rpc`, '0.3', ''],
      ['HTTP+JSON', `http://${host}/a2a`, '0.3', ''],
      ['GRPC', `127.0.0.1:${grpcPort}`, '0.3', ''],
    ]);
  });

  it("lists the same interfaces in the agent's extended card (public URL configured)", async () => {
    const running = await start({ publicBaseUrl: 'https://agents.example.com', grpcPublicUrl: 'grpc.example.com:443' });
    const extended = await json(await fetch(`${running.url}/agents/shout/a2a/extendedAgentCard`, { headers: V1 }));
    expect(extended.supportedInterfaces.map((i: any) => [i.protocolBinding, i.url, i.protocolVersion, i.tenant ?? ''])).toEqual([
      ['JSONRPC', 'https://agents.example.com/agents/shout/a2a/rpc', '1.0', ''],
      ['HTTP+JSON', 'https://agents.example.com/agents/shout/a2a', '1.0', ''],
      [WEBSOCKET_BINDING, 'wss://agents.example.com/agents/shout/a2a/ws', '1.0', ''],
      ['GRPC', 'grpc.example.com:443', '1.0', 'shout'],
      ['JSONRPC', 'https://agents.example.com/agents/shout/a2a/rpc', '0.3', ''],
      ['HTTP+JSON', 'https://agents.example.com/agents/shout/a2a', '0.3', ''],
    ]);
  });

  it.each(['grpc', 'websocket'] as const)('a client that follows the agent card reaches the agent over %s', async (binding) => {
    const running = await start();
    const client = await Client.connect(`${running.url}/agents/shout`, {
      bindings: [binding],
      transports: { GRPC: grpcTransportFactory, [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WS }) },
    });
    closers.push(() => client.close());
    const answer: any = await client.sendMessage({ message: textMessage('quiet please') });
    expect(answerText(answer)).toBe('Shouter says: QUIET PLEASE');
    // Same agent, same task namespace on every binding: the task is visible over its REST interface.
    const task = answer.payload.value;
    expect((await fetch(`${running.url}/agents/shout/a2a/tasks/${task.id}`, { headers: V1 })).status).toBe(200);
    expect((await fetch(`${running.url}/a2a/tasks/${task.id}`, { headers: V1 })).status).toBe(404);
  });

  it('routes gRPC calls by tenant or a2a-agent metadata; other calls reach the default agent as before', async () => {
    const running = await start();
    const grpc = new GrpcTransport({ url: running.grpc!.url });
    closers.push(() => grpc.close());
    const byTenant = await grpc.sendMessage({ ...userMessage('one'), tenant: 'shout' });
    expect(answerText(byTenant)).toBe('Shouter says: ONE');
    const byMetadata = await grpc.sendMessage(userMessage('two'), { headers: { 'a2a-agent': 'shout' } });
    expect(answerText(byMetadata)).toBe('Shouter says: TWO');
    // With the metadata, the tenant is the agent's own namespace again.
    const tenanted: any = await grpc.sendMessage({ ...userMessage('three'), tenant: 'acme' }, { headers: { 'a2a-agent': 'shout' } });
    await expect(grpc.getTask({ id: tenanted.payload.value.id, tenant: 'acme' }, { headers: { 'a2a-agent': 'shout' } })).resolves.toMatchObject({
      id: tenanted.payload.value.id,
    });
    await expect(grpc.getTask({ id: tenanted.payload.value.id }, { headers: { 'a2a-agent': 'shout' } })).rejects.toMatchObject({
      code: A2AErrorCode.TaskNotFound,
    });
    // Neither: the default agent, whose tenants mean what they always meant.
    const plain: any = await grpc.sendMessage(userMessage('hello'));
    expect(plain.payload.value.id ?? plain.payload.value.taskId).toBeDefined();
    expect(answerText(plain)).not.toContain('Shouter');
    const defaultTenant: any = await grpc.sendMessage({ ...userMessage('hello'), tenant: 'main' });
    expect(answerText(defaultTenant)).not.toContain('Shouter');
    // An unknown agent is refused, never answered by another one.
    await expect(grpc.sendMessage(userMessage('x'), { headers: { 'a2a-agent': 'nobody' } })).rejects.toMatchObject({ code: A2AErrorCode.InvalidParams });
  });

  it('refuses a WebSocket upgrade for an agent that does not exist', async () => {
    const running = await start();
    const ws = new WebSocket(`${running.url.replace('http:', 'ws:')}/agents/nobody/a2a/ws`, ['a2a.v1']);
    const status = await new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => resolve(101));
      ws.once('error', () => undefined);
    });
    ws.terminate();
    expect(status).toBe(404);
  });
});
