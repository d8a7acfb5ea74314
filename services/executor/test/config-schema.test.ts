/**
 * One schema for the executor configuration: the committed `config.schema.json` is what the
 * zod schema generates (regenerate with `npm run generate -w @a2a-polyglot/executor`), the
 * example configs point at it with `$schema` and pass it, and errors name the path of the
 * bad value.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CONFIG_SCHEMA_FILE, configJsonSchema, ConfigError, parseConfigInput, resolveConfig } from '../src/index.js';

const PACKAGE_DIR = resolve(__dirname, '..');
const SCHEMA_PATH = join(PACKAGE_DIR, CONFIG_SCHEMA_FILE);

describe('config.schema.json', () => {
  it('is what the zod schema generates (stale: run npm run generate -w @a2a-polyglot/executor)', () => {
    const generated = `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
    if (process.env.A2A_WRITE_CONFIG_SCHEMA === '1') writeFileSync(SCHEMA_PATH, generated);
    expect(readFileSync(SCHEMA_PATH, 'utf8')).toBe(generated);
  });

  it('describes a closed object with every key (editors complete them and flag typos)', () => {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'));
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['$schema', 'port', 'logLevel', 'agents', 'store', 'eventLog']));
    expect(schema.properties.logLevel.enum).toEqual(['debug', 'info', 'warn', 'error']);
    expect(schema.properties.port).toMatchObject({ type: 'integer', minimum: 0, maximum: 65535 });
  });
});

describe('the example configs', () => {
  const examples = readdirSync(join(PACKAGE_DIR, 'examples')).filter((f) => f.endsWith('.json'));

  it.each(examples)('%s points $schema at the shipped schema and passes it', (name) => {
    const file = join(PACKAGE_DIR, 'examples', name);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    expect(resolve(dirname(file), json.$schema)).toBe(SCHEMA_PATH);
    expect(() => parseConfigInput(json, `config file ${name}: `, dirname(file))).not.toThrow();
  });
});

describe('config errors name the path of the bad value', () => {
  const message = (input: unknown): string => {
    try {
      parseConfigInput(input, 'config file x.json: ');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('no error');
  };

  it('inside lists and sections', () => {
    expect(
      message({
        agents: [
          { id: 'a', handler: 'demo' },
          { id: 'b', handler: 'demo', settings: 'none' },
        ],
      }),
    ).toBe('Invalid configuration: config file x.json: agents[1].settings must be an object (got "none")');
    expect(message({ agent: { skills: [{ id: 'x', name: 'X', description: 'd', tags: ['a', 3] }] } })).toBe(
      'Invalid configuration: config file x.json: agent.skills[0].tags[1] must be an array of strings (got 3)',
    );
    expect(message({ eventLog: { kind: 'kafka' } })).toBe(
      'Invalid configuration: config file x.json: eventLog.kind must be one of memory, redis (got "kafka")',
    );
  });

  it('without echoing secrets: URL passwords and API keys', () => {
    expect(message({ store: { url: 'mysql://admin:hunter2@db/a2a' } })).toBe(
      'Invalid configuration: config file x.json: store.url must be a postgres:// or postgresql:// URL (got "mysql://***@db/a2a")',
    );
    const keys = message({ auth: { apiKeys: { 'sk-secret-key': 42 } } });
    expect(keys).toBe(
      'Invalid configuration: config file x.json: auth.apiKeys must be a map of API keys to non-empty principal ids (the value is not shown: it holds API keys)',
    );
    expect(message({ push: { secretKey: 12345678 } })).toBe(
      'Invalid configuration: config file x.json: push.secretKey must be a non-empty string (the value is not shown: it holds a key)',
    );
  });

  it('keeps normalising values (trailing slashes, gRPC off)', () => {
    expect(resolveConfig({ basePath: '/a2a/', publicBaseUrl: 'https://agents.example.com/', grpcPort: 'off' as never })).toMatchObject({
      basePath: '/a2a',
      publicBaseUrl: 'https://agents.example.com',
      grpcPort: false,
    });
  });
});
