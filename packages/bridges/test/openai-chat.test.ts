import { Message, Task } from '@a2a-polyglot/model';
import { AGENT_NAME, artifactIds, bridged, ctx, lastStatusText, send, streamJson, trace, type Bridged } from './a2a-side.js';
import {
  chatChunk,
  data,
  sendJson,
  upstreamPause,
  sseHead,
  startFakeUpstream,
  waitFor,
  writeFrames,
  type FakeUpstream,
  type Recorded,
} from './fake-upstream.js';

const KEY = 'sk-test-0123456789abcdef';

let upstream: FakeUpstream;
let agent: Bridged | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
  await upstream?.close();
});

async function start(route: (req: Recorded, res: any) => void | Promise<void>, settings: Record<string, unknown> = {}) {
  upstream = await startFakeUpstream({ 'POST /v1/chat/completions': route });
  agent = await bridged('openai-chat', { baseUrl: `${upstream.url}/v1`, model: 'test-model', apiKey: KEY, ...settings });
  return agent;
}

const streamed =
  (frames: string[], delayMs = 0) =>
  async (_req: Recorded, res: any) => {
    sseHead(res);
    await writeFrames(res, frames, delayMs);
    res.end();
  };

describe('openai-chat bridge: streaming', () => {
  it('follows the contract: submitted, working, text-delta chunks, lastChunk on the last, completed', async () => {
    const a = await start(
      streamed([
        data(chatChunk(undefined, null, { choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] })),
        data(chatChunk('Hel')),
        data(chatChunk('lo ')),
        data(chatChunk('world')),
        data(chatChunk(undefined, 'stop')),
        data('[DONE]'),
      ]),
    );
    const events = await streamJson(a.handler, send('hi'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"Hel"', 'chunk:"lo "+', 'chunk:"world"+!', 'status:COMPLETED']);
    expect(new Set(artifactIds(events))).toEqual(new Set(['text-delta']));
    const call = upstream.calls('POST /v1/chat/completions')[0]!;
    expect(call.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(call.body).toMatchObject({ model: 'test-model', stream: true, messages: [{ role: 'user', content: 'hi' }] });
  });

  it.each([
    ['[DONE] without a finish_reason (OpenClaw)', [data(chatChunk('a')), data(chatChunk('b')), data('[DONE]')]],
    ['a finish_reason without [DONE]', [data(chatChunk('a')), data(chatChunk('b', 'stop'))]],
    ['neither: the server just closes', [data(chatChunk('a')), data(chatChunk('b'))]],
    [
      'a usage-only final chunk and named events in between',
      [
        data(chatChunk('a')),
        'event: hermes.tool.progress\ndata: {"tool":"x","status":"running"}',
        ': keepalive',
        data(chatChunk('b')),
        data({ id: 'c', choices: [], usage: { total_tokens: 3 } }),
        data('[DONE]'),
      ],
    ],
  ])('accepts a stream ending with %s', async (_name, frames) => {
    const a = await start(streamed(frames as string[]));
    const events = await streamJson(a.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"a"', 'chunk:"b"+!', 'status:COMPLETED']);
  });

  it('accepts CRLF line ends and frames split across TCP writes', async () => {
    const a = await start(async (_req, res) => {
      sseHead(res);
      const text = `data: ${JSON.stringify(chatChunk('sp'))}\r\n\r\ndata: ${JSON.stringify(chatChunk('lit'))}\r\n\r\ndata: [DONE]\r\n\r\n`;
      for (let i = 0; i < text.length; i += 7) {
        res.write(text.slice(i, i + 7));
        await upstreamPause(1);
      }
      res.end();
    });
    const events = await streamJson(a.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"sp"', 'chunk:"lit"+!', 'status:COMPLETED']);
  });

  it('sends the fallback chunk when the upstream produced no text', async () => {
    const a = await start(streamed([data(chatChunk(undefined, 'stop')), data('[DONE]')]));
    const events = await streamJson(a.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', `chunk:"[${AGENT_NAME}] Request completed."!`, 'status:COMPLETED']);
  });

  it('keeps the chunks already sent when a mid-stream error object follows, and fails', async () => {
    const a = await start(
      streamed([data(chatChunk('partial ')), data(chatChunk('answer')), data({ error: { message: 'model crashed', type: 'server_error' } })]),
    );
    const events = await streamJson(a.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"partial "', 'chunk:"answer"+', 'status:FAILED']);
    expect(lastStatusText(events)).toBe('The openai-chat upstream reported an error: model crashed');
  });

  it("fails on Hermes' finish_reason error", async () => {
    const a = await start(streamed([data(chatChunk('so far')), data(chatChunk(undefined, 'error'))]));
    const events = await streamJson(a.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"so far"', 'status:FAILED']);
  });

  it('fails clearly on malformed SSE', async () => {
    const a = await start(async (_req, res) => {
      sseHead(res);
      res.write(`${data(chatChunk('ok'))}\n\n`);
      res.write('this is not an event stream\n\n');
      res.end();
    });
    const events = await streamJson(a.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"ok"', 'status:FAILED']);
    expect(lastStatusText(events)).toMatch(/^The openai-chat upstream sent a malformed event stream \(unexpected line/);
  });

  it('fails clearly on event data that is not JSON', async () => {
    const a = await start(streamed(['data: {not json']));
    const events = await streamJson(a.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'status:FAILED']);
    expect(lastStatusText(events)).toMatch(/malformed event stream \(event data is not JSON/);
  });

  it('fails within idleTimeoutMs when the upstream stops sending mid-stream', async () => {
    let dropped!: Promise<void>;
    const a = await start(
      async (req, res) => {
        dropped = req.aborted;
        sseHead(res);
        await writeFrames(res, [data(chatChunk('first'))]);
        // then silence, connection left open
      },
      { idleTimeoutMs: 150 },
    );
    const events = await streamJson(a.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"first"', 'status:FAILED']);
    expect(lastStatusText(events)).toBe('The openai-chat upstream sent nothing for 150 ms');
    await dropped; // the bridge hung up on the stalled upstream
  });

  it('fails within timeoutMs when the upstream never answers', async () => {
    const a = await start(() => undefined, { timeoutMs: 150 });
    const events = await streamJson(a.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'status:FAILED']);
    expect(lastStatusText(events)).toBe('The openai-chat upstream did not answer within 150 ms');
  });

  it('fails within maxRunMs even when the upstream keeps the stream alive', async () => {
    const a = await start(
      async (_req, res) => {
        sseHead(res);
        for (let i = 0; i < 200 && !res.destroyed; i++) {
          res.write(': keepalive\n\n');
          await upstreamPause(20);
        }
        res.end();
      },
      { maxRunMs: 200, idleTimeoutMs: 1000 },
    );
    const events = await streamJson(a.handler, send('x'));
    expect(trace(events).at(-1)).toBe('status:FAILED');
    expect(lastStatusText(events)).toBe('The openai-chat upstream run did not finish within 200 ms');
  });

  it('fails clearly when the upstream is unreachable', async () => {
    upstream = await startFakeUpstream({});
    const url = upstream.url;
    await upstream.close();
    agent = await bridged('openai-chat', { baseUrl: `${url}/v1`, model: 'm', timeoutMs: 2000 });
    const events = await streamJson(agent.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'status:FAILED']);
    expect(lastStatusText(events)).toBe('The openai-chat upstream is unreachable (ECONNREFUSED)');
  });

  it('cancellation aborts the upstream request and the task ends CANCELED', async () => {
    let call!: Recorded;
    const a = await start(async (req, res) => {
      call = req;
      sseHead(res);
      await writeFrames(res, [data(chatChunk('tick '))]);
    });
    const stream = await a.handler.sendStreamingMessage(send('x'), ctx());
    const seen: string[] = [];
    let taskId = '';
    for await (const e of stream) {
      const p = e.event.payload!;
      if (p.$case === 'task') taskId = p.value.id;
      seen.push(p.$case);
      if (p.$case === 'statusUpdate' && seen.length === 2) {
        await waitFor(() => call !== undefined);
        const canceled = await a.handler.cancelTask({ tenant: '', id: taskId, metadata: undefined }, ctx());
        expect(Task.toJSON(canceled)).toMatchObject({ status: { state: 'TASK_STATE_CANCELED' } });
      }
    }
    await call.aborted;
    const task = await a.handler.getTask({ tenant: '', id: taskId, historyLength: undefined }, ctx());
    expect(Task.toJSON(task)).toMatchObject({ status: { state: 'TASK_STATE_CANCELED' } });
  });
});

describe('openai-chat bridge: non-streaming', () => {
  it('answers a blocking send with one agent message holding the whole text', async () => {
    const a = await start((req, res) => {
      expect(req.body.stream).toBe(false);
      sendJson(res, 200, {
        id: 'c',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'The whole answer.' }, finish_reason: 'stop' }],
      });
    });
    const res = await a.handler.sendMessage(send('hi'), ctx());
    expect(res.payload?.$case).toBe('message');
    const message = Message.toJSON((res.payload as { value: Message }).value) as any;
    expect(message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: 'The whole answer.' }] });
  });

  it('uses the fallback text when the reply is empty, and streams collected into one message when the server streams anyway', async () => {
    const a = await start(streamed([data(chatChunk('str')), data(chatChunk('eamed')), data('[DONE]')]));
    const res = await a.handler.sendMessage(send('hi'), ctx());
    expect(Message.toJSON((res.payload as any).value)).toMatchObject({ parts: [{ text: 'streamed' }] });
    await upstream.close();
    upstream = await startFakeUpstream({
      'POST /v1/chat/completions': (_q, r) =>
        sendJson(r, 200, { choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'tool_calls' }] }),
    });
    await agent!.close();
    agent = await bridged('openai-chat', { baseUrl: `${upstream.url}/v1`, model: 'm' });
    const empty = await agent.handler.sendMessage(send('hi'), ctx());
    expect(Message.toJSON((empty.payload as any).value)).toMatchObject({ parts: [{ text: `[${AGENT_NAME}] Request completed.` }] });
  });

  it('answers "A2A request failed." and logs the reason, without the API key the upstream echoed', async () => {
    const a = await start((_req, res) => sendJson(res, 401, { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } }));
    const res = await a.handler.sendMessage(send('hi'), ctx());
    expect(Message.toJSON((res.payload as any).value)).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: 'A2A request failed.' }] });
    expect(a.logger.text()).toContain('The openai-chat upstream answered HTTP 401: Incorrect API key provided: [redacted]');
    expect(a.logger.text()).not.toContain(KEY);
  });

  it('a task-mode reply (replyMode task, or returnImmediately) gets a completed task with the text-delta artifact', async () => {
    const a = await start(
      (_req, res) => sendJson(res, 200, { choices: [{ index: 0, message: { role: 'assistant', content: 'as a task' }, finish_reason: 'stop' }] }),
      { replyMode: 'task' },
    );
    const res = await a.handler.sendMessage(send('hi'), ctx());
    const task = Task.toJSON((res.payload as any).value) as any;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toEqual([expect.objectContaining({ artifactId: 'text-delta', parts: [{ text: 'as a task' }] })]);
  });

  it('the HTTP error message of a streaming task never carries the key either', async () => {
    const a = await start((_req, res) => sendJson(res, 500, { error: { message: `upstream config dump: key=${KEY}` } }));
    const events = await streamJson(a.handler, send('x'));
    expect(lastStatusText(events)).toBe('The openai-chat upstream answered HTTP 500: upstream config dump: key=[redacted]');
    expect(JSON.stringify(events)).not.toContain(KEY);
  });
});

