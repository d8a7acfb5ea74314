import { callContext, RequestHandler, silentLogger, type AgentExecutor } from '@a2a-polyglot/core';
import { recordingLogger, userSend, waitFor } from '@a2a-polyglot/testing';
import { execFileSync } from 'node:child_process';
import { TaskState, type Task } from '@a2a-polyglot/model';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildAgentCard } from '../src/card.js';
import { defaultConfig, loadConfig } from '../src/config.js';
import { AgentModuleError, loadAgentModule } from '../src/load-agent.js';

const examples = resolve(__dirname, '../examples');
const context = { config: defaultConfig(), logger: silentLogger };

/** Writes `files` into a fresh temp directory and returns it. */
function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'executor-agent-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** Sends `text` to `executor` through the core and returns the resulting task or message text. */
async function run(executor: AgentExecutor, text: string): Promise<{ state?: TaskState; text: string }> {
  const h = new RequestHandler({ card: buildAgentCard(defaultConfig()), executor, logger: silentLogger });
  const res = await h.sendMessage(userSend(text), callContext('IN-PROCESS', { 'a2a-version': '1.0' }));
  const parts = (p: { content?: { $case: string; value: unknown } }[]) => p.map((x) => (x.content?.$case === 'text' ? x.content.value : '')).join('');
  if (res.payload?.$case === 'message') return { text: parts(res.payload.value.parts) };
  const task = res.payload?.value as Task;
  return { state: task.status?.state, text: task.artifacts.map((a) => parts(a.parts)).join('') || parts(task.status?.message?.parts ?? []) };
}

/** Loads and expects an AgentModuleError; returns its message. */
async function loadError(spec: string, baseDir: string): Promise<string> {
  const error = await loadAgentModule(spec, context, baseDir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentModuleError);
  expect((error as Error).message).not.toContain('\n');
  return (error as Error).message;
}

