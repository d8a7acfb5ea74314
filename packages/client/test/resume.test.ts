/**
 * Stream lifecycle against a network path the test controls (a TCP proxy in front of the
 * real servers): connections cut mid-stream, streams that go silent, servers that stop
 * answering. The stream must resume from its last seq with no duplicate and no lost event.
 */
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { TaskState, type Task } from '@a2a-polyglot/model';
import { Client, GRPC_BINDING, textMessage, type BindingKey, type ClientEvent, type ResumeInfo } from '../src/index.js';
import { grpcTransportFactory } from '../src/grpc.js';
import { collect, waitFor, startTestAgent, type TestAgent } from './helpers.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

const BINDINGS: BindingKey[] = ['jsonrpc', 'rest', 'grpc'];
const EXPECTED = ['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate'];

function cases(events: readonly ClientEvent[]): string[] {
  return events.map((e) => e.event.payload?.$case ?? '?');
}

/** Seqs are present, unique and consecutive: nothing duplicated, nothing skipped. */
function expectGapless(events: readonly ClientEvent[]): void {
  const seqs = events.map((e) => e.seq);
  expect(seqs.every((s) => typeof s === 'number')).toBe(true);
  for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe(seqs[i - 1]! + 1);
}

function artifactNames(events: readonly ClientEvent[]): string[] {
  return events.flatMap((e) => (e.event.payload?.$case === 'artifactUpdate' ? [e.event.payload.value.artifact?.name ?? ''] : []));
}

describe.each(BINDINGS)('stream resume over %s', (binding) => {
  let agent: TestAgent;
  let httpProxy: TcpProxy;
  let grpcProxy: TcpProxy;
  let client: Client;
  const resumes: ResumeInfo[] = [];
  let n = 0;
  const key = () => `${binding}-${++n}`;

  beforeAll(async () => {
    let grpcAddress: string | undefined;
    agent = await startTestAgent({ grpcCardUrl: () => grpcAddress });
    httpProxy = await startTcpProxy({ host: '127.0.0.1', port: new URL(agent.url).port ? Number(new URL(agent.url).port) : 80 });
    grpcProxy = await startTcpProxy({ host: '127.0.0.1', port: agent.grpc.port });
    grpcAddress = grpcProxy.address;
    client = await Client.connect(`http://${httpProxy.address}`, {
      bindings: [binding],
      transports: { [GRPC_BINDING]: grpcTransportFactory },
      timeoutMs: 5000,
      resume: { initialDelayMs: 50, maxDelayMs: 200, attempts: 5 },
    });
  });

  afterAll(async () => {
    await client?.close();
    await httpProxy?.close();
    await grpcProxy?.close();
    await agent?.close();
  });

  const proxy = () => (binding === 'grpc' ? grpcProxy : httpProxy);

  it('a connection cut mid-stream: resubscribes from the last seq, no duplicate, no loss', async () => {
    const gate = key();
    const stream = client.sendStreamingMessage({ message: textMessage(`gate ${gate} 4`) }, { onResume: (info) => resumes.push(info) });
    const events: ClientEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (events.length === 2) {
        // Events 3..7 are produced while the client is away: they must be replayed.
        proxy().cutAll();
        agent.gates.open(gate);
      }
    }
    expect(cases(events)).toEqual(EXPECTED);
    expect(artifactNames(events)).toEqual(['after-0', 'after-1', 'after-2', 'after-3']);
    expectGapless(events);
    expect(stream.resumes).toBeGreaterThanOrEqual(1);
    expect(stream.end).toBe('terminal');
    expect(resumes.at(-1)?.afterSeq).toBe(events[1]!.seq);
  });

  it('a stream that goes silent counts as cut after idleTimeoutMs and resumes', async () => {
    const gate = key();
    const stream = client.sendStreamingMessage({ message: textMessage(`gate ${gate} 4`) }, { idleTimeoutMs: 300 });
    const events: ClientEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (events.length === 2) {
        proxy().freezeAll();
        agent.gates.open(gate);
      }
    }
    expect(cases(events)).toEqual(EXPECTED);
    expectGapless(events);
    expect(stream.resumes).toBeGreaterThanOrEqual(1);
  });

  it('subscribeToTask resumes the same way', async () => {
    const gate = key();
    const started = await client.sendMessage({ message: textMessage(`gate ${gate} 4`), configuration: { returnImmediately: true } });
    const taskId = (started.payload!.value as Task).id;
    const stream = client.subscribeToTask({ id: taskId });
    const events: ClientEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (events.length === 1) {
        proxy().cutAll();
        agent.gates.open(gate);
      }
    }
    expect(events[0]!.event.payload?.$case).toBe('task');
    expect(artifactNames(events)).toEqual(['after-0', 'after-1', 'after-2', 'after-3']);
    expectGapless(events);
    expect(stream.end).toBe('terminal');
  });

  it('with resuming off, a cut is an error tagged "cut"', async () => {
    const noResume = new Client(client.card, { bindings: [binding], transports: { [GRPC_BINDING]: grpcTransportFactory }, resume: false, timeoutMs: 5000 });
    const gate = key();
    const events: ClientEvent[] = [];
    const error = await (async () => {
      for await (const event of noResume.sendStreamingMessage({ message: textMessage(`gate ${gate}`) })) {
        events.push(event);
        if (events.length === 2) proxy().cutAll();
      }
    })().catch((e: unknown) => e);
    agent.gates.open(gate);
    await noResume.close();
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).metadata.clientFailure).toBe('cut');
  });

  it('a server that stops answering fails the call within its timeout', async () => {
    proxy().cutAll();
    proxy().blackhole(true);
    try {
      const started = Date.now();
      const error = await client.getTask({ id: 'whatever' }, { timeoutMs: 400 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(A2AError);
      expect((error as A2AError).code).toBe(A2AErrorCode.DeadlineExceeded);
      expect((error as A2AError).metadata.clientFailure).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(4000);
      const streamError = await collect(client.sendStreamingMessage({ message: textMessage('steps 1') }, { timeoutMs: 400 })).catch((e: unknown) => e);
      expect((streamError as A2AError).code).toBe(A2AErrorCode.DeadlineExceeded);
    } finally {
      proxy().blackhole(false);
      proxy().cutAll();
    }
    // And the path works again afterwards.
    await waitFor(
      async () =>
        await client.sendMessage({ message: textMessage('echo back') }).then(
          () => true,
          () => false,
        ),
    );
    const done = await client.sendMessage({ message: textMessage('steps 1') });
    expect((done.payload!.value as Task).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
