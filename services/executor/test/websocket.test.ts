import { WebSocket } from 'ws';
import { TaskState } from '@a2a-polyglot/model';
import { Client, textMessage, WEBSOCKET_BINDING, WEBSOCKET_SUBPROTOCOL, webSocketTransportFactory, type WebSocketConstructor } from '@a2a-polyglot/client';
import { startExecutor, type RunningExecutor } from '../src/index.js';

const WS = WebSocket as unknown as WebSocketConstructor;

describe('the executor over WebSocket', () => {
  let running: RunningExecutor;
  beforeAll(async () => {
    running = await startExecutor({ port: 0, grpcPort: false, logLevel: 'error', demo: { chunkDelayMs: 0 } });
  });
  afterAll(() => running.close());

  it('lists the WebSocket binding in the card and serves it on the HTTP port', async () => {
    const client = await Client.connect(running.url, {
      bindings: ['websocket'],
      transports: { [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WS }) },
    });
    try {
      expect(client.binding).toBe('websocket');
      expect(client.agentInterface.url).toBe(`${running.url.replace('http:', 'ws:')}/a2a/ws`);
      const events = [];
      for await (const e of client.sendStreamingMessage({ message: textMessage('hello over websocket') })) events.push(e);
      const last = events.at(-1)!.event.payload;
      expect(last?.$case).toBe('statusUpdate');
      expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    } finally {
      await client.close();
    }
  });
});

describe('the executor with websocketInCard: false', () => {
  let running: RunningExecutor;
  beforeAll(async () => {
    running = await startExecutor({ port: 0, grpcPort: false, logLevel: 'error', websocketInCard: false });
  });
  afterAll(() => running.close());

  it('leaves the WebSocket binding out of the card and still serves it', async () => {
    const card = (await (await fetch(`${running.url}/.well-known/agent-card.json`)).json()) as { supportedInterfaces: Array<{ protocolBinding: string }> };
    expect(card.supportedInterfaces.map((i) => i.protocolBinding)).not.toContain(WEBSOCKET_BINDING);
    const ws = new WebSocket(`${running.url.replace('http:', 'ws:')}/a2a/ws`, [WEBSOCKET_SUBPROTOCOL], { headers: { 'A2A-Version': '1.0' } });
    try {
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      expect(ws.protocol).toBe(WEBSOCKET_SUBPROTOCOL);
    } finally {
      ws.terminate();
    }
  });
});

describe('the executor with a websocket flood guard set', () => {
  let running: RunningExecutor;
  beforeAll(async () => {
    running = await startExecutor({ port: 0, grpcPort: false, logLevel: 'error', websocket: { maxMessagesPerSecond: 1, messageBurst: 2 } });
  });
  afterAll(() => running.close());

  it('closes a socket that sends past the configured burst with 1008', async () => {
    const ws = new WebSocket(`${running.url.replace('http:', 'ws:')}/a2a/ws`, [WEBSOCKET_SUBPROTOCOL], { headers: { 'A2A-Version': '1.0' } });
    try {
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      const frame = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'GetTask', params: { id: 'no-such-task' } });
      for (let id = 1; id <= 5; id++) ws.send(frame(id));
      expect(await closed).toBe(1008);
    } finally {
      ws.terminate();
    }
  });
});