describe('loadAgentModule', () => {
  it('loads the shipped example (a factory exported as "agent") and runs it', async () => {
    const executor = await loadAgentModule(
      './echo-agent.js',
      { ...context, config: { ...defaultConfig(), agent: { ...defaultConfig().agent, name: 'Example' } } },
      examples,
    );
    expect(await run(executor, 'hello world')).toEqual({ state: TaskState.TASK_STATE_COMPLETED, text: 'Example says: HELLO WORLD' });
    expect(await run(executor, '  ')).toEqual({ text: 'Send me some text and I will shout it back.' });
  });

  it('loads the example through examples/config.json, resolved against the file directory', async () => {
    const { config } = loadConfig({ argv: ['--config', join(examples, 'config.json')], env: {}, cwd: tmpdir() });
    expect(config.agentModule).toBe(join(examples, 'echo-agent.js'));
    const executor = await loadAgentModule(config.agentModule!, { config, logger: silentLogger });
    expect((await run(executor, 'hi')).text).toBe('Shouting Echo says: HI');
  });

  it.each([
    ['module.exports is the executor', `module.exports = { async execute(ctx) { ctx.reply('plain ' + ctx.text); } };`],
    ['named export "executor"', `exports.executor = { async execute(ctx) { ctx.reply('plain ' + ctx.text); } };`],
    [
      'default export (transpiled ESM)',
      `Object.defineProperty(exports, '__esModule', { value: true }); exports.default = { async execute(ctx) { ctx.reply('plain ' + ctx.text); } };`,
    ],
    ['module.exports is a factory', `module.exports = ({ config }) => ({ async execute(ctx) { ctx.reply('plain ' + ctx.text); } });`],
    ['async factory as "agent"', `exports.agent = async () => ({ async execute(ctx) { ctx.reply('plain ' + ctx.text); } });`],
    [
      'class as default',
      `exports.default = class { constructor({ logger }) { this.logger = logger; } async execute(ctx) { ctx.reply('plain ' + ctx.text); } };`,
    ],
  ])('accepts %s', async (_name, source) => {
    const dir = fixture({ 'agent.js': source });
    const executor = await loadAgentModule('./agent.js', context, dir);
    expect(await run(executor, 'x')).toEqual({ text: 'plain x' });
  });

  it('resolves absolute paths and package names', async () => {
    const dir = fixture({
      'a.js': `module.exports = { async execute(ctx) { ctx.reply('abs'); } };`,
      'node_modules/my-agent/package.json': JSON.stringify({ name: 'my-agent', main: 'lib.js' }),
      'node_modules/my-agent/lib.js': `exports.agent = { async execute(ctx) { ctx.reply('pkg'); } };`,
    });
    expect((await run(await loadAgentModule(join(dir, 'a.js'), context), '')).text).toBe('abs');
    expect((await run(await loadAgentModule('my-agent', context, dir), '')).text).toBe('pkg');
  });

  it('explains a missing module', async () => {
    const dir = fixture({});
    expect(await loadError('./nope.js', dir)).toBe(`Agent module not found: ${join(dir, 'nope.js')}`);
    expect(await loadError('no-such-agent-package', dir)).toBe(`Agent module not found: package "no-such-agent-package" cannot be resolved from ${dir}`);
  });

  it('explains a module without an agent export', async () => {
    const dir = fixture({ 'empty.js': `exports.somethingElse = 42;` });
    expect(await loadError('./empty.js', dir)).toBe(
      'Agent module ./empty.js exports no agent: expected an object with an execute() function, or a factory returning one, as the module itself or as export "default", "executor", "agent"',
    );
  });

  it('explains a module that throws while loading, and a factory that throws or returns junk', async () => {
    const dir = fixture({
      'boom.js': `throw new Error('missing OPENAI_KEY');`,
      'throws.js': `exports.agent = () => { throw new Error('bad settings'); };`,
      'junk.js': `exports.agent = () => 42;`,
    });
    expect(await loadError('./boom.js', dir)).toBe('Agent module ./boom.js failed to load: missing OPENAI_KEY');
    expect(await loadError('./throws.js', dir)).toBe('Agent factory agent of ./throws.js threw: bad settings');
    expect(await loadError('./junk.js', dir)).toBe('Agent factory agent of ./junk.js returned no agent (an object with an execute() function)');
  });

  it('refuses process.exit while the module loads (at import, in an async factory), and only logs it from a callback that fires later', async () => {
    const dir = fixture({
      'cli.js': `process.exit(3);`,
      'caught.js': `try { process.exit(4); } catch {} exports.agent = { async execute(ctx) { ctx.reply('x'); } };`,
      'factory.js': `exports.agent = async () => { await null; process.exit(5); return { async execute(ctx) { ctx.reply('x'); } }; };`,
      'later.js': `setTimeout(() => process.exit(6), 20); exports.agent = { async execute(ctx) { ctx.reply('loaded'); } };`,
    });
    expect(await loadError('./cli.js', dir)).toMatch(/^Agent module \.\/cli\.js called process\.exit\(3\) while loading/);
    expect(await loadError('./caught.js', dir)).toMatch(/called process\.exit\(4\) while loading/);
    expect(await loadError('./factory.js', dir)).toMatch(/called process\.exit\(5\) while loading/);
    const logger = recordingLogger();
    const executor = await loadAgentModule('./later.js', { ...context, logger }, dir);
    await waitFor(() => logger.lines.some((l) => l.fields.exitCode === 6), { what: 'the late exit logged' });
    expect((await run(executor, '')).text).toBe('loaded');
  });

  it('refuses a path that is not a regular file (a named pipe would block the event loop)', async () => {
    const dir = fixture({});
    execFileSync('mkfifo', [join(dir, 'pipe.js')]);
    expect(await loadError('./pipe.js', dir)).toBe(`Agent module ./pipe.js is not a regular file: ${join(dir, 'pipe.js')} is a named pipe`);
  });
});
