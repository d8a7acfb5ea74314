/**
 * The executor's switch of the experimental A2A 1.1 draft (`protocol.experimental11`): off by
 * default (calls naming 1.1 are refused, the card lists no 1.1 interface); on, the card lists
 * every 1.0 interface (JSON-RPC, REST, WebSocket, gRPC) again as 1.1 and calls naming 1.1 get
 * task generations, while 1.0 calls are answered exactly as before.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, postJson, userMessage, V1 } from './helpers.js';

const started: RunningExecutor[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

async function start(extra: Record<string, unknown> = {}): Promise<RunningExecutor> {
  const running = await startExecutor(
    { host: '127.0.0.1', port: 0, grpcPort: 0, demo: { chunkDelayMs: 0 }, shutdownGraceMs: 200, ...extra },
    { logger: silentLogger, env: {} },
  );
  started.push(running);
  return running;
}

const V11 = { 'A2A-Version': '1.1' };
const versions = (card: { supportedInterfaces: Array<{ protocolBinding: string; protocolVersion: string }> }) =>
  card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`);

describe('executor: protocol.experimental11', () => {
  it('off (default): 1.1 is refused and not in the card', async () => {
    const running = await start();
    const card = await json(await fetch(`${running.url}/.well-known/agent-card.json`, { headers: V1 }));
    expect(versions(card).filter((v) => v.endsWith(' 1.1'))).toEqual([]);
    const res = await postJson(`${running.url}/a2a/message:send`, { message: userMessage('hi') }, V11);
    expect(res.status).toBe(400);
    expect((await json(res)).error.details[0].reason).toBe('VERSION_NOT_SUPPORTED');
  });

  it('on: every 1.0 interface is listed again as 1.1; 1.1 calls get generations, 1.0 calls do not', async () => {
    const running = await start({ protocol: { experimental11: true } });
    const card = await json(await fetch(`${running.url}/.well-known/agent-card.json`, { headers: V1 }));
    expect(versions(card)).toEqual([
      'JSONRPC 1.0',
      'HTTP+JSON 1.0',
      'urn:a2a-polyglot:binding:websocket:v1 1.0',
      'GRPC 1.0',
      'JSONRPC 1.1',
      'HTTP+JSON 1.1',
      'urn:a2a-polyglot:binding:websocket:v1 1.1',
      'GRPC 1.1',
      'JSONRPC 0.3',
      'HTTP+JSON 0.3',
      'GRPC 0.3',
    ]);
    const sent = await json(await postJson(`${running.url}/a2a/message:send`, { message: userMessage('ask') }, V11));
    expect(sent.task).toMatchObject({ status: { state: 'TASK_STATE_INPUT_REQUIRED' }, generation: '2' });
    const plain = await json(await fetch(`${running.url}/a2a/tasks/${sent.task.id}`, { headers: V1 }));
    expect(plain.generation).toBeUndefined();
    const stale = await postJson(
      `${running.url}/a2a/message:send`,
      { message: userMessage('blue', { taskId: sent.task.id }), configuration: { ifGenerationMatch: '1' } },
      V11,
    );
    expect(stale.status).toBe(409);
    expect((await json(stale)).error).toMatchObject({
      status: 'ABORTED',
      details: [{ reason: 'TASK_GENERATION_MISMATCH', domain: 'a2a-protocol.org', metadata: { expectedGeneration: '1', currentGeneration: '2' } }],
    });
  });
});
