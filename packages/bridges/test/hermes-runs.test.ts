import { Task } from '@a2a-polyglot/model';
import { bridged, ctx, lastStatusText, send, streamJson, trace, type Bridged } from './a2a-side.js';
import { FakeHermes } from './fake-hermes.js';
import { waitFor } from './fake-upstream.js';

const KEY = 'hermes-key-5f2b7c9d';
const APPROVAL = {
  command: 'rm -rf build/',
  description: 'Delete the build directory',
  pattern_key: 'rm',
  request_id: 'req-1',
  choices: ['once', 'session', 'deny'],
};

let hermes: FakeHermes;
let agent: Bridged;
beforeEach(async () => {
  hermes = await new FakeHermes(KEY).start();
});
afterEach(async () => {
  await agent?.close();
  await hermes.close();
});

const start = async (settings: Record<string, unknown> = {}) => (agent = await bridged('hermes-runs', { baseUrl: hermes.url, apiKey: KEY, ...settings }));
const taskOf = (events: any[]) => events[0].task;

describe('hermes-runs bridge', () => {
  it('starts a run, follows its events and maps message.delta to text-delta chunks', async () => {
    hermes.script = () => [
      { event: 'message.delta', delta: 'Hello' },
      { event: 'reasoning.available', text: 'thinking' },
      { event: 'tool.started', tool: 'terminal', preview: 'ls' },
      { event: 'tool.completed', tool: 'terminal', duration: 0.1, error: false },
      { event: 'message.delta', delta: ', world' },
      { event: 'run.completed', output: 'Hello, world', usage: { total_tokens: 5 } },
    ];
    await start({ instructions: 'Be terse.', model: 'hermes-agent' });
    const events = await streamJson(agent.handler, send('greet me'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"Hello"', 'chunk:", world"+!', 'status:COMPLETED']);
    const [post] = hermes.calls('/v1/runs');
    expect(post!.body).toEqual({ input: 'greet me', instructions: 'Be terse.', model: 'hermes-agent' });
    expect(post!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(hermes.calls('/events')).toHaveLength(1);
  });

  it('reports tool events as WORKING metadata when reportTools is on', async () => {
    hermes.script = () => [
      { event: 'tool.started', tool: 'web' },
      { event: 'message.delta', delta: 'x' },
      { event: 'run.completed', output: 'x' },
    ];
    await start({ reportTools: true });
    const events = await streamJson(agent.handler, send('go'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'status:WORKING', 'chunk:"x"!', 'status:COMPLETED']);
    expect(events[2].statusUpdate.metadata).toEqual({ hermes: { event: 'tool.started', tool: 'web' } });
  });

  it("uses run.completed's output when no deltas came, and the fallback when there is none", async () => {
    hermes.script = (input) => (input === 'quiet' ? [{ event: 'run.completed' }] : [{ event: 'run.completed', output: 'only output' }]);
    await start();
    expect(trace(await streamJson(agent.handler, send('x')))).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"only output"!', 'status:COMPLETED']);
    expect(trace(await streamJson(agent.handler, send('quiet')))).toEqual([
      'task:SUBMITTED',
      'status:WORKING',
      'chunk:"[Bridge Agent] Request completed."!',
      'status:COMPLETED',
    ]);
  });

  it('run.failed after partial text keeps the chunks and fails with the reason', async () => {
    hermes.script = () => [
      { event: 'message.delta', delta: 'Working on' },
      { event: 'message.delta', delta: ' it' },
      { event: 'run.failed', error: 'provider quota exceeded' },
    ];
    await start();
    const events = await streamJson(agent.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"Working on"', 'chunk:" it"+', 'status:FAILED']);
    expect(lastStatusText(events)).toBe('The Hermes run failed: provider quota exceeded');
  });

  it('approval round trip over streams: INPUT_REQUIRED with the choices, the follow-up answers it, the same event stream goes on', async () => {
    hermes.script = () => [
      { event: 'message.delta', delta: 'I need to clean up. ' },
      { approval: APPROVAL },
      { event: 'message.delta', delta: 'Done, ' },
      { event: 'message.delta', delta: 'cleaned.' },
      { event: 'run.completed', output: 'I need to clean up. Done, cleaned.' },
    ];
    await start();
    const first = await streamJson(agent.handler, send('clean the build'));
    expect(trace(first)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"I need to clean up. "', 'status:INPUT_REQUIRED']);
    const paused = first.at(-1).statusUpdate;
    expect(lastStatusText(first)).toBe('Hermes asks for approval: Delete the build directory\nCommand: rm -rf build/\nAnswer with one of: once, session, deny');
    expect(paused.status.message.parts[1].data).toMatchObject({
      type: 'hermes.approval',
      choices: ['once', 'session', 'deny'],
      requestId: 'req-1',
      command: 'rm -rf build/',
    });
    expect(paused.metadata).toMatchObject({ approval: { choices: ['once', 'session', 'deny'], requestId: 'req-1' } });

    const taskId = taskOf(first).id;
    const second = await streamJson(agent.handler, send('Session', { taskId }));
    expect(trace(second)).toEqual(['task:INPUT_REQUIRED', 'status:WORKING', 'chunk:"Done, "+', 'chunk:"cleaned."+!', 'status:COMPLETED']);
    expect(hermes.calls('/approval').map((c) => c.body)).toEqual([{ choice: 'session', request_id: 'req-1' }]);
    expect(hermes.calls('/events')).toHaveLength(1); // one consumer, kept open across the pause
    const task = Task.toJSON(await agent.handler.getTask({ tenant: '', id: taskId, historyLength: undefined }, ctx())) as any;
    expect(task.artifacts[0].parts.map((p: any) => p.text).join('')).toBe('I need to clean up. Done, cleaned.');
  });

  it('approval round trip over blocking sends: the message answer becomes a task that asks, then completes', async () => {
    hermes.script = () => [
      { approval: { ...APPROVAL, choices: ['once', 'deny'] }, name: 'approval.required' },
      { event: 'assistant.delta', delta: 'ok' },
      { event: 'run.completed', output: 'ok' },
    ];
    await start();
    const asked = Task.toJSON((await agent.handler.sendMessage(send('do it'), ctx())).payload!.value as Task) as any;
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const again = Task.toJSON((await agent.handler.sendMessage(send('maybe', { taskId: asked.id }), ctx())).payload!.value as Task) as any;
    expect(again.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(again.status.message.parts[0].text).toMatch(/^"maybe" is not one of the choices\.\nHermes asks for approval/);
    expect(hermes.calls('/approval')).toHaveLength(0);
    const done = Task.toJSON((await agent.handler.sendMessage(send('approve', { taskId: asked.id }), ctx())).payload!.value as Task) as any;
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts[0].parts).toEqual([{ text: 'ok' }]);
    expect(hermes.calls('/approval').map((c) => c.body.choice)).toEqual(['once']);
  });

  it('an approval answer as a data part {choice} works too', async () => {
    hermes.script = () => [{ approval: APPROVAL }, { event: 'run.completed', output: 'denied, stopping' }];
    await start();
    const first = await streamJson(agent.handler, send('x'));
    const second = await streamJson(agent.handler, send('', { taskId: taskOf(first).id, data: { choice: 'deny' } }));
    expect(trace(second).at(-1)).toBe('status:COMPLETED');
    expect(hermes.calls('/approval')[0]!.body.choice).toBe('deny');
  });

  it('CancelTask stops the upstream run (POST /stop) and the task ends CANCELED', async () => {
    hermes.script = () => [{ event: 'message.delta', delta: 'long job' }, { waitStop: true }];
    await start();
    const stream = await agent.handler.sendStreamingMessage(send('x'), ctx());
    let taskId = '';
    const states: string[] = [];
    for await (const e of stream) {
      const p = e.event.payload!;
      if (p.$case === 'task') taskId = p.value.id;
      if (p.$case === 'statusUpdate') states.push(String(p.value.status?.state));
      if (states.length === 1) {
        await waitFor(() => [...hermes.runs.values()].some((r) => r.status === 'running'));
        const canceled = Task.toJSON(await agent.handler.cancelTask({ tenant: '', id: taskId, metadata: undefined }, ctx())) as any;
        expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
        states.push('canceled-called');
      }
    }
    expect(hermes.calls('/stop')).toHaveLength(1);
    expect([...hermes.runs.values()][0]!.stopCalls).toBe(1);
  });

  it('CancelTask on a task paused for approval stops the run too', async () => {
    hermes.script = () => [{ approval: APPROVAL }, { event: 'run.completed', output: 'never' }];
    await start();
    const first = await streamJson(agent.handler, send('x'));
    await waitFor(() => agent.handler.activeRuns === 0);
    const canceled = Task.toJSON(await agent.handler.cancelTask({ tenant: '', id: taskOf(first).id, metadata: undefined }, ctx())) as any;
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect(hermes.calls('/stop')).toHaveLength(1);
  });

  it('a run left waiting past approvalTimeoutMs is stopped; a late answer fails clearly', async () => {
    hermes.script = () => [{ approval: APPROVAL }, { event: 'run.completed' }];
    await start({ approvalTimeoutMs: 100 });
    const first = await streamJson(agent.handler, send('x'));
    await waitFor(() => hermes.calls('/stop').length === 1);
    const late = await streamJson(agent.handler, send('once', { taskId: taskOf(first).id }));
    expect(trace(late)).toEqual(['task:INPUT_REQUIRED', 'status:WORKING', 'status:FAILED']);
    expect(lastStatusText(late)).toMatch(/^No Hermes run is waiting for an answer on this task any more/);
  });

  it('settles by polling GET /v1/runs/{id} when the stream ends without a terminal event', async () => {
    hermes.script = (input) =>
      input === 'ok'
        ? [
            { event: 'message.delta', delta: 'part' },
            { closeWith: 'completed', output: 'part' },
          ]
        : [{ closeWith: 'running' }];
    await start();
    expect(trace(await streamJson(agent.handler, send('ok')))).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"part"!', 'status:COMPLETED']);
    const lost = await streamJson(agent.handler, send('lost'));
    expect(trace(lost).at(-1)).toBe('status:FAILED');
    expect(lastStatusText(lost)).toBe('The hermes-runs upstream event stream ended before the run finished (run status: running)');
  });

  it('stops the run when its event stream cannot be opened, and fails clearly', async () => {
    hermes.eventsStatus = 404;
    await start();
    const events = await streamJson(agent.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'status:FAILED']);
    expect(lastStatusText(events)).toBe('The hermes-runs upstream answered HTTP 404: Run not found');
    await waitFor(() => hermes.calls('/stop').length === 1);
  });

  it('accepts the older spellings as aliases', async () => {
    hermes.script = () => [
      { event: 'tool.call', tool: 'x' },
      { event: 'assistant.delta', delta: 'a' },
      { event: 'tool.result', tool: 'x' },
      { event: 'message.delta', delta: 'b' },
      { event: 'run.canceled' },
    ];
    await start();
    const events = await streamJson(agent.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"a"', 'chunk:"b"+', 'status:FAILED']);
    expect(lastStatusText(events)).toBe('The Hermes run was stopped upstream');
  });

  it('a wrong key is a clear failure that does not repeat the key', async () => {
    agent = await bridged('hermes-runs', { baseUrl: hermes.url, apiKey: 'wrong-key-123456' });
    const events = await streamJson(agent.handler, send('x'));
    expect(lastStatusText(events)).toBe('The hermes-runs upstream answered HTTP 401: Invalid gateway API key (API_SERVER_KEY)');
    expect(agent.logger.text()).not.toContain('wrong-key-123456');
  });

  it('sends earlier turns of the context as conversation_history', async () => {
    await start();
    await agent.handler.sendMessage(send('one', { contextId: 'c1' }), ctx());
    await agent.handler.sendMessage(send('two', { contextId: 'c1' }), ctx());
    expect(hermes.calls('/v1/runs')[1]!.body.conversation_history).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'echo one' },
    ]);
  });
});
