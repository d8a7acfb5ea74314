import { callContext, RequestHandler, type LoggedEvent } from '@a2a-polyglot/core';
import { userSend } from '@a2a-polyglot/testing';
import { TaskState, type Part, type Task } from '@a2a-polyglot/model';
import { buildAgentCard } from '../src/card.js';
import { defaultConfig } from '../src/config.js';
import { createDemoAgent, DEMO_QUESTION } from '../src/demo-agent.js';
import { waitFor } from './helpers.js';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });

function handler(options: Parameters<typeof createDemoAgent>[0] = {}): RequestHandler {
  return new RequestHandler({ card: buildAgentCard(defaultConfig()), executor: createDemoAgent({ chunkDelayMs: 0, ...options }) });
}

async function collect(stream: AsyncIterable<LoggedEvent>): Promise<LoggedEvent[]> {
  const out: LoggedEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

function taskOf(res: Awaited<ReturnType<RequestHandler['sendMessage']>>): Task {
  expect(res.payload?.$case).toBe('task');
  return (res.payload as { value: Task }).value;
}

const artifactText = (task: Task) => task.artifacts.flatMap((a) => a.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).join('');
const statusText = (task: Task) => task.status?.message?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

describe('demo agent', () => {
  it('echoes the text as one artifact and completes', async () => {
    const task = taskOf(await handler().sendMessage(userSend('hello there, general kenobi'), ctx()));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts).toHaveLength(1);
    expect(artifactText(task)).toBe('Echo: hello there, general kenobi');
  });

  it('streams working, then chunks of a few words with append/lastChunk, then completed', async () => {
    const events = await collect(await handler().sendStreamingMessage(userSend('one two three four five six seven'), ctx()));
    const kinds = events.map((e) => e.event.payload?.$case);
    expect(kinds[0]).toBe('task');
    expect(kinds[1]).toBe('statusUpdate');
    expect(kinds[kinds.length - 1]).toBe('statusUpdate');
    const chunks = events.flatMap((e) => (e.event.payload?.$case === 'artifactUpdate' ? [e.event.payload.value] : []));
    // "Echo: one two three four five six seven" = 8 words → 3 chunks of ≤3 words.
    expect(chunks.map((c) => c.artifact?.parts.map((p) => p.content?.value).join(''))).toEqual(['Echo: one two ', 'three four five ', 'six seven']);
    expect(chunks.map((c) => c.append)).toEqual([false, true, true]);
    expect(chunks.map((c) => c.lastChunk)).toEqual([false, false, true]);
    expect(new Set(chunks.map((c) => c.artifact?.artifactId)).size).toBe(1);
    const states = events.flatMap((e) => (e.event.payload?.$case === 'statusUpdate' ? [e.event.payload.value.status?.state] : []));
    expect(states).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]);
  });

  it('asks a question on "ask" and completes with the follow-up', async () => {
    const h = handler();
    const asked = taskOf(await h.sendMessage(userSend('Ask me something'), ctx()));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(asked)).toBe(DEMO_QUESTION);
    const answered = taskOf(await h.sendMessage(userSend('blue', { taskId: asked.id }), ctx()));
    expect(answered.id).toBe(asked.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(answered)).toBe('Echo: blue');
  });

  it('fails on "fail" with a status message saying why', async () => {
    const task = taskOf(await handler().sendMessage(userSend('fail please'), ctx()));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toMatch(/failed on purpose/);
  });

  it('keeps streaming on "slow" until canceled, then stops', async () => {
    const h = handler({ slowChunkDelayMs: 5, slowChunks: 100_000 });
    const stream = await h.sendStreamingMessage(userSend('slow'), ctx());
    const seen: LoggedEvent[] = [];
    let canceled: Task | undefined;
    for await (const e of stream) {
      seen.push(e);
      const artifacts = seen.filter((x) => x.event.payload?.$case === 'artifactUpdate').length;
      if (artifacts === 3 && !canceled)
        canceled = await h.cancelTask({ tenant: '', id: (seen[0]!.event.payload as { value: Task }).value.id, metadata: undefined }, ctx());
    }
    expect(canceled?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const last = seen[seen.length - 1]!.event.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // The agent noticed the abort and returned (the run is released shortly after).
    await waitFor(() => h.activeRuns === 0, { timeoutMs: 2000 });
  });

  it('does not treat words that merely start with a command as commands', async () => {
    const task = taskOf(await handler().sendMessage(userSend('asking nicely'), ctx()));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('Echo: asking nicely');
  });

  it('echoes files and data as a note each, beside the text, so the demo shows what arrived', async () => {
    const part = (content: Part['content'], filename = '', mediaType = ''): Part => ({ content, metadata: undefined, filename, mediaType });
    const req = userSend('');
    req.message!.parts = [
      part({ $case: 'text', value: 'look:' }),
      part({ $case: 'raw', value: new Uint8Array(3) }, 'x.png', 'image/png'),
      part({ $case: 'url', value: 'https://files.example/r.pdf' }, '', 'application/pdf'),
      part({ $case: 'data', value: { a: 1 } }, '', 'application/json'),
    ];
    const task = taskOf(await handler().sendMessage(req, ctx()));
    expect(artifactText(task)).toBe('Echo: look: [file "x.png", image/png, 3 bytes] [file application/pdf, at https://files.example/r.pdf] [data {"a":1}]');
  });

  it("its card takes what the inspector's composer sends: text, JSON data and files of any type", async () => {
    const card = buildAgentCard(defaultConfig());
    expect(card.defaultInputModes).toEqual(['text/plain', 'application/json', '*/*']);
    const req = userSend('');
    req.message!.parts = [{ content: { $case: 'raw', value: new Uint8Array(1) }, metadata: undefined, filename: 'blob', mediaType: '' }];
    expect(artifactText(taskOf(await handler().sendMessage(req, ctx())))).toBe('Echo: [file "blob", no media type, 1 bytes]');
  });
});
