/** The per-agent options `backgroundExecution` and `a2aLite`: defaults, accepted forms, refusals. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, resolveConfig } from '../src/config.js';

const agent = (extra: Record<string, unknown>) => resolveConfig({ agents: [{ id: 'a', handler: 'demo', ...extra }] } as never).agents[0]!;

describe('agents[i].backgroundExecution', () => {
  it('defaults to true (today’s behaviour) and takes a boolean', () => {
    expect(agent({}).backgroundExecution).toBe(true);
    expect(agent({ backgroundExecution: false }).backgroundExecution).toBe(false);
    expect(() => agent({ backgroundExecution: 'no' })).toThrow('agents[0].backgroundExecution must be true or false (got "no")');
  });
});

describe('agents[i].a2aLite', () => {
  it('is off by default; true or an object turns it on', () => {
    expect(agent({}).a2aLite).toBeUndefined();
    expect(agent({ a2aLite: false }).a2aLite).toBeUndefined();
    expect(agent({ a2aLite: true }).a2aLite).toEqual({});
    expect(() => agent({ a2aLite: { knownAgents: 'x' } })).toThrow('agents[0].a2aLite');
    expect(() => agent({ a2aLite: 'yes' })).toThrow('agents[0].a2aLite');
  });

  it('is typed for startExecutor callers as in a config file', () => {
    expect(resolveConfig({ agents: [{ id: 'a', handler: 'demo', a2aLite: true, backgroundExecution: false }] }).agents[0]).toMatchObject({
      a2aLite: {},
      backgroundExecution: false,
    });
  });

  it('takes the known-agents cache limits, and refuses values that are not positive integers', () => {
    const limits = { maxCardBytes: 1024, maxKnownAgents: 50, maxKnownAgentsBytes: 1_000_000, maxKnownAgentsPerPrincipal: 5 };
    expect(agent({ a2aLite: limits }).a2aLite).toEqual(limits);
    for (const key of Object.keys(limits)) {
      expect(() => agent({ a2aLite: { [key]: 0 } })).toThrow('agents[0].a2aLite');
      expect(() => agent({ a2aLite: { [key]: '10' } })).toThrow('agents[0].a2aLite');
    }
  });

  it('resolves knownAgentsDir against the config file’s directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-lite-config-'));
    const file = join(dir, 'executor.json');
    writeFileSync(file, JSON.stringify({ agents: [{ id: 'a', handler: 'demo', a2aLite: { knownAgentsDir: 'known-agents' } }] }));
    const { config } = loadConfig({ argv: ['--config', file], env: {} });
    expect(config.agents[0]!.a2aLite).toEqual({ knownAgentsDir: join(dir, 'known-agents') });
  });
});