describe('openai-chat bridge: conversation continuity', () => {
  it('sends earlier turns of the same context as history, and none for another context', async () => {
    let n = 0;
    const a = await start(
      (_req, res) => sendJson(res, 200, { choices: [{ index: 0, message: { role: 'assistant', content: `answer ${++n}` }, finish_reason: 'stop' }] }),
      { instructions: 'Be brief.' },
    );
    await a.handler.sendMessage(send('first', { contextId: 'ctx-a' }), ctx());
    await a.handler.sendMessage(send('second', { contextId: 'ctx-a' }), ctx());
    await a.handler.sendMessage(send('other', { contextId: 'ctx-b' }), ctx());
    const bodies = upstream.calls('POST /v1/chat/completions').map((c) => c.body.messages);
    expect(bodies[1]).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'answer 1' },
      { role: 'user', content: 'second' },
    ]);
    expect(bodies[2]).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'other' },
    ]);
  });

  it('an upstream 400 is a task failure with the upstream reason, not a protocol error', async () => {
    const a = await start((_req, res) => sendJson(res, 400, { error: { message: 'Missing user message in `messages`.' } }));
    const events = await streamJson(a.handler, send(''));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'status:FAILED']);
    expect(lastStatusText(events)).toBe('The openai-chat upstream answered HTTP 400: Missing user message in `messages`.');
  });
});
