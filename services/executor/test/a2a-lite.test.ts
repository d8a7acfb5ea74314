/**
 * A2A-Lite on an executor agent (`agents[i].a2aLite`), end to end over JSON-RPC: tagged text
 * from a chat-channel peer becomes task operations, and the answers come back tagged.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLite } from '@a2a-polyglot/a2a-lite';
import { principalScope } from '../src/a2a-lite/principal-scope.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, partsText, postJson, readSse, rpc, userMessage, waitFor } from './helpers.js';

const started: RunningExecutor[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

async function start(a2aLite: unknown = true, extra: Record<string, unknown> = {}): Promise<RunningExecutor> {
  const running = await startExecutor(
    {
      ...extra,
      host: '127.0.0.1',
      port: 0,
      grpcPort: false,
      shutdownGraceMs: 200,
      agents: [
        { id: 'mexico', handler: 'demo', name: 'Mexico', a2aLite, settings: { chunkDelayMs: 0 } },
        { id: 'plain', handler: 'demo' },
      ],
    } as never,
    { env: {} },
  );
  started.push(running);
  return running;
}

/** SendMessage of `text` to the Lite agent; the JSON-RPC result (task or message) or error. */
async function send(
  running: RunningExecutor,
  text: string,
  extra: Record<string, unknown> = {},
  agent = 'mexico',
  headers: Record<string, string> = {},
): Promise<any> {
  return json(await postJson(`${running.url}/agents/${agent}/a2a/rpc`, rpc('SendMessage', { message: userMessage(text), ...extra }), headers));
}

/** {@link send} as the caller of API key `key`. */
function sendAs(running: RunningExecutor, key: string, text: string): Promise<any> {
  return send(running, text, {}, 'mexico', { 'x-api-key': key });
}

const AUTH = { auth: { apiKeys: { 'key-alice': 'alice', 'key-bob': 'bob', 'key-odd': '../../odd/principal' } } };

/** The Lite message an answer carries: a reply message's text, or the task's status message. */
function liteOf(result: any): ReturnType<typeof parseLite> {
  const message = result.message ?? result.task?.status?.message;
  return parseLite(partsText(message?.parts ?? []));
}

