import { InMemoryEventLog } from '@a2a-polyglot/core';
import { CloseCode, SUBPROTOCOL } from '../src/index.js';
import { waitFor, Peer, sendParams, startWsServer, type WsTestServer } from './helpers.js';

describe('WebSocket binding: unary calls', () => {
  let s: WsTestServer;
  let peer: Peer;
  beforeAll(async () => {
    s = await startWsServer();
    peer = await Peer.connect(s.wsUrl);
  });
  afterAll(async () => {
    peer.close();
    await s.close();
  });

  it('selects the a2a.v1 subprotocol', () => {
    expect(peer.ws.protocol).toBe(SUBPROTOCOL);
  });

  it('answers SendMessage and GetTask with the JSON-RPC results of the HTTP binding', async () => {
    const sent = await peer.answer(peer.request('SendMessage', sendParams('hello')));
    expect(sent.jsonrpc).toBe('2.0');
    const task = sent.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].parts[0].text).toBe('echo: hello');
    const got = await peer.answer(peer.request('GetTask', { id: task.id }));
    expect(got.result.id).toBe(task.id);
    expect(got.result.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('answers a direct message reply', async () => {
    const sent = await peer.answer(peer.request('SendMessage', sendParams('echo x')));
    expect(sent.result.message.parts[0].text).toBe('echo x');
  });

  it('maps core errors through the one error table (TaskNotFound → -32001 with ErrorInfo)', async () => {
    const res = await peer.answer(peer.request('GetTask', { id: 'nope' }));
    expect(res.error.code).toBe(-32001);
    expect(res.error.data[0]).toMatchObject({ reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' });
  });

  it('unknown method → -32601, the socket stays open', async () => {
    const res = await peer.answer(peer.request('NoSuchMethod', {}));
    expect(res.error.code).toBe(-32601);
    expect(peer.closeCode).toBeUndefined();
  });

  it('A2A v0.3 method names are not served here (v0.3 had no WebSocket binding) → -32601 naming the v1.0 method', async () => {
    const res = await peer.answer(
      peer.request('message/send', { message: { kind: 'message', role: 'user', messageId: 'm', parts: [{ kind: 'text', text: 'x' }] } }),
    );
    expect(res.error.code).toBe(-32601);
    expect(res.error.message).toContain('A2A v0.3 method');
    expect(res.error.message).toContain('SendMessage');
    const stream = await peer.answer(peer.request('message/stream', {}));
    expect(stream.error.code).toBe(-32601);
    expect(peer.closeCode).toBeUndefined();
  });

  it('invalid params → -32602; unknown members are ignored (core decodes params)', async () => {
    const res = await peer.answer(peer.request('GetTask', { id: 'x', historyLength: 'many' }));
    expect(res.error.code).toBe(-32602);
    const sent = await peer.answer(peer.request('SendMessage', { ...sendParams('hi'), bogus: 1 }));
    expect(sent.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('unknown members → -32602 when the handler is strict (strictRequests)', async () => {
    const strict = await startWsServer({ strictRequests: true });
    const strictPeer = await Peer.connect(strict.wsUrl);
    try {
      const res = await strictPeer.answer(strictPeer.request('GetTask', { id: 'x', bogus: 1 }));
      expect(res.error.code).toBe(-32602);
    } finally {
      strictPeer.close();
      await strict.close();
    }
  });

  it('invalid JSON → -32700 with id null, the socket stays open', async () => {
    peer.ws.send('{"jsonrpc":"2.0","id":');
    await peer.until(() => peer.framesFor(null).some((f) => f.error?.code === -32700));
    const again = await peer.answer(peer.request('ListTasks', {}));
    expect(again.result).toBeDefined();
  });

  it('batches → -32600 (requests are multiplexed by id instead)', async () => {
    const before = peer.framesFor(null).length;
    peer.sendJson([{ jsonrpc: '2.0', id: 999, method: 'ListTasks', params: {} }]);
    await peer.until(() => peer.framesFor(null).length > before);
    expect(peer.framesFor(null).at(-1)!.error.code).toBe(-32600);
  });

  it('a request whose id is already running → -32600', async () => {
    const id = peer.request('SendMessage', sendParams('gate g11'));
    peer.sendJson({ jsonrpc: '2.0', id, method: 'ListTasks', params: {} });
    await peer.until(() => peer.framesFor(id).some((f) => f.error?.code === -32600));
    s.gates.open('g11');
    await peer.until(() => peer.framesFor(id).some((f) => 'result' in f));
  });

  it('bad envelope extensions are rejected with the request id', async () => {
    const a = await peer.answer(peer.request('ListTasks', {}, { serviceParams: { 'A2A-Version': 1 } }));
    expect(a.error.code).toBe(-32600);
    const b = await peer.answer(peer.request('SubscribeToTask', { id: 'x' }, { resumeAfterSeq: -1 }));
    expect(b.error.code).toBe(-32602);
    const c = await peer.answer(peer.request('ListTasks', {}, { serviceParams: { Host: 'evil' } }));
    expect(c.error.code).toBe(-32600);
  });

  it('echoes activated extensions as response serviceParams', async () => {
    const uri = 'https://example.com/ext/echo';
    const ext = await startWsServer({ extensions: [uri] });
    const p = await Peer.connect(ext.wsUrl);
    try {
      const unary = await p.answer(p.request('ListTasks', {}, { serviceParams: { 'A2A-Extensions': uri } }));
      expect(unary.serviceParams).toEqual({ 'A2A-Extensions': uri });
      const id = p.request('SendStreamingMessage', sendParams('echo'), { serviceParams: { 'A2A-Extensions': uri } });
      expect((await p.stream(id))[0]).toEqual({ jsonrpc: '2.0', id, streamStart: true, serviceParams: { 'A2A-Extensions': uri } });
    } finally {
      p.close();
      await ext.close();
    }
  });

  it('a notification (no id) runs and gets no answer', async () => {
    const before = peer.frames.length;
    peer.sendJson({ jsonrpc: '2.0', method: 'ListTasks', params: {} });
    const id = peer.request('ListTasks', {});
    await peer.answer(id);
    expect(peer.frames.slice(before).filter((f) => f.id !== id)).toEqual([]);
  });
});

describe('WebSocket binding: streams', () => {
  let s: WsTestServer;
  let peer: Peer;
  beforeEach(async () => {
    s = await startWsServer();
    peer = await Peer.connect(s.wsUrl);
  });
  afterEach(async () => {
    peer.close();
    await s.close();
  });

  it('streams streamStart, numbered events tied to the request id, then streamEnd with the final state', async () => {
    const id = peer.request('SendStreamingMessage', sendParams('steps 3'));
    const frames = await peer.stream(id);
    expect(frames[0]).toEqual({ jsonrpc: '2.0', id, streamStart: true });
    const events = frames.filter((f) => 'result' in f);
    expect(events.map((f) => Object.keys(f.result)[0])).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(events.map((f) => f.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(frames.at(-1)).toEqual({ jsonrpc: '2.0', id, streamEnd: true, reason: 'done', state: 'TASK_STATE_COMPLETED', lastSeq: 6 });
  });

  it('a message-only stream has one unnumbered event and a streamEnd without state', async () => {
    const id = peer.request('SendStreamingMessage', sendParams('echo y'));
    const frames = await peer.stream(id);
    expect(frames).toHaveLength(3);
    expect(frames[1]!.result.message.parts[0].text).toBe('echo y');
    expect(frames[1]!.seq).toBeUndefined();
    expect(frames[2]).toEqual({ jsonrpc: '2.0', id, streamEnd: true, reason: 'done' });
  });

  it('pre-stream errors are a plain error response, never a stream', async () => {
    const id = peer.request('SubscribeToTask', { id: 'missing' });
    const frames = await peer.stream(id);
    expect(frames).toHaveLength(1);
    expect(frames[0]!.error.code).toBe(-32001);
  });

  it('multiplexes streams and unary calls on one socket', async () => {
    const a = peer.request('SendStreamingMessage', sendParams('gate g18'));
    const b = peer.request('SendStreamingMessage', sendParams('steps 2'));
    await peer.until(() => peer.framesFor(a).length > 0);
    const list = peer.request('ListTasks', {});
    const bFrames = await peer.stream(b);
    expect(bFrames.at(-1)!.state).toBe('TASK_STATE_COMPLETED');
    expect((await peer.answer(list)).result.tasks.length).toBeGreaterThanOrEqual(1);
    // Frames of the two streams interleave on the socket, each tied to its id.
    const order = peer.frames.filter((f) => f.id === a || f.id === b).map((f) => f.id);
    expect(new Set(order).size).toBe(2);
    expect(peer.framesFor(a).some((f) => f.streamEnd)).toBe(false);
    s.gates.open('g18');
    const aFrames = await peer.stream(a);
    expect(aFrames.at(-1)).toMatchObject({ streamEnd: true, reason: 'done', state: 'TASK_STATE_COMPLETED' });
  });

  it('cancelStream stops delivery with streamEnd "canceled"; the task goes on', async () => {
    const id = peer.request('SendStreamingMessage', sendParams('gate g19'));
    await peer.until(() => peer.framesFor(id).some((f) => f.result?.statusUpdate?.status?.state === 'TASK_STATE_WORKING'));
    const taskId = peer.framesFor(id)[1]!.result.task.id;
    peer.cancelStream(id);
    const frames = await peer.stream(id);
    expect(frames.at(-1)).toMatchObject({ streamEnd: true, reason: 'canceled', state: 'TASK_STATE_WORKING', lastSeq: 2 });
    expect((await peer.answer(peer.request('GetTask', { id: taskId }))).result.status.state).toBe('TASK_STATE_WORKING');
    s.gates.open('g19');
    await waitFor(async () => (await peer.answer(peer.request('GetTask', { id: taskId }))).result.status.state === 'TASK_STATE_COMPLETED');
    // Nothing more was delivered on the canceled stream.
    expect(peer.framesFor(id)).toEqual(frames);
  });

  it('cancelStream for an unknown id is ignored', async () => {
    peer.cancelStream(4242);
    const res = await peer.answer(peer.request('ListTasks', {}));
    expect(res.result).toBeDefined();
    expect(peer.framesFor(4242)).toEqual([]);
  });

  it('resume: a new socket subscribing with resumeAfterSeq gets exactly the missed events', async () => {
    const id = peer.request('SendStreamingMessage', sendParams('steps 3 g21'));
    await peer.until(() => peer.framesFor(id).filter((f) => 'result' in f).length >= 3);
    const seen = peer.framesFor(id).filter((f) => 'result' in f);
    const taskId = seen[0]!.result.task.id;
    const lastSeq = seen.at(-1)!.seq as number;
    expect(lastSeq).toBe(3);
    peer.close(); // the socket drops
    s.gates.open('g21');
    const again = await Peer.connect(s.wsUrl);
    try {
      await waitFor(async () => (await again.answer(again.request('GetTask', { id: taskId }))).result.status.state === 'TASK_STATE_COMPLETED');
      const sub = again.request('SubscribeToTask', { id: taskId }, { resumeAfterSeq: lastSeq });
      const frames = await again.stream(sub);
      const events = frames.filter((f) => 'result' in f);
      expect(events.map((f) => f.seq)).toEqual([4, 5, 6]);
      expect(events.map((f) => Object.keys(f.result)[0])).toEqual(['artifactUpdate', 'artifactUpdate', 'statusUpdate']);
      expect(frames.at(-1)).toMatchObject({ streamEnd: true, reason: 'done', state: 'TASK_STATE_COMPLETED', lastSeq: 6 });
    } finally {
      again.close();
    }
  });

  it('resume right after a cut: streamStart comes at once, then the events as they happen', async () => {
    const id = peer.request('SendStreamingMessage', sendParams('gate g22'));
    await peer.until(() => peer.framesFor(id).some((f) => f.result?.statusUpdate));
    const taskId = peer.framesFor(id)[1]!.result.task.id;
    peer.cancelStream(id);
    const cut = await peer.stream(id);
    const sub = peer.request('SubscribeToTask', { id: taskId }, { resumeAfterSeq: cut.at(-1)!.lastSeq });
    await peer.until(() => peer.framesFor(sub).length >= 1);
    expect(peer.framesFor(sub)).toEqual([{ jsonrpc: '2.0', id: sub, streamStart: true }]);
    s.gates.open('g22');
    const frames = await peer.stream(sub);
    expect(frames.filter((f) => 'result' in f).map((f) => f.seq)).toEqual([3, 4]);
  });

  it('resume: when the log no longer holds the missed events, the task snapshot comes first', async () => {
    peer.close();
    await s.close();
    s = await startWsServer({ eventLog: new InMemoryEventLog({ maxEventsPerTask: 4 }) });
    peer = await Peer.connect(s.wsUrl);
    const id = peer.request('SendStreamingMessage', sendParams('burst 10 g23'));
    // The burst is applied before the stream reads: the stream may see the events, or (the log
    // holding only 4) a snapshot that already folds them in.
    await peer.until(() => peer.framesFor(id).some((f) => f.result?.artifactUpdate?.artifact?.name === 'chunk-9' || f.result?.task?.artifacts?.length === 10));
    const taskId = peer.framesFor(id)[1]!.result.task.id;
    peer.cancelStream(id);
    await peer.stream(id);
    // Pretend we saw only seq 1: seq 2 onwards were evicted by the bound of 4 events.
    const sub = peer.request('SubscribeToTask', { id: taskId }, { resumeAfterSeq: 1 });
    await peer.until(() => peer.framesFor(sub).length >= 2);
    const first = peer.framesFor(sub)[1]!;
    expect(Object.keys(first.result)).toEqual(['task']);
    expect(first.result.task.artifacts).toHaveLength(10);
    s.gates.open('g23');
    const frames = await peer.stream(sub);
    expect(frames.at(-1)).toMatchObject({ streamEnd: true, reason: 'done', state: 'TASK_STATE_COMPLETED' });
  });
});

describe('WebSocket binding: credentials and version at upgrade or per message', () => {
  let s: WsTestServer;
  beforeAll(async () => {
    s = await startWsServer({ apiKeys: { 'secret-key': 'alice' } });
  });
  afterAll(() => s.close());

  it('without credentials every call is Unauthenticated (-31401); the socket stays usable', async () => {
    const peer = await Peer.connect(s.wsUrl);
    try {
      const res = await peer.answer(peer.request('ListTasks', {}));
      expect(res.error.code).toBe(-31401);
      expect(res.error.data[0].reason).toBe('UNAUTHENTICATED');
    } finally {
      peer.close();
    }
  });

  it('accepts an x-api-key header at upgrade', async () => {
    const peer = await Peer.connect(s.wsUrl, { headers: { 'A2A-Version': '1.0', 'x-api-key': 'secret-key' } });
    try {
      expect((await peer.answer(peer.request('ListTasks', {}))).result).toBeDefined();
    } finally {
      peer.close();
    }
  });

  it('accepts a bearer token as the a2a.auth.<base64url> subprotocol and never selects it', async () => {
    const token = Buffer.from('secret-key').toString('base64url');
    const peer = await Peer.connect(s.wsUrl, { protocols: [SUBPROTOCOL, `a2a.auth.${token}`] });
    try {
      expect(peer.ws.protocol).toBe(SUBPROTOCOL);
      expect((await peer.answer(peer.request('ListTasks', {}))).result).toBeDefined();
    } finally {
      peer.close();
    }
  });

  it('accepts credentials per message in serviceParams', async () => {
    const peer = await Peer.connect(s.wsUrl);
    try {
      const res = await peer.answer(peer.request('ListTasks', {}, { serviceParams: { Authorization: 'Bearer secret-key' } }));
      expect(res.result).toBeDefined();
    } finally {
      peer.close();
    }
  });

  it('the A2A version may come as ?A2A-Version= at upgrade or per message; none → VersionNotSupported', async () => {
    const auth = { 'x-api-key': 'secret-key' };
    const none = await Peer.connect(s.wsUrl, { headers: auth });
    const query = await Peer.connect(s.wsUrl, { headers: auth, query: '?A2A-Version=1.0' });
    try {
      const missing = await none.answer(none.request('ListTasks', {}));
      expect(missing.error.data[0].reason).toBe('VERSION_NOT_SUPPORTED');
      const perMessage = await none.answer(none.request('ListTasks', {}, { serviceParams: { 'A2A-Version': '1.0' } }));
      expect(perMessage.result).toBeDefined();
      expect((await query.answer(query.request('ListTasks', {}))).result).toBeDefined();
    } finally {
      none.close();
      query.close();
    }
  });

  it('refuses upgrades without the subprotocol (400), with a malformed token (400), and at other paths (404)', async () => {
    await expect(Peer.connect(s.wsUrl, { protocols: ['chat'] })).rejects.toThrow('HTTP 400');
    await expect(Peer.connect(s.wsUrl, { protocols: [SUBPROTOCOL, 'a2a.auth.%%%'] })).rejects.toThrow(/HTTP 400|Invalid/);
    await expect(Peer.connect(s.wsUrl.replace('/a2a/ws', '/elsewhere'))).rejects.toThrow('HTTP 404');
  });
});

describe('WebSocket binding: limits and failure isolation', () => {
  it('binary frames close the socket with 1003; other sockets are unaffected', async () => {
    const s = await startWsServer();
    const bad = await Peer.connect(s.wsUrl);
    const good = await Peer.connect(s.wsUrl);
    try {
      bad.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      expect((await bad.closed()).code).toBe(CloseCode.UnsupportedData);
      expect((await good.answer(good.request('ListTasks', {}))).result).toBeDefined();
    } finally {
      good.close();
      await s.close();
    }
  });

  it('frames larger than maxPayload close the socket with 1009', async () => {
    const s = await startWsServer({ maxPayload: 1024 });
    const peer = await Peer.connect(s.wsUrl);
    try {
      peer.request('SendMessage', sendParams('x'.repeat(4096)));
      expect((await peer.closed()).code).toBe(CloseCode.MessageTooBig);
    } finally {
      await s.close();
    }
  });

  it('more operations in flight than maxInFlight → ResourceExhausted (-31429) for the extra one', async () => {
    const s = await startWsServer({ maxInFlight: 2 });
    const peer = await Peer.connect(s.wsUrl);
    try {
      const a = peer.request('SendMessage', sendParams('gate g32'));
      const b = peer.request('SendStreamingMessage', sendParams('gate g32'));
      await peer.until(() => peer.framesFor(b).length > 0);
      const c = await peer.answer(peer.request('ListTasks', {}));
      expect(c.error.code).toBe(-31429);
      expect(c.error.data[0].reason).toBe('RESOURCE_EXHAUSTED');
      s.gates.open('g32');
      await peer.answer(a);
      await peer.stream(b);
      expect((await peer.answer(peer.request('ListTasks', {}))).result).toBeDefined();
    } finally {
      peer.close();
      await s.close();
    }
  });

  it('a message flood beyond the rate limit closes the socket with 1008', async () => {
    const s = await startWsServer({ maxMessagesPerSecond: 1, messageBurst: 5 });
    const peer = await Peer.connect(s.wsUrl);
    try {
      for (let i = 0; i < 20; i++) peer.request('ListTasks', {});
      expect((await peer.closed()).code).toBe(CloseCode.PolicyViolation);
    } finally {
      await s.close();
    }
  });

  it('heartbeats terminate a peer that stops answering pings; a live peer stays', async () => {
    const s = await startWsServer({ heartbeatMs: 200 });
    const dead = await Peer.connect(s.wsUrl, { ws: { autoPong: false } });
    const live = await Peer.connect(s.wsUrl);
    try {
      expect((await dead.closed()).code).toBe(1006); // terminated: no close frame
      const pings = live.pings;
      await waitFor(() => live.pings >= pings + 2, { what: 'two more heartbeats to the live peer' });
      expect(live.closeCode).toBeUndefined();
      expect((await live.answer(live.request('ListTasks', {}))).result).toBeDefined();
    } finally {
      live.close();
      await s.close();
    }
  });

  it('shutdown ends open streams with streamEnd "shutdown" and closes with 1001', async () => {
    const s = await startWsServer();
    const peer = await Peer.connect(s.wsUrl);
    const id = peer.request('SendStreamingMessage', sendParams('gate g35'));
    await peer.until(() => peer.framesFor(id).some((f) => f.result?.statusUpdate));
    await s.binding.close();
    const frames = await peer.stream(id);
    expect(frames.at(-1)).toMatchObject({ streamEnd: true, reason: 'shutdown', state: 'TASK_STATE_WORKING' });
    expect((await peer.closed()).code).toBe(CloseCode.GoingAway);
    await s.close();
  });
});
