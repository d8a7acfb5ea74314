/** The `agentRegistry` configuration keys (file, environment, defaults, cross-field checks), and a registry that cannot be reached at startup. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, resolveConfig } from '../src/config.js';

const agents = [{ id: 'main', handler: 'demo' }];

describe('config: agentRegistry', () => {
  it('is off by default, and reads url, schema and resyncMs from the file and the environment', () => {
    expect(resolveConfig({}).agentRegistry).toEqual({
      kind: undefined,
      url: undefined,
      schema: 'public',
      resyncMs: 30_000,
      table: undefined,
      endpoint: undefined,
      region: undefined,
      pollMs: 5000,
      moduleDirs: [],
      modulePackages: [],
      loadTimeoutMs: 10_000,
      maxCardBytes: 65_536,
    });
    expect(resolveConfig({ agents, agentRegistry: { url: 'postgres://db/x', schema: 'gw', resyncMs: 0 } }).agentRegistry).toMatchObject({
      url: 'postgres://db/x',
      schema: 'gw',
      resyncMs: 0,
    });
    const file = join(mkdtempSync(join(tmpdir(), 'a2a-registry-config-')), 'config.json');
    writeFileSync(file, JSON.stringify({ agents, agentRegistry: { url: 'postgres://file/z', resyncMs: 1 } }));
    expect(loadConfig({ argv: ['--config', file], env: {} }).config.agentRegistry).toMatchObject({ url: 'postgres://file/z', schema: 'public', resyncMs: 1 });
    const { config } = loadConfig({
      argv: ['--config', file],
      env: { A2A_AGENT_REGISTRY_URL: 'postgresql://db/y', A2A_AGENT_REGISTRY_SCHEMA: 'agents_schema', A2A_AGENT_REGISTRY_RESYNC_MS: '5000' },
    });
    expect(config.agentRegistry).toMatchObject({ url: 'postgresql://db/y', schema: 'agents_schema', resyncMs: 5000 });
  });

  it("reads the DynamoDB keys (table, endpoint, region, pollMs) from the file and the environment, with the store's rules", () => {
    expect(
      resolveConfig({ agents, agentRegistry: { table: 'a2a-tasks', endpoint: 'http://127.0.0.1:8000', region: 'eu-west-1', pollMs: 250 } }).agentRegistry,
    ).toMatchObject({
      kind: undefined,
      table: 'a2a-tasks',
      endpoint: 'http://127.0.0.1:8000',
      region: 'eu-west-1',
      pollMs: 250,
    });
    const file = join(mkdtempSync(join(tmpdir(), 'a2a-registry-dynamo-')), 'config.json');
    writeFileSync(file, JSON.stringify({ agents }));
    const { config } = loadConfig({
      argv: ['--config', file],
      env: {
        A2A_AGENT_REGISTRY: 'dynamodb',
        A2A_AGENT_REGISTRY_TABLE: 'agents.table',
        A2A_AGENT_REGISTRY_ENDPOINT: 'https://dynamodb.example.com',
        A2A_AGENT_REGISTRY_REGION: 'us-east-1',
        A2A_AGENT_REGISTRY_POLL_MS: '1000',
      },
    });
    expect(config.agentRegistry).toMatchObject({
      kind: 'dynamodb',
      table: 'agents.table',
      endpoint: 'https://dynamodb.example.com',
      region: 'us-east-1',
      pollMs: 1000,
    });
    expect(() => resolveConfig({ agents, agentRegistry: { table: 'x' } })).toThrow('agentRegistry.table must be a DynamoDB table name');
    expect(() => resolveConfig({ agents, store: { table: 'x' } })).toThrow('store.table must be a DynamoDB table name');
    expect(() => resolveConfig({ agents, agentRegistry: { table: 'a2a-tasks', region: 'EU West' } })).toThrow('agentRegistry.region must be an AWS region');
    expect(() => resolveConfig({ agents, agentRegistry: { table: 'a2a-tasks', pollMs: 0 } })).toThrow(
      'agentRegistry.pollMs must be an integer between 10 and 86400000',
    );
    expect(() => resolveConfig({ agents, agentRegistry: { kind: 'dynamodb' } })).toThrow(
      'agentRegistry.kind is dynamodb but agentRegistry.table (A2A_AGENT_REGISTRY_TABLE) is not set',
    );
    expect(() => resolveConfig({ agentRegistry: { table: 'a2a-tasks' } })).toThrow('agentRegistry needs at least one entry in agents');
  });

  it('reads the module policy, the load deadline and the card cap from the file (directories relative to it) and the environment (lists comma-separated)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-registry-modules-'));
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        agents,
        agentRegistry: { moduleDirs: ['agents', '/srv/more'], modulePackages: ['@acme/agent'], loadTimeoutMs: 500, maxCardBytes: 4096 },
      }),
    );
    expect(loadConfig({ argv: ['--config', file], env: {} }).config.agentRegistry).toMatchObject({
      moduleDirs: [join(dir, 'agents'), '/srv/more'],
      modulePackages: ['@acme/agent'],
      loadTimeoutMs: 500,
      maxCardBytes: 4096,
    });
    const { config } = loadConfig({
      argv: [],
      cwd: dir,
      env: {
        A2A_AGENT_REGISTRY_MODULE_DIRS: 'a, /b ,',
        A2A_AGENT_REGISTRY_MODULE_PACKAGES: 'x,@y/z',
        A2A_AGENT_REGISTRY_LOAD_TIMEOUT_MS: '2500',
        A2A_AGENT_REGISTRY_MAX_CARD_BYTES: '2048',
      },
    });
    expect(config.agentRegistry).toMatchObject({ moduleDirs: [join(dir, 'a'), '/b'], modulePackages: ['x', '@y/z'], loadTimeoutMs: 2500, maxCardBytes: 2048 });
    expect(() => resolveConfig({ agents, agentRegistry: { loadTimeoutMs: 0 } })).toThrow('agentRegistry.loadTimeoutMs must be an integer between 1 and 600000');
    expect(() => resolveConfig({ agents, agentRegistry: { maxCardBytes: 10 } })).toThrow(
      'agentRegistry.maxCardBytes must be an integer between 1024 and 16777216',
    );
    expect(() => resolveConfig({ agents, agentRegistry: { moduleDirs: [''] } })).toThrow('agentRegistry.moduleDirs[0] must be a non-empty string');
    expect(() => loadConfig({ argv: [], env: { A2A_AGENT_REGISTRY_LOAD_TIMEOUT_MS: 'soon' } })).toThrow(
      'A2A_AGENT_REGISTRY_LOAD_TIMEOUT_MS must be an integer',
    );
  });

  it('refuses bad values and a registry without a default agent in agents', () => {
    expect(() => resolveConfig({ agents, agentRegistry: { url: 'mysql://db' } })).toThrow('agentRegistry.url must be a postgres:// or postgresql:// URL');
    expect(() => resolveConfig({ agents, agentRegistry: { schema: 'no-dashes' } })).toThrow('agentRegistry.schema must be a schema name');
    expect(() => resolveConfig({ agents, agentRegistry: { kind: 'postgres' } })).toThrow(
      'agentRegistry.kind is postgres but agentRegistry.url (A2A_AGENT_REGISTRY_URL) is not set',
    );
    expect(() => resolveConfig({ agentRegistry: { url: 'postgres://db/x' } })).toThrow('agentRegistry needs at least one entry in agents');
    expect(() => resolveConfig({ agents, agentRegistry: { url: 'postgres://db/x', extra: 1 } as never })).toThrow('unknown key agentRegistry.extra');
  });
});

describe('startExecutor: an agent registry that cannot be reached', () => {
  it('fails the start, before any listener opens, with one line naming the registry (password hidden)', async () => {
    const { startExecutor } = await import('../src/start-executor.js');
    const { silentLogger } = await import('@a2a-polyglot/core');
    await expect(
      startExecutor({ port: 0, grpcPort: 0, agents, agentRegistry: { url: 'postgres://gw:s3cret@127.0.0.1:1/nowhere' } }, { logger: silentLogger, env: {} }),
    ).rejects.toThrow(/^Cannot open the agent registry at postgres:\/\/gw:\*\*\*@127\.0\.0\.1:1\/nowhere \(schema public\): .*ECONNREFUSED/);
  });
});