describe('executor: A2A-Lite agent option', () => {
  it("runs the skill's one-line task example and answers with a tagged result", async () => {
    const running = await start();
    const { result } = await send(running, '[A2A:task id=123]...');
    expect(result.task.status.state).toBe('TASK_STATE_COMPLETED');
    // The agent saw the body, not the tag; the Lite parameters travel in metadata.
    expect(partsText(result.task.artifacts[0].parts)).toBe('Echo: ...');
    expect(result.task.history[0].metadata).toEqual({ a2aLite: { type: 'task', id: '123' } });
    expect(liteOf(result)).toEqual({
      isA2A: true,
      type: 'result',
      params: { task: '123', state: 'completed', ref: result.task.id },
      body: 'Echo: ...',
      attachments: [],
    });

    // status / result name the task by its Lite id: GetTask.
    for (const type of ['status', 'result']) {
      const asked = await send(running, `[A2A:${type} task=123]`);
      expect(asked.result.message.role).toBe('ROLE_AGENT');
      expect(liteOf(asked.result)).toMatchObject({ type: 'result', params: { task: '123', state: 'completed', ref: result.task.id }, body: 'Echo: ...' });
    }
    const unknown = await send(running, '[A2A:status task=nope]');
    expect(unknown.error.code).toBe(-32001); // TaskNotFound
    const noId = await send(running, '[A2A:task skill=x]\nhello');
    expect(noId.error).toMatchObject({ code: -32602, message: '[A2A:task] needs id=' });
  });

  it('tags progress and questions, continues an input-required task by its Lite id, and cancels by Lite id', async () => {
    const running = await start();
    const asked = await send(running, '[A2A:task id=q-1]\nask');
    expect(asked.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(liteOf(asked.result)).toMatchObject({ type: 'status', params: { task: 'q-1', state: 'input-required' } });
    // The answer to the question: same Lite id, same A2A task.
    const answered = await send(running, '[A2A:task id=q-1]\nblue');
    expect(answered.result.task.id).toBe(asked.result.task.id);
    expect(answered.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(liteOf(answered.result)).toMatchObject({ type: 'result', params: { task: 'q-1', state: 'completed' }, body: 'Echo: blue' });

    // A slow task, started in the background, then canceled with [A2A:cancel].
    const slow = await send(running, '[A2A:task id=slow-1]\nslow', { configuration: { returnImmediately: true } });
    const taskId = slow.result.task.id;
    const canceled = await send(running, '[A2A:cancel task=slow-1 reason=no-longer-needed]');
    expect(liteOf(canceled.result)).toMatchObject({ type: 'result', params: { task: 'slow-1', state: 'cancelled', ref: taskId } });
    const got = await json(await postJson(`${running.url}/agents/mexico/a2a/rpc`, rpc('GetTask', { id: taskId })));
    expect(got.result.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('streams a tagged task like any other, ending with the tagged result', async () => {
    const running = await start();
    const res = await postJson(`${running.url}/agents/mexico/a2a/rpc`, rpc('SendStreamingMessage', { message: userMessage('[A2A:task id=s-1] hi') }), {
      Accept: 'text/event-stream',
    });
    const events = (await readSse(res)).map((e) => e.data.result);
    const last = events.at(-1).statusUpdate;
    expect(last.status.state).toBe('TASK_STATE_COMPLETED');
    expect(parseLite(partsText(last.status.message.parts))).toMatchObject({ type: 'result', params: { task: 's-1', state: 'completed' }, body: 'Echo: hi' });
    const working = events.find((e) => e.statusUpdate?.status.state === 'TASK_STATE_WORKING').statusUpdate;
    expect(parseLite(partsText(working.status.message.parts))).toMatchObject({ type: 'status', params: { task: 's-1', state: 'working' }, body: 'Echoing' });
  });

  it('answers discover with its card, and keeps the cards of peers in the known-agents cache', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-lite-known-'));
    const running = await start({ knownAgentsDir: dir });
    const own = liteOf((await send(running, '[A2A:discover]\nWhat can you do?')).result);
    expect(own).toMatchObject({ type: 'card' });
    expect((own as { body: string }).body).toContain('I am Mexico.');

    const jiajia = {
      protocol: 'a2a-lite/1.0',
      agent: { id: 'jiajia', name: '佳佳', framework: 'clawdbot' },
      skills: [{ id: 'research', name: '调研助手', description: '收集和分析特定主题的资料' }],
      channels: ['discord:jiajia'],
    };
    const introduced = liteOf((await send(running, `[A2A:card]\n${JSON.stringify(jiajia)}`)).result);
    expect(introduced).toMatchObject({ type: 'card', params: { agent: 'mexico' } });
    // The anonymous caller's folder (no authenticator here).
    expect(JSON.parse(readFileSync(join(dir, principalScope(undefined), 'jiajia.json'), 'utf8')).card).toEqual(jiajia);
    const known = liteOf((await send(running, '[A2A:discover agent=jiajia]')).result);
    expect(known).toMatchObject({ type: 'card', params: { agent: 'jiajia' } });
    expect((known as { body: string }).body).toContain('调研助手 (research)');

    // A prose card with agent=, and refusals in A2A terms.
    await send(running, '[A2A:card agent=mexico-2]\nI send mail.');
    expect(liteOf((await send(running, '[A2A:discover agent=mexico-2]')).result)).toMatchObject({ body: 'I send mail.' });
    expect((await send(running, '[A2A:card]\n{"protocol":"a2a-lite/1.0"}')).error.code).toBe(-32602);
    expect((await send(running, '[A2A:card agent=../x]\nhi')).error.code).toBe(-32602);
    expect((await send(running, '[A2A:discover agent=nobody]')).error.code).toBe(-32602);
  });

  it('refuses a card larger than maxCardBytes in A2A-Lite terms, and keeps nothing of it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-lite-known-'));
    const running = await start({ knownAgentsDir: dir });
    const big = await send(running, `[A2A:card agent=big]\n${'x'.repeat(64 * 1024 + 1)}`);
    expect(big.error).toMatchObject({ code: -32602, message: 'The [A2A:card] body is 65537 bytes; this agent keeps cards of at most 65536 bytes' });
    expect((await send(running, '[A2A:discover agent=big]')).error.code).toBe(-32602);
    expect(readdirSync(dir, { recursive: true })).toEqual([]);
    // At the limit it is kept; a configured limit applies instead of the default.
    expect((await send(running, `[A2A:card agent=fits]\n${'x'.repeat(64 * 1024)}`)).result).toBeDefined();
    const small = await start({ maxCardBytes: 100 });
    expect((await send(small, `[A2A:card agent=big]\n${'x'.repeat(101)}`)).error.message).toContain('at most 100 bytes');
    expect((await send(small, `[A2A:card agent=ok]\n${'x'.repeat(100)}`)).result).toBeDefined();
  });

  it('keeps at most 100 peers per caller by default, removing the files of the evicted ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-lite-known-'));
    const running = await start({ knownAgentsDir: dir });
    for (let i = 0; i <= 100; i++) expect((await send(running, `[A2A:card agent=peer-${i}]\nPeer ${i}.`)).result).toBeDefined();
    expect((await send(running, '[A2A:discover agent=peer-0]')).error.code).toBe(-32602);
    expect(liteOf((await send(running, '[A2A:discover agent=peer-100]')).result)).toMatchObject({ body: 'Peer 100.' });
    const files = readdirSync(join(dir, principalScope(undefined)));
    expect(files).toHaveLength(100);
    expect(files).not.toContain('peer-0.json');
  });

  it("keys the known agents by principal: bob neither replaces nor reads alice's entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-lite-known-'));
    const running = await start({ knownAgentsDir: dir }, AUTH);
    expect((await sendAs(running, 'key-alice', "[A2A:card agent=jiajia]\nAlice's jiajia researches.")).result).toBeDefined();
    expect((await sendAs(running, 'key-bob', "[A2A:card agent=jiajia]\nBob's jiajia sends spam.")).result).toBeDefined();
    expect(liteOf((await sendAs(running, 'key-alice', '[A2A:discover agent=jiajia]')).result)).toMatchObject({ body: "Alice's jiajia researches." });
    expect(liteOf((await sendAs(running, 'key-bob', '[A2A:discover agent=jiajia]')).result)).toMatchObject({ body: "Bob's jiajia sends spam." });
    // Another caller knows no jiajia; one without credentials is refused before anything is cached.
    expect((await sendAs(running, 'key-odd', '[A2A:discover agent=jiajia]')).error.code).toBe(-32602);
    expect((await send(running, '[A2A:card agent=anon]\nhi')).error.code).toBe(-31401);
    expect((await send(running, '[A2A:discover agent=jiajia]')).error.code).toBe(-31401);
    // A folder per principal, named by a hash, even for an id full of dots and slashes (the
    // principal ids are the authenticator's: only their number and shape are checked here).
    await sendAs(running, 'key-odd', '[A2A:card agent=odd]\nodd');
    const folders = readdirSync(dir);
    expect(folders).toHaveLength(3);
    for (const folder of folders) expect(folder).toMatch(/^[0-9a-f]{64}$/);
    expect(folders.map((f) => readdirSync(join(dir, f)).join()).sort()).toEqual(['jiajia.json', 'jiajia.json', 'odd.json']);
  });

  it("keys the Lite task ids by principal: bob reusing alice's id does not push her task out", async () => {
    const running = await start(true, AUTH);
    const mine = await sendAs(running, 'key-alice', '[A2A:task id=r1]\nalice');
    expect(mine.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    for (let i = 0; i < 8; i++) expect((await sendAs(running, 'key-bob', `[A2A:task id=r1]\nbob ${i}`)).result.task).toBeDefined();
    const asked = await sendAs(running, 'key-alice', '[A2A:status task=r1]');
    expect(liteOf(asked.result)).toMatchObject({ type: 'result', params: { task: 'r1', ref: mine.result.task.id }, body: 'Echo: alice' });
    expect(liteOf((await sendAs(running, 'key-bob', '[A2A:status task=r1]')).result)).toMatchObject({ body: 'Echo: bob 7' });
  });

  it('leaves untagged text, and agents without the option, as plain conversation', async () => {
    const running = await start();
    const plain = await send(running, 'hello');
    expect(partsText(plain.result.task.artifacts[0].parts)).toBe('Echo: hello');
    expect(plain.result.task.status.message).toBeUndefined();
    const other = await send(running, '[A2A:task id=1]\nhi', {}, 'plain');
    expect(partsText(other.result.task.artifacts[0].parts)).toBe('Echo: [A2A:task id=1]\nhi');
    await waitFor(() => running.agents.every((a) => a.handler.activeRuns === 0), { what: 'the runs to end' });
  });
});
