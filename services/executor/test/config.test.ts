import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryEventLog, memoryTaskStore } from '../src/backends.js';
import {
  ConfigError,
  DEFAULT_GRPC_PORT,
  defaultConfig,
  eventLogKind,
  grpcListenAddress,
  loadConfig,
  parseArgs,
  resolveConfig,
  storeKind,
} from '../src/config.js';

function tempConfig(json: unknown, name = 'config.json'): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'executor-config-'));
  const file = join(dir, name);
  writeFileSync(file, typeof json === 'string' ? json : JSON.stringify(json));
  return { dir, file };
}

/** Runs loadConfig and returns the one-line error it throws (one problem: one line). */
function configError(options: Parameters<typeof loadConfig>[0]): string {
  try {
    loadConfig(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a ConfigError');
}

const cwd = tmpdir();

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is configured', () => {
    const { config, help, configFile } = loadConfig({ argv: [], env: {}, cwd });
    expect(help).toBe(false);
    expect(configFile).toBeUndefined();
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      basePath: '/a2a',
      publicBaseUrl: undefined,
      trustProxy: false,
      maxBodyBytes: 4 * 1024 * 1024,
      cardCompat: 'merged',
      sseHeartbeatMs: 15000,
      shutdownGraceMs: 10000,
      logLevel: 'info',
      agentModule: undefined,
      auth: { apiKeys: {} },
      push: { allowPrivateNetworks: false },
    });
    expect(config.agent.capabilities).toEqual({ streaming: true, pushNotifications: true, extendedAgentCard: false });
    expect(config).toEqual(defaultConfig());
  });

  it('layers defaults < config file < environment < flags', () => {
    const { file } = tempConfig({ host: '0.0.0.0', port: 1000, basePath: '/file', logLevel: 'debug', shutdownGraceMs: 111, agent: { name: 'From file' } });
    const { config } = loadConfig({
      argv: ['--config', file, '--port', '3000'],
      env: { PORT: '2000', A2A_BASE_PATH: '/env', A2A_SHUTDOWN_GRACE_MS: '222' },
      cwd,
    });
    expect(config.port).toBe(3000); // flag beats env beats file
    expect(config.basePath).toBe('/env'); // env beats file
    expect(config.shutdownGraceMs).toBe(222);
    expect(config.host).toBe('0.0.0.0'); // file beats default
    expect(config.logLevel).toBe('debug');
    expect(config.agent.name).toBe('From file');
    expect(config.agent.version).toBe(defaultConfig().agent.version); // untouched nested keys keep defaults
    expect(config.sseHeartbeatMs).toBe(15000); // default where nobody set it
  });

  it('finds the config file through A2A_CONFIG, and --config wins over it', () => {
    const a = tempConfig({ port: 1111 });
    const b = tempConfig({ port: 2222 });
    expect(loadConfig({ argv: [], env: { A2A_CONFIG: a.file }, cwd }).config.port).toBe(1111);
    expect(loadConfig({ argv: [`--config=${b.file}`], env: { A2A_CONFIG: a.file }, cwd }).config.port).toBe(2222);
    expect(loadConfig({ argv: [], env: { A2A_CONFIG: a.file }, cwd }).configFile).toBe(a.file);
  });

  it('reads every documented environment variable', () => {
    const { config } = loadConfig({
      argv: [],
      env: {
        HOST: '::1',
        PORT: '0',
        A2A_BASE_PATH: '/agents/echo/',
        A2A_PUBLIC_BASE_URL: 'https://agents.example.com/echo/',
        A2A_TRUST_PROXY: 'true',
        A2A_MAX_BODY_BYTES: '1024',
        A2A_CARD_COMPAT: '1.0',
        A2A_SSE_HEARTBEAT_MS: '0',
        A2A_SHUTDOWN_GRACE_MS: '500',
        LOG_LEVEL: 'warn',
        A2A_AGENT_MODULE: './agent.js',
        A2A_AGENT_NAME: 'Env agent',
        A2A_API_KEYS: 'k1=alice, k2=bob',
        A2A_API_KEY_HEADER: 'x-token',
        A2A_PUSH_ALLOW_PRIVATE_NETWORKS: '1',
        A2A_PUSH_SECRET_KEY: 'a-key-from-the-environment',
        A2A_DEMO_CHUNK_DELAY_MS: '5',
      },
      cwd: '/srv/app',
    });
    expect(config).toMatchObject({
      host: '::1',
      port: 0,
      basePath: '/agents/echo',
      publicBaseUrl: 'https://agents.example.com/echo',
      trustProxy: true,
      maxBodyBytes: 1024,
      cardCompat: '1.0',
      sseHeartbeatMs: 0,
      shutdownGraceMs: 500,
      logLevel: 'warn',
      agentModule: join('/srv/app', 'agent.js'),
      demo: { chunkDelayMs: 5 },
      auth: { apiKeys: { k1: 'alice', k2: 'bob' }, header: 'x-token' },
      push: { allowPrivateNetworks: true, secretKey: 'a-key-from-the-environment' },
    });
    expect(config.agent.name).toBe('Env agent');
  });

  it('configures the gRPC listener: port (0 = free, off forms), host, public url', () => {
    const load = (argv: string[], env: Record<string, string> = {}, file?: unknown) =>
      loadConfig({ argv: file === undefined ? argv : ['--config', tempConfig(file).file, ...argv], env, cwd }).config;
    // Default: 50051 on the HTTP host; an ephemeral HTTP port makes gRPC ephemeral too.
    expect(DEFAULT_GRPC_PORT).toBe(50051);
    expect(grpcListenAddress(load([]))).toEqual({ host: '127.0.0.1', port: 50051 });
    expect(grpcListenAddress(load(['--port', '0']))).toEqual({ host: '127.0.0.1', port: 0 });
    expect(grpcListenAddress(load(['--port', '0', '--grpc-port', '50052']))).toEqual({ host: '127.0.0.1', port: 50052 });
    expect(grpcListenAddress(load([], { HOST: '0.0.0.0', GRPC_PORT: '0' }))).toEqual({ host: '0.0.0.0', port: 0 });
    expect(grpcListenAddress(load(['--grpc-host', '::'], { GRPC_HOST: '10.0.0.1' }))).toEqual({ host: '::', port: 50051 });
    expect(load([], { GRPC_HOST: '10.0.0.1', A2A_GRPC_PUBLIC_URL: 'grpc.example.com:443' })).toMatchObject({
      grpcHost: '10.0.0.1',
      grpcPublicUrl: 'grpc.example.com:443',
    });
    expect(load(['--grpc-public-url', 'https://grpc.example.com/']).grpcPublicUrl).toBe('https://grpc.example.com');
    expect(load([], {}, { grpcPort: 6000, grpcHost: 'localhost', grpcPublicUrl: '[::1]:6000' })).toMatchObject({
      grpcPort: 6000,
      grpcHost: 'localhost',
      grpcPublicUrl: '[::1]:6000',
    });
    // Off: false / -1 / "off" in a file, off / false / -1 as text; a later layer can turn it back on.
    for (const off of [false, -1, 'off']) expect(grpcListenAddress(load([], {}, { grpcPort: off }))).toBeUndefined();
    for (const off of ['off', 'OFF', 'false', '-1']) {
      expect(load([], { GRPC_PORT: off }).grpcPort).toBe(false);
      expect(load([`--grpc-port=${off}`]).grpcPort).toBe(false);
    }
    expect(load(['--grpc-port', '7000'], { GRPC_PORT: 'off' }).grpcPort).toBe(7000);
  });

  it("keeps the WebSocket binding's flood guard unless websocket sets it, from a file or the environment", () => {
    const load = (argv: string[], env: Record<string, string> = {}, file?: unknown) =>
      loadConfig({ argv: file === undefined ? argv : ['--config', tempConfig(file).file, ...argv], env, cwd }).config;
    expect(load([]).websocket).toEqual({});
    expect(load([], {}, { websocket: { maxMessagesPerSecond: 5000, messageBurst: 10000 } }).websocket).toEqual({
      maxMessagesPerSecond: 5000,
      messageBurst: 10000,
    });
    expect(load([], { A2A_WEBSOCKET_MAX_MESSAGES_PER_SECOND: '7' }).websocket.maxMessagesPerSecond).toBe(7);
  });

  it('lists the WebSocket binding in the card by default; websocketInCard turns that off from a file, the environment or a flag', () => {
    const load = (argv: string[], env: Record<string, string> = {}, file?: unknown) =>
      loadConfig({ argv: file === undefined ? argv : ['--config', tempConfig(file).file, ...argv], env, cwd }).config;
    expect(load([]).websocketInCard).toBe(true);
    expect(load([], {}, { websocketInCard: false }).websocketInCard).toBe(false);
    expect(load([], { A2A_WEBSOCKET_IN_CARD: 'false' }).websocketInCard).toBe(false);
    expect(load(['--websocket-in-card', 'off']).websocketInCard).toBe(false);
    expect(load(['--websocket-in-card=true'], { A2A_WEBSOCKET_IN_CARD: 'no' }).websocketInCard).toBe(true);
    expect(configError({ argv: [], env: { A2A_WEBSOCKET_IN_CARD: 'maybe' }, cwd })).toBe(
      'Invalid configuration: A2A_WEBSOCKET_IN_CARD must be true or false (got "maybe")',
    );
    expect(configError({ argv: ['--config', tempConfig({ websocketInCard: 'no' }).file], env: {}, cwd })).toMatch(
      /websocketInCard must be true or false \(got "no"\)$/,
    );
  });

  it('reads strictRequests (default off) from the file, A2A_STRICT_REQUESTS and --strict-requests', () => {
    const load = (argv: string[], env: Record<string, string> = {}, file?: unknown) =>
      loadConfig({ argv: file === undefined ? argv : ['--config', tempConfig(file).file, ...argv], env, cwd }).config;
    expect(load([]).strictRequests).toBe(false);
    expect(load([], {}, { strictRequests: true }).strictRequests).toBe(true);
    expect(load([], { A2A_STRICT_REQUESTS: 'on' }, { strictRequests: false }).strictRequests).toBe(true);
    expect(load(['--strict-requests=false'], { A2A_STRICT_REQUESTS: 'true' }).strictRequests).toBe(false);
    expect(configError({ argv: ['--strict-requests', 'maybe'], env: {}, cwd })).toMatch(/--strict-requests must be true or false/);
  });

  it('reads the A2A 1.1 switch (default off) and the long-poll bound (default 30 s) from the file, the environment and --experimental-11', () => {
    const load = (argv: string[], env: Record<string, string> = {}, file?: unknown) =>
      loadConfig({ argv: file === undefined ? argv : ['--config', tempConfig(file).file, ...argv], env, cwd }).config;
    expect(load([]).protocol).toEqual({ experimental11: false, longPollMaxMs: 30_000 });
    expect(load([], {}, { protocol: { experimental11: true } }).protocol).toEqual({ experimental11: true, longPollMaxMs: 30_000 });
    expect(load([], { A2A_PROTOCOL_EXPERIMENTAL11: 'true', A2A_LONG_POLL_MAX_MS: '5000' }).protocol).toEqual({ experimental11: true, longPollMaxMs: 5000 });
    expect(load(['--experimental-11=false'], { A2A_PROTOCOL_EXPERIMENTAL11: 'true' }).protocol.experimental11).toBe(false);
    expect(configError({ argv: [], env: { A2A_LONG_POLL_MAX_MS: '0' }, cwd })).toMatch(/A2A_LONG_POLL_MAX_MS/);
    expect(configError({ argv: ['--config', tempConfig({ protocol: { experimental11: 'yes' } }).file], env: {}, cwd })).toMatch(
      /protocol\.experimental11 must be true or false/,
    );
  });

  it('reads the stream stall timeout (default 30 s) and the ListTasks page byte budget (default 4 MiB) from the file and the environment', () => {
    const load = (env: Record<string, string> = {}, file?: unknown) =>
      loadConfig({ argv: file === undefined ? [] : ['--config', tempConfig(file).file], env, cwd }).config;
    expect(load()).toMatchObject({ streamStallTimeoutMs: 30_000, listTasksMaxBytes: 4 * 1024 * 1024 });
    expect(load({}, { streamStallTimeoutMs: 0, listTasksMaxBytes: 65536 })).toMatchObject({ streamStallTimeoutMs: 0, listTasksMaxBytes: 65536 });
    expect(load({ A2A_STREAM_STALL_TIMEOUT_MS: '5000', A2A_LIST_TASKS_MAX_BYTES: '1048576' }, { streamStallTimeoutMs: 1 })).toMatchObject({
      streamStallTimeoutMs: 5000,
      listTasksMaxBytes: 1048576,
    });
    expect(configError({ argv: [], env: { A2A_LIST_TASKS_MAX_BYTES: '0' }, cwd })).toMatch(/A2A_LIST_TASKS_MAX_BYTES/);
  });

  it('reads the idempotency window (default 24 h, 0 off) from the file, the environment and --idempotency-window-ms', () => {
    const load = (argv: string[], env: Record<string, string> = {}, file?: unknown) =>
      loadConfig({ argv: file === undefined ? argv : ['--config', tempConfig(file).file, ...argv], env, cwd }).config;
    expect(load([]).idempotencyWindowMs).toBe(86_400_000);
    expect(load([], {}, { idempotencyWindowMs: 0 }).idempotencyWindowMs).toBe(0);
    expect(load([], { A2A_IDEMPOTENCY_WINDOW_MS: '60000' }, { idempotencyWindowMs: 0 }).idempotencyWindowMs).toBe(60_000);
    expect(load(['--idempotency-window-ms', '5000'], { A2A_IDEMPOTENCY_WINDOW_MS: '60000' }).idempotencyWindowMs).toBe(5000);
    expect(configError({ argv: [], env: { A2A_IDEMPOTENCY_WINDOW_MS: '-1' }, cwd })).toMatch(/A2A_IDEMPOTENCY_WINDOW_MS/);
  });

  it('reads the JWT lifetime rules, the JWKS fetch bounds and the principal aliases (file only), with their defaults', () => {
    const load = (env: Record<string, string> = {}, file?: unknown) =>
      loadConfig({ argv: file === undefined ? [] : ['--config', tempConfig(file).file], env, cwd }).config.auth;
    expect(load()).toMatchObject({ jwtRequireExp: true, jwtMaxLifetimeSec: 86_400, jwksTimeoutMs: 5000, jwksMaxBytes: 1024 * 1024, principalAliases: {} });
    const aliases = { 'jwt:https://idp.example#alice': 'key:alice', 'cert:CN=CA#CN=alice': 'key:alice' };
    expect(
      load({}, { auth: { jwtRequireExp: false, jwtMaxLifetimeSec: 3600, jwksTimeoutMs: 1000, jwksMaxBytes: 65536, principalAliases: aliases } }),
    ).toMatchObject({
      jwtRequireExp: false,
      jwtMaxLifetimeSec: 3600,
      jwksTimeoutMs: 1000,
      jwksMaxBytes: 65536,
      principalAliases: aliases,
    });
    expect(load({ A2A_JWT_REQUIRE_EXP: 'off', A2A_JWT_MAX_LIFETIME_SEC: '600', A2A_JWKS_TIMEOUT_MS: '2500', A2A_JWKS_MAX_BYTES: '4096' })).toMatchObject({
      jwtRequireExp: false,
      jwtMaxLifetimeSec: 600,
      jwksTimeoutMs: 2500,
      jwksMaxBytes: 4096,
    });
    expect(configError({ argv: [], env: { A2A_JWKS_TIMEOUT_MS: '0' }, cwd })).toBe(
      'Invalid configuration: A2A_JWKS_TIMEOUT_MS must be an integer between 1 and 60000 (got 0)',
    );
    // A name from before principal ids had a scheme prefix would never match: refused, not ignored.
    const oldStyle = tempConfig({ auth: { principalAliases: { alice: 'key:alice' } } });
    expect(configError({ argv: ['--config', oldStyle.file], env: {}, cwd })).toBe(
      'Invalid configuration: auth.principalAliases key "alice" is not a principal id (jwt:<iss>#<sub>, key:<name> or cert:<issuer>#<subject>)',
    );
  });

  it('reads the in-memory store bounds (default 256 MiB, interrupted tasks idle 1 h) and builds the store with them', () => {
    const load = (env: Record<string, string> = {}, file?: unknown) =>
      loadConfig({ argv: file === undefined ? [] : ['--config', tempConfig(file).file], env, cwd }).config;
    expect(load().store).toMatchObject({ memoryMaxBytes: 256 * 1024 * 1024, memoryInterruptedIdleMs: 3_600_000 });
    expect(load({}, { store: { memoryMaxBytes: 2_097_152, memoryInterruptedIdleMs: 0 } }).store).toMatchObject({
      memoryMaxBytes: 2_097_152,
      memoryInterruptedIdleMs: 0,
    });
    const config = load({ A2A_MEMORY_STORE_MAX_BYTES: '1048576', A2A_MEMORY_STORE_INTERRUPTED_IDLE_MS: '60000' });
    expect(config.store).toMatchObject({ memoryMaxBytes: 1_048_576, memoryInterruptedIdleMs: 60_000 });
    expect(configError({ argv: [], env: { A2A_MEMORY_STORE_MAX_BYTES: '1000' }, cwd })).toMatch(/A2A_MEMORY_STORE_MAX_BYTES/);
    // The store the executor builds holds that budget: a task bigger than 1 MiB is refused.
    expect(() => memoryTaskStore(config).admitNewTask('', 2 * 1024 * 1024)).toThrow(/full of running tasks/);
    expect(() => memoryTaskStore(config).admitNewTask('', 1024)).not.toThrow();
  });

  it('reads the event-log byte bounds (in memory 64 MiB in all, Redis 32 MiB per task) and builds the in-memory log with its budget', async () => {
    const load = (env: Record<string, string> = {}, file?: unknown) =>
      loadConfig({ argv: file === undefined ? [] : ['--config', tempConfig(file).file], env, cwd }).config;
    expect(load().eventLog).toMatchObject({ memoryMaxBytes: 64 * 1024 * 1024, maxBytesPerTask: 32 * 1024 * 1024 });
    expect(load({}, { eventLog: { memoryMaxBytes: 2_097_152, maxBytesPerTask: 0 } }).eventLog).toMatchObject({ memoryMaxBytes: 2_097_152, maxBytesPerTask: 0 });
    const config = load({ A2A_MEMORY_EVENT_LOG_MAX_BYTES: '1048576', A2A_EVENT_LOG_MAX_BYTES_PER_TASK: '4194304' });
    expect(config.eventLog).toMatchObject({ memoryMaxBytes: 1_048_576, maxBytesPerTask: 4_194_304 });
    expect(configError({ argv: [], env: { A2A_MEMORY_EVENT_LOG_MAX_BYTES: '1000' }, cwd })).toMatch(/A2A_MEMORY_EVENT_LOG_MAX_BYTES/);
    // The log the executor builds holds that budget: 2 MiB of events leave at most 1 MiB held.
    const log = memoryEventLog(config);
    const text = 'x'.repeat(512 * 1024);
    for (let i = 0; i < 4; i++)
      await log.append('t', { payload: { $case: 'message', value: { messageId: `${i}`, parts: [{ content: { $case: 'text', value: text } }] } as never } });
    expect(log.bytes).toBeLessThanOrEqual(1_048_576);
    expect((await log.readAfter('t', 0)).gap).toBe(true);
  });

  it('treats empty environment variables as unset', () => {
    expect(loadConfig({ argv: [], env: { PORT: '', HOST: '' }, cwd }).config).toMatchObject({ port: 8080, host: '127.0.0.1' });
  });

  it('resolves a relative agentModule against the config file directory, or the working directory for env/flags', () => {
    const { dir, file } = tempConfig({ agentModule: './my-agent.js' });
    expect(loadConfig({ argv: ['--config', file], env: {}, cwd }).config.agentModule).toBe(join(dir, 'my-agent.js'));
    expect(loadConfig({ argv: ['--config', file, '--agent-module', './other.js'], env: {}, cwd: '/srv/other' }).config.agentModule).toBe('/srv/other/other.js');
    expect(loadConfig({ argv: ['--agent-module', 'some-package'], env: {}, cwd }).config.agentModule).toBe('some-package');
    // A bare relative path that names an existing file is a path, not a package name.
    writeFileSync(join(dir, 'bare-agent.js'), '');
    expect(loadConfig({ argv: [], env: { A2A_AGENT_MODULE: 'bare-agent.js' }, cwd: dir }).config.agentModule).toBe(join(dir, 'bare-agent.js'));
  });

  it('maps basePath "/" to the root', () => {
    expect(loadConfig({ argv: ['--base-path', '/'], env: {}, cwd }).config.basePath).toBe('');
  });

  it('takes cardCompat from a config file and from --card-compat', () => {
    expect(loadConfig({ argv: ['--config', tempConfig({ cardCompat: '0.3' }).file], env: {}, cwd }).config.cardCompat).toBe('0.3');
    expect(loadConfig({ argv: ['--card-compat', '1.0'], env: { A2A_CARD_COMPAT: '0.3' }, cwd }).config.cardCompat).toBe('1.0');
  });

  it('prints help without failing', () => {
    expect(loadConfig({ argv: ['--help'], env: {}, cwd }).help).toBe(true);
  });

  it('selects DynamoDB from a file, the environment (A2A_DYNAMODB_TABLE alone) or flags', () => {
    const { file } = tempConfig({ store: { kind: 'dynamodb', table: 'from-file', region: 'eu-west-1', retentionMs: 0 } });
    expect(loadConfig({ argv: ['--config', file], env: {}, cwd }).config.store).toMatchObject({
      kind: 'dynamodb',
      table: 'from-file',
      region: 'eu-west-1',
      retentionMs: 0,
    });
    const env = {
      A2A_DYNAMODB_TABLE: 'a2a-tasks',
      A2A_DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000/',
      A2A_DYNAMODB_REGION: 'us-east-1',
      A2A_DYNAMODB_RETENTION_MS: '3600000',
    };
    const fromEnv = loadConfig({ argv: [], env, cwd }).config;
    expect(storeKind(fromEnv)).toBe('dynamodb');
    expect(fromEnv.store).toMatchObject({ table: 'a2a-tasks', endpoint: 'http://127.0.0.1:8000', region: 'us-east-1', retentionMs: 3_600_000 });
    expect(defaultConfig().store.retentionMs).toBe(30 * 24 * 3600_000);
    const fromFlags = loadConfig({
      argv: ['--store', 'dynamodb', '--dynamodb-table', 'flag-table', '--dynamodb-region', 'ap-south-1', '--dynamodb-endpoint', 'http://localhost:4567'],
      env: {},
      cwd,
    }).config;
    expect(fromFlags.store).toMatchObject({ kind: 'dynamodb', table: 'flag-table', region: 'ap-south-1', endpoint: 'http://localhost:4567' });
    // A Redis event log may share a DynamoDB store between instances.
    expect(eventLogKind(loadConfig({ argv: [], env: { ...env, A2A_REDIS_URL: 'redis://127.0.0.1:6379' }, cwd }).config)).toBe('redis');
    expect(configError({ argv: [], env: { A2A_STORE: 'dynamodb' }, cwd })).toBe(
      'Invalid configuration: store.kind is dynamodb but store.table (A2A_DYNAMODB_TABLE) is not set',
    );
    expect(configError({ argv: [], env: { A2A_DYNAMODB_TABLE: 'no' }, cwd })).toBe(
      'Invalid configuration: A2A_DYNAMODB_TABLE must be a DynamoDB table name (3 to 255 letters, digits, _, - and .) (got "no")',
    );
    expect(configError({ argv: [], env: { A2A_DYNAMODB_REGION: 'EU West' }, cwd })).toBe(
      'Invalid configuration: A2A_DYNAMODB_REGION must be an AWS region such as "eu-west-1" (got "EU West")',
    );
  });

  describe('fails fast with one clear line', () => {
    it.each([
      [{ PORT: 'abc' }, 'Invalid configuration: PORT must be an integer (got "abc")'],
      [{ PORT: '70000' }, 'Invalid configuration: PORT must be an integer between 0 and 65535 (got 70000)'],
      [{ PORT: '80.5' }, 'Invalid configuration: PORT must be an integer (got "80.5")'],
      [{ LOG_LEVEL: 'loud' }, 'Invalid configuration: LOG_LEVEL must be one of debug, info, warn, error (got "loud")'],
      [{ A2A_CARD_COMPAT: '1' }, 'Invalid configuration: A2A_CARD_COMPAT must be one of merged, 1.0, 0.3 (got "1")'],
      [{ A2A_TRUST_PROXY: 'maybe' }, 'Invalid configuration: A2A_TRUST_PROXY must be true or false (got "maybe")'],
      [{ A2A_PUBLIC_BASE_URL: 'agents.example.com' }, 'Invalid configuration: A2A_PUBLIC_BASE_URL must be an absolute http(s) URL (got "agents.example.com")'],
      [{ A2A_BASE_PATH: 'a2a' }, 'Invalid configuration: A2A_BASE_PATH must be a URL path such as "/a2a" (or "/" for the root) (got "a2a")'],
      [
        { A2A_API_KEYS: 'justakey' },
        'Invalid configuration: A2A_API_KEYS must be a list like "key1=principal1,key2=principal2" (the value is not shown: it holds API keys)',
      ],
      [{ A2A_MAX_BODY_BYTES: '0' }, 'Invalid configuration: A2A_MAX_BODY_BYTES must be an integer between 1 and 1073741824 (got 0)'],
      [{ GRPC_PORT: 'abc' }, 'Invalid configuration: GRPC_PORT must be a port between 0 and 65535, or off / false / -1 to disable gRPC (got "abc")'],
      [{ GRPC_PORT: '70000' }, 'Invalid configuration: GRPC_PORT must be a port between 0 and 65535, or off / false / -1 to disable gRPC (got 70000)'],
      [
        { A2A_GRPC_PUBLIC_URL: 'grpc.example.com' },
        'Invalid configuration: A2A_GRPC_PUBLIC_URL must be host:port (e.g. "agents.example.com:443") or a URL such as "https://agents.example.com" (got "grpc.example.com")',
      ],
      [
        { A2A_GRPC_PUBLIC_URL: 'https://grpc.example.com/a2a' },
        'Invalid configuration: A2A_GRPC_PUBLIC_URL must be host:port (e.g. "agents.example.com:443") or a URL such as "https://agents.example.com" (got "https://grpc.example.com/a2a")',
      ],
    ])('env %j', (env, message) => {
      expect(configError({ argv: [], env, cwd })).toBe(message);
    });

    it('refuses a role without the run queue (a frontend would run its sends, a worker would have none)', () => {
      expect(configError({ argv: ['--role', 'worker'], env: {}, cwd })).toBe(
        'Invalid configuration: role worker needs queue.enabled (A2A_QUEUE): roles split the work of the run queue',
      );
      expect(configError({ argv: [], env: { A2A_ROLE: 'frontend' }, cwd })).toBe(
        'Invalid configuration: role frontend needs queue.enabled (A2A_QUEUE): roles split the work of the run queue',
      );
      expect(loadConfig({ argv: ['--role', 'worker', '--queue', 'true'], env: {}, cwd }).config.role).toBe('worker');
    });

    it('names the flag for bad flag values', () => {
      expect(configError({ argv: ['--port', 'eighty'], env: {}, cwd })).toBe('Invalid configuration: --port must be an integer (got "eighty")');
      expect(configError({ argv: ['--host', '   '], env: {}, cwd })).toBe('Invalid configuration: --host must be a non-empty string (got "   ")');
    });

    it('rejects unknown flags and missing flag values', () => {
      expect(configError({ argv: ['--prot', '1'], env: {}, cwd })).toBe('Unknown argument "--prot" (did you mean --port?)');
      expect(configError({ argv: ['--colour', '1'], env: {}, cwd })).toMatch(/^Unknown argument "--colour" \(known: --config, --host, --port/);
      expect(configError({ argv: ['--port'], env: {}, cwd })).toBe('Missing value for --port');
      expect(configError({ argv: ['--port', '--host', 'x'], env: {}, cwd })).toBe('Missing value for --port');
    });

    it('names the file and key for bad config files', () => {
      const typo = tempConfig({ prot: 8080 });
      expect(configError({ argv: ['--config', typo.file], env: {}, cwd })).toMatch(
        /^Invalid configuration: config file .*config\.json: unknown key prot \(did you mean port\?\)$/,
      );
      const nestedTypo = tempConfig({ agent: { capabilities: { stream: true } } });
      expect(configError({ argv: ['--config', nestedTypo.file], env: {}, cwd })).toMatch(
        /: unknown key agent\.capabilities\.stream \(did you mean agent\.capabilities\.streaming\?\)$/,
      );
      const farTypo = tempConfig({ agent: { capabilities: { colour: true } } });
      expect(configError({ argv: ['--config', farTypo.file], env: {}, cwd })).toMatch(
        /: unknown key agent\.capabilities\.colour \(known: streaming, pushNotifications, extendedAgentCard\)$/,
      );
      const badPort = tempConfig({ port: '8080' });
      expect(configError({ argv: ['--config', badPort.file], env: {}, cwd })).toBe(
        `Invalid configuration: config file ${badPort.file}: port must be an integer between 0 and 65535 (got "8080")`,
      );
      const badSkill = tempConfig({ agent: { skills: [{ id: 'x', name: '', description: 'has a description' }] } });
      expect(configError({ argv: ['--config', badSkill.file], env: {}, cwd })).toBe(
        `Invalid configuration: config file ${badSkill.file}: agent.skills[0].name must be a non-empty string (got "")`,
      );
      const badKeys = tempConfig({ auth: { apiKeys: { 'top-secret': '' } } });
      const keysMessage = configError({ argv: ['--config', badKeys.file], env: {}, cwd });
      expect(keysMessage).toContain('auth.apiKeys must be a map of API keys to non-empty principal ids');
      expect(keysMessage).not.toContain('top-secret');
      const badCaps = tempConfig({ agent: { capabilities: { streaming: 'yes' } } });
      expect(configError({ argv: ['--config', badCaps.file], env: {}, cwd })).toContain('agent.capabilities.streaming must be true or false (got "yes")');
    });

    it('reports unreadable and malformed files', () => {
      expect(configError({ argv: ['--config', '/nonexistent/executor.json'], env: {}, cwd })).toBe(
        'Cannot read config file /nonexistent/executor.json: ENOENT',
      );
      const broken = tempConfig('{ "port": 80,');
      expect(configError({ argv: ['--config', broken.file], env: {}, cwd })).toMatch(/^Config file .* is not valid JSON: /);
    });

    it('rejects duplicate skill ids and empty mode lists after merging', () => {
      const dup = tempConfig({
        agent: {
          skills: [
            { id: 'a', name: 'A', description: '' },
            { id: 'a', name: 'B', description: '' },
          ],
        },
      });
      expect(configError({ argv: ['--config', dup.file], env: {}, cwd })).toBe('Invalid configuration: duplicate skill id "a" in agent.skills');
      const noModes = tempConfig({ agent: { defaultOutputModes: [] } });
      expect(configError({ argv: ['--config', noModes.file], env: {}, cwd })).toBe(
        'Invalid configuration: agent.defaultOutputModes must be a non-empty array of media types (got [])',
      );
    });
  });
});

describe('parseArgs', () => {
  it('accepts --flag value and --flag=value', () => {
    expect(parseArgs(['--port=1', '--host', 'h', '--config', 'c.json'])).toEqual({
      configPath: 'c.json',
      help: false,
      flags: [
        ['port', '1', '--port'],
        ['host', 'h', '--host'],
      ],
    });
  });
});

describe('resolveConfig', () => {
  it('overlays a partial configuration on the defaults, merging nested objects', () => {
    const config = resolveConfig({ port: 0, agent: { name: 'Partial', capabilities: { pushNotifications: false } } });
    expect(config.port).toBe(0);
    expect(config.agent.name).toBe('Partial');
    expect(config.agent.capabilities).toEqual({ streaming: true, pushNotifications: false, extendedAgentCard: false });
    expect(config.agent.skills).toEqual(defaultConfig().agent.skills);
  });

  it('validates what it is given', () => {
    expect(() => resolveConfig({ port: -1 })).toThrow('Invalid configuration: port must be an integer between 0 and 65535 (got -1)');
  });
});
