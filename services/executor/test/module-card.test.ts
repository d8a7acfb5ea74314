/**
 * The card of an agent module in-process: the module's card is the base of the served card,
 * every card key a configuration layer set overrides it (the built-in demo defaults do not),
 * and the same holds for a `module` agent of `agents`, whose entry keys override. The
 * process-level path (TypeScript, ES modules, the examples) is agent-module-examples.test.ts.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-module-card-'));
const moduleFile = join(dir, 'described.js');
writeFileSync(
  moduleFile,
  `module.exports = {
  card: {
    name: 'Described Agent',
    description: 'Knows what it can do.',
    skills: [{ id: 'describe', name: 'Describe', description: 'Says what it is', examples: ['who are you?'] }],
    capabilities: { pushNotifications: false },
    defaultInputModes: ['text/plain'],
  },
  async execute(ctx) { ctx.reply('described'); },
};
`,
);
/** A factory export with a card on what it returns (the shape `defineAgent` gives a factory's result). */
const factoryFile = join(dir, 'factory.js');
writeFileSync(
  factoryFile,
  `module.exports = () => ({ card: { name: 'Made By Factory', skills: [{ id: 'made', name: 'Made', description: '' }] }, async execute(ctx) { ctx.reply('made'); } });\n`,
);

let running: RunningExecutor | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function cardAt(path = '/.well-known/agent-card.json'): Promise<any> {
  return json(await fetch(`${running!.url}${path}`));
}

describe('an agent module with its own card', () => {
  it('is served with the module card where the configuration set nothing (not the demo card)', async () => {
    running = await startExecutor({ port: 0, grpcPort: 0, agentModule: moduleFile }, { logger: silentLogger });
    const card = await cardAt();
    expect(card.name).toBe('Described Agent');
    expect(card.description).toBe('Knows what it can do.');
    expect(card.skills.map((s: any) => [s.id, s.examples])).toEqual([['describe', ['who are you?']]]);
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: false });
    expect(card.defaultInputModes).toEqual(['text/plain']);
    // What the module leaves out keeps the built-in default.
    expect(card.version).toBe('0.1.0');
    expect(running.config.agent.name).toBe('Described Agent');
  });

  it('loses to every key the configuration set, flag by flag for capabilities', async () => {
    running = await startExecutor(
      { port: 0, grpcPort: 0, agentModule: moduleFile, agent: { name: 'Operator Name', capabilities: { pushNotifications: true } } },
      { logger: silentLogger },
    );
    const card = await cardAt();
    expect(card.name).toBe('Operator Name');
    expect(card.description).toBe('Knows what it can do.');
    expect(card.capabilities.pushNotifications).toBe(true);
    expect(card.skills.map((s: any) => s.id)).toEqual(['describe']);
  });

  it('keeps which keys were set through loadConfig (config file < env < flags) into startExecutor', async () => {
    const configFile = join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify({ agent: { description: 'From the file.' } }));
    const { config } = loadConfig({ argv: ['--config', configFile, '--port', '0', '--agent-module', moduleFile], env: { GRPC_PORT: '0' }, cwd: dir });
    running = await startExecutor(config, { logger: silentLogger });
    const card = await cardAt();
    expect(card.name).toBe('Described Agent');
    expect(card.description).toBe('From the file.');
  });

  it('takes the card from what a factory returns', async () => {
    running = await startExecutor({ port: 0, grpcPort: 0, agentModule: factoryFile }, { logger: silentLogger });
    const card = await cardAt();
    expect(card.name).toBe('Made By Factory');
    expect(card.skills.map((s: any) => s.id)).toEqual(['made']);
  });

  it('a module agent of "agents": the module card under the keys its entry sets', async () => {
    running = await startExecutor(
      {
        port: 0,
        grpcPort: 0,
        agents: [
          { id: 'plain', handler: 'module', settings: { path: moduleFile } },
          { id: 'renamed', handler: 'module', name: 'Renamed', settings: { path: moduleFile } },
        ],
      },
      { logger: silentLogger },
    );
    const plain = await cardAt('/agents/plain/.well-known/agent-card.json');
    expect(plain.name).toBe('Described Agent');
    expect(plain.skills.map((s: any) => s.id)).toEqual(['describe']);
    const renamed = await cardAt('/agents/renamed/.well-known/agent-card.json');
    expect(renamed.name).toBe('Renamed');
    expect(renamed.description).toBe('Knows what it can do.');
  });

  it('an agent module without a card still gets the configured card', async () => {
    const bare = join(dir, 'bare.js');
    writeFileSync(bare, 'module.exports = { async execute(ctx) { ctx.reply("bare"); } };\n');
    running = await startExecutor({ port: 0, grpcPort: 0, agentModule: bare, agent: { name: 'Bare' } }, { logger: silentLogger });
    expect((await cardAt()).name).toBe('Bare');
  });
});
