/**
 * Agents that describe themselves: the two examples under `examples/` run through the real
 * executor (a child process of main.ts, so TypeScript and ES modules load as in production,
 * through tsx and Node's import), and a client of @a2a-polyglot/client streams, answers the
 * input request and cancels. The served card is the module's own; a configured key wins over
 * it; a broken module or card fails the start with a line naming the file and the cause.
 */
import { Client, textMessage } from '@a2a-polyglot/client';
import { TaskState, type AgentCard, type StreamResponse } from '@a2a-polyglot/model';
import { waitFor } from '@a2a-polyglot/testing';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

const EXAMPLES = resolve(__dirname, '../../../examples');
const TS_AGENT = join(EXAMPLES, 'typescript-agent/agent.ts');
const JS_AGENT = join(EXAMPLES, 'javascript-agent/agent.mjs');

const children: ExecutorProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const c of children.splice(0)) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string> = {}): ExecutorProcess {
  const c = spawnExecutor({ PORT: '0', GRPC_PORT: '0', ...env }, args);
  children.push(c);
  return c;
}

async function connect(c: ExecutorProcess): Promise<Client> {
  const client = await Client.connect(await listeningUrl(c, 30_000));
  clients.push(client);
  return client;
}

async function exitOf(c: ExecutorProcess): Promise<number | null> {
  await waitFor(() => c.process.exitCode !== null, { timeoutMs: 30_000, intervalMs: 20, what: 'the executor to exit' });
  return c.exited;
}

/** The text of every artifact chunk, in order. */
function artifactText(events: readonly StreamResponse[]): string {
  return events
    .flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? (e.payload.value.artifact?.parts ?? []) : []))
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');
}

function finalState(events: readonly StreamResponse[]): TaskState | undefined {
  const last = events[events.length - 1]?.payload;
  if (last?.$case === 'statusUpdate') return last.value.status?.state;
  if (last?.$case === 'task') return last.value.status?.state;
  return undefined;
}

function statusText(events: readonly StreamResponse[]): string {
  const last = events[events.length - 1]?.payload;
  const parts = last?.$case === 'statusUpdate' ? (last.value.status?.message?.parts ?? []) : [];
  return parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

async function collect(stream: AsyncIterable<{ event: StreamResponse }>, until?: (events: StreamResponse[]) => boolean): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const { event } of stream) {
    events.push(event);
    if (until?.(events)) break;
  }
  return events;
}

function skillsOf(card: AgentCard) {
  return card.skills.map((s) => ({ id: s.id, examples: s.examples }));
}

