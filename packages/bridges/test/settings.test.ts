import { recordingLogger } from '@a2a-polyglot/testing';
import {
  BridgeRegistry,
  BUILTIN_BRIDGES,
  defineBridge,
  field,
  redactingLogger,
  Redactor,
  resolveSettings,
  SettingsError,
  type SettingsSchema,
} from '../src/index.js';

interface Demo {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string;
  readonly timeoutMs: number;
  readonly verbose: boolean;
}

const schema: SettingsSchema<Demo> = {
  baseUrl: field.url({ description: 'upstream', env: ['DEMO_URL'], default: 'http://default.invalid/v1' }),
  apiKey: field.string<string | undefined>({ description: 'key', env: ['DEMO_KEY', 'DEMO_TOKEN'], optional: true, secret: true }),
  model: field.string({ description: 'model', env: ['DEMO_MODEL'] }),
  timeoutMs: field.int(1, 1000, { description: 'timeout', env: ['DEMO_TIMEOUT_MS'], default: 500 }),
  verbose: field.bool({ description: 'chatty', env: ['DEMO_VERBOSE'], default: false }),
};

describe('resolveSettings: agent metadata → service settings → environment → defaults', () => {
  it('takes each value from the highest layer that sets it', () => {
    const s = resolveSettings(schema, {
      agent: { model: 'from-agent' },
      service: { model: 'from-service', timeoutMs: 20 },
      env: { DEMO_MODEL: 'from-env', DEMO_TIMEOUT_MS: '30', DEMO_URL: 'http://env.example/v1', DEMO_VERBOSE: 'yes' },
    });
    expect(s).toEqual({ model: 'from-agent', timeoutMs: 20, baseUrl: 'http://env.example/v1', apiKey: undefined, verbose: true });
  });

  it('falls back to defaults, trims trailing slashes of URLs, and reads the first set variable', () => {
    const s = resolveSettings(schema, { agent: { model: 'm' }, env: { DEMO_KEY: '', DEMO_TOKEN: 'tok-123456' } });
    expect(s).toMatchObject({ baseUrl: 'http://default.invalid/v1', timeoutMs: 500, verbose: false, apiKey: 'tok-123456' });
    expect(resolveSettings(schema, { agent: { model: 'm', baseUrl: 'http://h.example/v1//' } }).baseUrl).toBe('http://h.example/v1');
  });

  it('names the key and its layer in errors', () => {
    expect(() => resolveSettings(schema, { agent: {} }, { agent: 'agents[0].settings', service: 'handlers.demo' })).toThrow(
      new SettingsError(
        "Invalid settings: agents[0].settings.model is required (model); set it in the agent's settings, the handler's service settings or the environment variable DEMO_MODEL",
      ),
    );
    expect(() =>
      resolveSettings(schema, { agent: { model: 'm' }, service: { timeoutMs: 0 } }, { agent: 'agents[0].settings', service: 'handlers.demo' }),
    ).toThrow('Invalid settings: handlers.demo.timeoutMs must be an integer between 1 and 1000 (got 0)');
    expect(() => resolveSettings(schema, { agent: { model: 'm' }, env: { DEMO_TIMEOUT_MS: 'soon' } })).toThrow(
      'Invalid settings: environment variable DEMO_TIMEOUT_MS must be an integer between 1 and 1000 (got "soon")',
    );
    expect(() => resolveSettings(schema, { agent: { model: 'm', modle: 'x' } })).toThrow(
      'Invalid settings: unknown key settings.modle (known: baseUrl, apiKey, model, timeoutMs, verbose)',
    );
    expect(() => resolveSettings(schema, { agent: { model: 'm', baseUrl: 'ftp://x' } })).toThrow('must be an absolute http(s) URL (got "ftp://x")');
  });

  it('never echoes a secret in an error', () => {
    let message = '';
    try {
      resolveSettings(schema, { agent: { model: 'm', apiKey: ['sk-leaky-secret'] } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('Invalid settings: settings.apiKey must be a non-empty string (the value is not shown: it is a secret)');
    expect(message).not.toContain('sk-leaky-secret');
  });
});

describe("setting aliases (the reference daemon's names)", () => {
  const aliased: SettingsSchema<{ baseUrl: string; historyMessages: number }> = {
    baseUrl: field.url({ description: 'upstream', env: ['DEMO_URL'], default: 'http://default.invalid', aliases: ['hermes_api_url'] }),
    historyMessages: field.int(0, 100, { description: 'turns', default: 20, aliases: ['num_of_messages'] }),
  };

  it('accepts an alias in the agent and service layers, with the precedence of the key itself', () => {
    expect(resolveSettings(aliased, { agent: { hermes_api_url: 'http://agent.example' }, service: { baseUrl: 'http://service.example' } })).toEqual({
      baseUrl: 'http://agent.example',
      historyMessages: 20,
    });
    expect(resolveSettings(aliased, { service: { num_of_messages: 5 }, env: { DEMO_URL: 'http://env.example' } })).toEqual({
      baseUrl: 'http://env.example',
      historyMessages: 5,
    });
  });

  it('checks an aliased value under the name it was given, and refuses both names in one layer', () => {
    expect(() => resolveSettings(aliased, { agent: { num_of_messages: -1 } })).toThrow(
      'Invalid settings: settings.num_of_messages must be an integer between 0 and 100 (got -1)',
    );
    expect(() => resolveSettings(aliased, { agent: { baseUrl: 'http://a.example', hermes_api_url: 'http://b.example' } })).toThrow(
      'settings sets baseUrl and hermes_api_url, which are one setting (baseUrl); keep one',
    );
  });

  it("gives the Hermes runs bridge the daemon-engine seed's setting names", () => {
    const hermes = BUILTIN_BRIDGES.find((b) => b.name === 'hermes-runs')!;
    const spec = hermes.settings as Record<string, { aliases?: readonly string[] }>;
    expect([spec.baseUrl?.aliases, spec.apiKey?.aliases, spec.model?.aliases, spec.historyMessages?.aliases]).toEqual([
      ['hermes_api_url'],
      ['hermes_api_key'],
      ['hermes_model'],
      ['num_of_messages'],
    ]);
  });
});

describe('BridgeRegistry', () => {
  it('ships the three framework bridges, and refuses unknown handlers with the known list', async () => {
    const registry = new BridgeRegistry();
    expect(registry.names()).toEqual(['openai-chat', 'hermes-runs', 'openclaw-responses']);
    expect(BUILTIN_BRIDGES.every((b) => b.description.length > 0)).toBe(true);
    await expect(registry.create('langchain', { agentId: 'a', agentName: 'A' })).rejects.toThrow(
      'Unknown handler "langchain" (known: openai-chat, hermes-runs, openclaw-responses)',
    );
  });

  it('adding a framework is one bridge module: register it and agents can name it', async () => {
    const echo = defineBridge({
      name: 'echo',
      description: 'echoes',
      settings: { prefix: field.string({ description: 'prefix', env: ['ECHO_PREFIX'], default: '> ' }) },
      create: (settings, env) => ({
        async execute(ctx) {
          env.logger.info(`secret-value-999 used by ${env.agentId}`);
          ctx.reply(`${settings.prefix}${ctx.text}`);
        },
      }),
    });
    const logger = recordingLogger();
    const registry = new BridgeRegistry([echo]);
    const executor = await registry.create('echo', {
      agentId: 'e1',
      agentName: 'Echo',
      serviceSettings: { prefix: '>> ' },
      env: { ECHO_PREFIX: 'env ' },
      logger,
    });
    let replied = '';
    await executor.execute({ text: 'hi', reply: (m: unknown) => (replied = String(m)) } as never);
    expect(replied).toBe('>> hi');
    expect(logger.messages()).toEqual(['secret-value-999 used by e1']); // not a secret field: not redacted
    expect(() => registry.register(echo)).toThrow(/already registered/);
  });

  it('hands bridges a logger that redacts their secret settings', async () => {
    const leaky = defineBridge({
      name: 'leaky',
      description: 'logs its key',
      settings: { key: field.string({ description: 'key', secret: true }), headers: field.headers({ description: 'h', default: {}, secret: true }) },
      create: (settings, env) => ({
        async execute() {
          env.logger.warn({ auth: `Bearer ${settings.key}` }, `calling with ${settings.key} and ${settings.headers['x-token']}`);
        },
      }),
    });
    const logger = recordingLogger();
    const executor = await new BridgeRegistry([leaky]).create('leaky', {
      agentId: 'l',
      agentName: 'L',
      agentSettings: { key: 'k-1234567890', headers: { 'x-token': 'tkn-abcdef' } },
      logger,
    });
    await executor.execute({} as never);
    expect(logger.lines).toEqual([{ level: 'warn', msg: 'calling with [redacted] and [redacted]', fields: { auth: 'Bearer [redacted]' } }]);
  });

  it('redacts the lines of child loggers too (pino-shaped: child bindings and (fields, message) calls)', () => {
    const logger = recordingLogger();
    const redacting = redactingLogger(logger, new Redactor(['k-1234567890']));
    redacting.child({ upstream: 'key k-1234567890' }).error({ detail: 'echoed k-1234567890' }, 'failed with k-1234567890');
    redacting.info('plain k-1234567890');
    expect(logger.lines).toEqual([
      { level: 'error', msg: 'failed with [redacted]', fields: { upstream: 'key [redacted]', detail: 'echoed [redacted]' } },
      { level: 'info', msg: 'plain [redacted]', fields: {} },
    ]);
  });
});

describe('Redactor', () => {
  it('removes longer secrets first and leaves short values alone', () => {
    const r = new Redactor(['abcd', 'abcdefgh', 'ab']);
    expect(r.text('x abcdefgh y abcd z ab')).toBe('x [redacted] y [redacted] z ab');
    expect(r.value({ nested: ['abcd'], abcd: 1 })).toEqual({ nested: ['[redacted]'], '[redacted]': 1 });
  });
});
