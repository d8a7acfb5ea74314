/**
 * Input modes through the service: the card's `defaultInputModes` are enforced on the single
 * agent and on each entry of `agents`, and `acceptAnyInputMode` (file, environment, flag, per
 * agent) turns that off.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { loadConfig, resolveConfig } from '../src/config.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, postJson, rpc } from './helpers.js';

const started: RunningExecutor[] = [];
async function start(config: Parameters<typeof startExecutor>[0]): Promise<RunningExecutor> {
  const running = await startExecutor(
    { host: '127.0.0.1', port: 0, grpcPort: false, demo: { chunkDelayMs: 0 }, shutdownGraceMs: 200, ...config },
    { logger: silentLogger },
  );
  started.push(running);
  return running;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

/** JSON-RPC SendMessage of one data part; the answer's `error.code` or the task's state. */
async function sendData(rpcUrl: string): Promise<number | string> {
  const message = { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data: { rows: [1, 2] } }] };
  const body = await json(await postJson(rpcUrl, rpc('SendMessage', { message })));
  return body.error?.code ?? body.result?.task?.status?.state;
}

describe('input modes in the executor', () => {
  it('a text-only single agent refuses a data part with -32005; acceptAnyInputMode lets it through', async () => {
    const strict = await start({ agent: { defaultInputModes: ['text/plain'] } });
    expect(await sendData(`${strict.url}/a2a/rpc`)).toBe(-32005);
    const open = await start({ agent: { defaultInputModes: ['text/plain'], acceptAnyInputMode: true } });
    expect(await sendData(`${open.url}/a2a/rpc`)).toBe('TASK_STATE_COMPLETED');
  });

  it('the demo card takes JSON data as it is (its default input modes)', async () => {
    const demo = await start({});
    expect(await sendData(`${demo.url}/a2a/rpc`)).toBe('TASK_STATE_COMPLETED');
  });

  it('each entry of agents is checked against its own modes, with its own acceptAnyInputMode', async () => {
    const running = await start({
      agents: [
        { id: 'strict', handler: 'demo', defaultInputModes: ['text/plain'] },
        { id: 'open', handler: 'demo', acceptAnyInputMode: true },
        { id: 'json', handler: 'demo', defaultInputModes: ['application/json'] },
      ],
    });
    expect(await sendData(`${running.url}/agents/strict/a2a/rpc`)).toBe(-32005);
    expect(await sendData(`${running.url}/agents/open/a2a/rpc`)).toBe('TASK_STATE_COMPLETED');
    expect(await sendData(`${running.url}/agents/json/a2a/rpc`)).toBe('TASK_STATE_COMPLETED');
  });

  it("an entry without defaultInputModes gets its handler's: the demo's, hermes-runs text and JSON (approvals), other bridges text", () => {
    const modes = (handler: string) => resolveConfig({ agents: [{ id: 'a', handler }] }).agents[0]?.defaultInputModes;
    expect(modes('demo')).toEqual(['text/plain', 'application/json', '*/*']);
    expect(modes('hermes-runs')).toEqual(['text/plain', 'application/json']);
    expect(modes('openai-chat')).toEqual(['text/plain']);
    expect(modes('module')).toEqual(['text/plain']);
  });

  it('acceptAnyInputMode defaults to false and is read from the file, A2A_ACCEPT_ANY_INPUT_MODE and --accept-any-input-mode', () => {
    expect(resolveConfig().agent.acceptAnyInputMode).toBe(false);
    expect(resolveConfig({ agents: [{ id: 'a', handler: 'demo' }] }).agents[0]?.acceptAnyInputMode).toBe(false);
    const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv, env, cwd: process.cwd() }).config.agent.acceptAnyInputMode;
    expect(load([], { A2A_ACCEPT_ANY_INPUT_MODE: 'true' })).toBe(true);
    expect(load(['--accept-any-input-mode', 'on'])).toBe(true);
    expect(load(['--accept-any-input-mode=false'], { A2A_ACCEPT_ANY_INPUT_MODE: 'true' })).toBe(false);
    expect(() => load([], { A2A_ACCEPT_ANY_INPUT_MODE: 'maybe' })).toThrow('A2A_ACCEPT_ANY_INPUT_MODE must be true or false');
    expect(() => resolveConfig({ agent: { acceptAnyInputMode: 'yes' as never } })).toThrow('agent.acceptAnyInputMode must be true or false');
  });
});
