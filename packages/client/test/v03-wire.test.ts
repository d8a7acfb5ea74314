/** What our client puts on the wire for a v0.3 server, seen by a fake one: names, params, headers. */
import { TaskState, type Task } from '@a2a-polyglot/model';
import { Client, textMessage } from '../src/index.js';
import { sendJson, startFakeServer, type FakeServer } from './fake-server.js';

const v03Task = { kind: 'task', id: 't1', contextId: 'c1', status: { state: 'completed', timestamp: '2026-01-01T00:00:00Z' }, artifacts: [], history: [] };

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer((req, res) => {
    if (req.url === '/.well-known/agent-card.json') {
      return sendJson(res, 200, {
        name: 'v03',
        protocolVersion: '0.3.0',
        url: `${server.url}/rpc`,
        preferredTransport: 'JSONRPC',
        capabilities: { streaming: true },
        skills: [],
      });
    }
    return sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: v03Task });
  });
});
afterAll(() => server.close());

describe('JSON-RPC v0.3 on the wire', () => {
  it('slash method names, v0.3 params with an explicit blocking, no A2A-Version, X-A2A-Extensions', async () => {
    const client = await Client.connect(server.url, { extensions: ['urn:x'] });
    const sent = await client.sendMessage({ message: textMessage('hi', { messageId: 'm1' }) });
    expect((sent.payload?.value as Task | undefined)?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await client.sendMessage({ message: textMessage('hi', { messageId: 'm2' }), configuration: { returnImmediately: true } });
    const [, blocking, nonBlocking] = server.requests;
    expect(blocking!.json).toMatchObject({
      method: 'message/send',
      params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] }, configuration: { blocking: true } },
    });
    expect(nonBlocking!.json.params.configuration).toEqual({ blocking: false });
    expect(blocking!.headers['a2a-version']).toBeUndefined();
    expect(blocking!.headers['x-a2a-extensions']).toBe('urn:x');
    expect(blocking!.headers['a2a-extensions']).toBeUndefined();
    await client.getTask({ id: 't1', historyLength: 2 });
    expect(server.requests.at(-1)!.json).toMatchObject({ method: 'tasks/get', params: { id: 't1', historyLength: 2 } });
  });

  it('an answer the v0.3 codec cannot read is an invalid agent response', async () => {
    const bad = await startFakeServer((req, res) =>
      req.url === '/.well-known/agent-card.json'
        ? sendJson(res, 200, { name: 'v03', protocolVersion: '0.3.0', url: `${bad.url}/rpc`, capabilities: {} })
        : sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { kind: 'nonsense' } }),
    );
    const client = await Client.connect(bad.url);
    await expect(client.sendMessage({ message: textMessage('hi') })).rejects.toMatchObject({
      code: 'INVALID_AGENT_RESPONSE',
      message: expect.stringMatching(/the v0\.3 answer cannot be read \(result\.kind must be/),
    });
    await bad.close();
  });
});