describe('examples/typescript-agent (agent.ts through tsx)', () => {
  it('serves its own card, streams, asks for input once and continues the task with the answer', async () => {
    const client = await connect(run(['--agent-module', TS_AGENT], { COUNTDOWN_TICK_MS: '5' }));
    expect(client.card.name).toBe('Countdown Agent');
    expect(skillsOf(client.card)).toEqual([{ id: 'countdown', examples: ['countdown 5', 'countdown', 'countdown 100'] }]);
    expect(client.card.capabilities?.pushNotifications).toBe(false);

    const asked = await collect(client.sendStreamingMessage({ message: textMessage('countdown') }));
    expect(finalState(asked)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(asked)).toBe('From which number shall I count down?');
    const task = asked.find((e) => e.payload?.$case === 'task')?.payload;
    const taskId = task?.$case === 'task' ? task.value.id : '';
    const contextId = task?.$case === 'task' ? task.value.contextId : '';
    expect(taskId).not.toBe('');

    const answered = await collect(client.sendStreamingMessage({ message: textMessage('3', { taskId, contextId }) }));
    expect(artifactText(answered)).toBe('3… 2… 1… liftoff!');
    expect(answered.filter((e) => e.payload?.$case === 'artifactUpdate')).toHaveLength(4);
    expect(finalState(answered)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('honours cancel: the stream stops and the cancel hook says where', async () => {
    const client = await connect(run(['--agent-module', TS_AGENT], { COUNTDOWN_TICK_MS: '50' }));
    const stream = client.sendStreamingMessage({ message: textMessage('countdown 1000') });
    const events: StreamResponse[] = [];
    let taskId = '';
    let canceling = false;
    for await (const { event } of stream) {
      events.push(event);
      if (event.payload?.$case === 'task') taskId = event.payload.value.id;
      if (!canceling && events.filter((e) => e.payload?.$case === 'artifactUpdate').length === 3 && taskId) {
        canceling = true;
        const canceled = await client.cancelTask({ id: taskId });
        expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      }
    }
    expect(finalState(events)).toBe(TaskState.TASK_STATE_CANCELED);
    expect(statusText(events)).toMatch(/^Countdown stopped at 99[0-9]\.$/);
    expect(artifactText(events)).not.toContain('liftoff');
  });

  it('a configured card key wins over the module card; the rest stays the module card', async () => {
    const client = await connect(run(['--agent-module', TS_AGENT], { A2A_AGENT_NAME: 'Mission Control' }));
    expect(client.card.name).toBe('Mission Control');
    expect(client.card.description).toMatch(/^Counts down from a number/);
    expect(skillsOf(client.card).map((s) => s.id)).toEqual(['countdown']);
  });
});

describe('examples/javascript-agent (agent.mjs, card exported beside the agent)', () => {
  it('serves its own card, streams, asks for input and continues the task', async () => {
    const client = await connect(run(['--agent-module', JS_AGENT], { REVERSER_TICK_MS: '5' }));
    expect(client.card.name).toBe('Word Reverser');
    expect(skillsOf(client.card)).toEqual([{ id: 'reverse', examples: ['reverse one two three', 'reverse'] }]);

    const asked = await collect(client.sendStreamingMessage({ message: textMessage('reverse') }));
    expect(finalState(asked)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const task = asked.find((e) => e.payload?.$case === 'task')?.payload;
    const ids = task?.$case === 'task' ? { taskId: task.value.id, contextId: task.value.contextId } : {};
    const answered = await collect(client.sendStreamingMessage({ message: textMessage('one two three', ids) }));
    expect(artifactText(answered)).toBe('three two one');
    expect(finalState(answered)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('honours cancel mid-stream', async () => {
    const client = await connect(run(['--agent-module', JS_AGENT], { REVERSER_TICK_MS: '60000' }));
    let canceling: Promise<unknown> | undefined;
    const events = await collect(client.sendStreamingMessage({ message: textMessage('reverse a b c d') }), (all) => {
      const first = all.find((e) => e.payload?.$case === 'task')?.payload;
      if (!canceling && first?.$case === 'task' && all.some((e) => e.payload?.$case === 'artifactUpdate'))
        canceling = client.cancelTask({ id: first.value.id });
      return false;
    });
    expect(await canceling).toMatchObject({ status: { state: TaskState.TASK_STATE_CANCELED } });
    expect(finalState(events)).toBe(TaskState.TASK_STATE_CANCELED);
    expect(artifactText(events)).toBe('d');
  });
});

describe('agent modules that cannot be served', () => {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-agent-module-'));

  it('a TypeScript module that does not compile: one line naming the file and the cause', async () => {
    const file = join(dir, 'broken.ts');
    writeFileSync(file, 'export default { async execute(ctx: { text: string }) { ctx.text = ; } };\n');
    const c = run(['--agent-module', file]);
    expect(await exitOf(c)).not.toBe(0);
    expect(c.stderr.trim().split('\n')).toHaveLength(1);
    expect(c.stderr).toContain(`Agent module ${file} failed to load: `);
    expect(c.stderr).toMatch(/broken\.ts:1:\d+: ERROR: Unexpected ";"/);
  });

  it('a module card with a bad field: the error names the field', async () => {
    const file = join(dir, 'bad-card.mjs');
    writeFileSync(file, "export const card = { name: 'X', skills: [{ name: 'no id', description: '' }] };\nexport default { async execute() {} };\n");
    const c = run(['--agent-module', file]);
    expect(await exitOf(c)).not.toBe(0);
    expect(c.stderr).toMatch(
      new RegExp(`^Agent module ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} exports an invalid card: card\\.skills\\[0\\]\\.id must be .*\\n$`),
    );
  });
});
