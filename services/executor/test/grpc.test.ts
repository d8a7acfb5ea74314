/**
 * The executor's gRPC listener: served from the same RequestHandler as HTTP, listed in the
 * card (request host, publicBaseUrl, grpcPublicUrl), switchable off, closed on shutdown.
 */
import { A2AErrorCode, silentLogger } from '@a2a-polyglot/core';
import { GrpcTransport } from '@a2a-polyglot/client/grpc';
import { Role, TaskState, type StreamResponse } from '@a2a-polyglot/model';
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { GrpcListenError, startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, partsText, V1 } from './helpers.js';

const started: RunningExecutor[] = [];
const clients: GrpcTransport[] = [];
async function start(config: Parameters<typeof startExecutor>[0] = {}): Promise<RunningExecutor> {
  const running = await startExecutor(
    { host: '127.0.0.1', port: 0, grpcPort: 0, demo: { chunkDelayMs: 0 }, shutdownGraceMs: 200, ...config },
    { logger: silentLogger },
  );
  started.push(running);
  return running;
}
function grpcClient(url: string): GrpcTransport {
  const client = new GrpcTransport({ url });
  clients.push(client);
  return client;
}
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(started.splice(0).map((r) => r.close()));
});

const userMessage = (text: string) => ({
  message: { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text' as const, value: text } }] },
});
const grpcInterfaces = (card: any) => card.supportedInterfaces.filter((i: any) => i.protocolBinding === 'GRPC');

/** The public card as fetched with a given Host header (fetch does not let a caller set Host). */
function cardWithHost(url: string, host: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/.well-known/agent-card.json`, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(JSON.parse(body)));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('card request timed out')));
    req.end();
  });
}

async function collect(
  stream: AsyncIterable<{ seq: number | undefined; event: StreamResponse }>,
): Promise<Array<{ seq: number | undefined; event: StreamResponse }>> {
  const out: Array<{ seq: number | undefined; event: StreamResponse }> = [];
  for await (const e of stream) out.push(e);
  return out;
}

describe('the executor over gRPC', () => {
  it('caps gRPC request messages at maxBodyBytes, the one request-size limit of every binding', async () => {
    const running = await start({ maxBodyBytes: 4096 });
    const client = grpcClient(running.grpc!.url);
    const small = await client.sendMessage(userMessage('fits'), { timeoutMs: 5000 });
    expect(small.payload?.$case).toBe('task');
    await expect(client.sendMessage(userMessage('x'.repeat(8192)), { timeoutMs: 5000 })).rejects.toMatchObject({ code: A2AErrorCode.PayloadTooLarge });
  });

  it('serves lf.a2a.v1.A2AService on grpcPort from the same handler as HTTP', async () => {
    const running = await start();
    expect(running.grpc).toMatchObject({ host: '127.0.0.1', url: `127.0.0.1:${running.grpc!.port}` });
    expect(running.grpc!.port).toBeGreaterThan(0);
    const client = grpcClient(running.grpc!.url);

    const sent = await client.sendMessage(userMessage('hello over grpc'), { timeoutMs: 5000 });
    expect(sent.payload?.$case).toBe('task');
    const task = sent.payload!.value as { id: string; status?: { state: TaskState }; artifacts: Array<{ parts: any[] }> };
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    // One handler: the task sent over gRPC is there over REST too.
    const overRest = await json(await fetch(`${running.url}/a2a/tasks/${task.id}`, { headers: V1 }));
    expect(overRest.id).toBe(task.id);
    expect(partsText(overRest.artifacts[0].parts)).toBe('Echo: hello over grpc');

    const events = await collect(client.sendStreamingMessage(userMessage('one two three four'), { timeoutMs: 5000 }));
    expect(events[0]).toMatchObject({ seq: 1, event: { payload: { $case: 'task' } } });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const last = events.at(-1)!.event.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('needs a2a-version and credentials on gRPC like on HTTP', async () => {
    const running = await start({ auth: { apiKeys: { s3cret: 'alice' } } });
    const anonymous = grpcClient(running.grpc!.url);
    await expect(anonymous.listTasks({}, { timeoutMs: 5000 })).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    const keyed = grpcClient(running.grpc!.url);
    await expect(keyed.listTasks({}, { timeoutMs: 5000, headers: { 'x-api-key': 's3cret' } })).resolves.toMatchObject({ tasks: [] });
  });

  describe('the card', () => {
    it('lists GRPC after JSON-RPC and REST, at the request host with the gRPC port, once for 1.0 and once for 0.3', async () => {
      const running = await start({ allowedHosts: ['agent.internal'] }); // a name other than the listener's must be allowed
      const card = await json(await fetch(`${running.url}/.well-known/agent-card.json`));
      // Every 1.0 interface first, then the A2A v0.3 ones (JSON-RPC, REST, gRPC on the same addresses).
      expect(card.supportedInterfaces.map((i: any) => `${i.protocolBinding} ${i.protocolVersion}`)).toEqual([
        'JSONRPC 1.0',
        'HTTP+JSON 1.0',
        'urn:a2a-polyglot:binding:websocket:v1 1.0',
        'GRPC 1.0',
        'JSONRPC 0.3',
        'HTTP+JSON 0.3',
        'GRPC 0.3',
      ]);
      expect(grpcInterfaces(card)).toEqual(
        ['1.0', '0.3'].map((protocolVersion) => ({ protocolBinding: 'GRPC', url: `127.0.0.1:${running.grpc!.port}`, protocolVersion })),
      );
      const viaName = await cardWithHost(running.url, 'agent.internal:8080');
      expect(grpcInterfaces(viaName)[0].url).toBe(`agent.internal:${running.grpc!.port}`);
      expect(viaName.supportedInterfaces[0].url).toBe('http://agent.internal:8080/a2a/rpc');
    });

    it('takes the host from publicBaseUrl when set (public and extended card)', async () => {
      const running = await start({
        publicBaseUrl: 'https://agents.example.com/openclaw',
        allowedHosts: ['ignored.example'],
        agent: { capabilities: { extendedAgentCard: true } },
      });
      const expected = ['1.0', '0.3'].map((protocolVersion) => ({ protocolBinding: 'GRPC', url: `agents.example.com:${running.grpc!.port}`, protocolVersion }));
      expect(grpcInterfaces(await cardWithHost(running.url, 'ignored.example:1'))).toEqual(expected);
      const extended = await json(await fetch(`${running.url}/a2a/extendedAgentCard`, { headers: V1 }));
      expect(grpcInterfaces(extended)).toEqual(expected);
      const overGrpc = await grpcClient(running.grpc!.url).getExtendedAgentCard({}, { timeoutMs: 5000 });
      expect(overGrpc.supportedInterfaces.filter((i) => i.protocolBinding === 'GRPC').map((i) => i.url)).toEqual([
        `agents.example.com:${running.grpc!.port}`,
        `agents.example.com:${running.grpc!.port}`,
      ]);
    });

    it('lists grpcPublicUrl verbatim when gRPC is exposed elsewhere', async () => {
      const running = await start({ publicBaseUrl: 'https://agents.example.com', grpcPublicUrl: 'grpc.example.com:443' });
      const card = await json(await fetch(`${running.url}/.well-known/agent-card.json`));
      expect(grpcInterfaces(card)).toEqual(
        ['1.0', '0.3'].map((protocolVersion) => ({ protocolBinding: 'GRPC', url: 'grpc.example.com:443', protocolVersion })),
      );
    });
  });

  it('grpcPort: false turns gRPC off (no listener, nothing in the card)', async () => {
    const running = await start({ grpcPort: false });
    expect(running.grpc).toBeUndefined();
    const card = await json(await fetch(`${running.url}/.well-known/agent-card.json`));
    expect(card.supportedInterfaces.map((i: any) => i.protocolBinding)).toEqual([
      'JSONRPC',
      'HTTP+JSON',
      'urn:a2a-polyglot:binding:websocket:v1',
      'JSONRPC',
      'HTTP+JSON',
    ]);
  });

  it('fails to start with one clear line when the gRPC port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const attempt = startExecutor({ host: '127.0.0.1', port: 0, grpcPort: port }, { logger: silentLogger });
      await expect(attempt).rejects.toBeInstanceOf(GrpcListenError);
      await expect(attempt).rejects.toThrow(`Cannot listen for gRPC on 127.0.0.1:${port}: the address is already in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('shutdown: a gRPC stream sees the task fail visibly, then the gRPC listener is gone', async () => {
    const running = await start({ shutdownGraceMs: 100, demo: { chunkDelayMs: 0 } });
    const client = grpcClient(running.grpc!.url);
    const stream = client.sendStreamingMessage(userMessage('slow'), { timeoutMs: 10_000 });
    const events: StreamResponse[] = [];
    let closing: Promise<void> | undefined;
    for await (const { event } of stream) {
      events.push(event);
      if (event.payload?.$case === 'artifactUpdate') closing ??= running.close();
    }
    await closing;
    const last = events.at(-1)!.payload;
    expect(last?.$case).toBe('statusUpdate');
    if (last?.$case !== 'statusUpdate') return;
    expect(last.value.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(partsText((last.value.status?.message?.parts ?? []).map((p) => ({ text: p.content?.$case === 'text' ? p.content.value : '' })))).toMatch(
      /shut down/,
    );
    const late = grpcClient(running.grpc!.url);
    await expect(late.listTasks({}, { timeoutMs: 5000 })).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
  });
});
