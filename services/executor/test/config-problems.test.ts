/**
 * A bad configuration is refused with every problem at once, not one per restart: every zod
 * issue of a layer, every bad variable and flag, the problems of all layers together, and a
 * "did you mean" for a misspelt key at any depth (and for a misspelt flag).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, resolveConfig } from '../src/config.js';

function messageOf(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('configuration problems', () => {
  it('every problem of a layer, unknown keys first, each misspelt key with its likely fix at any depth', () => {
    const input = {
      prot: 8080,
      logLevel: 'loud',
      store: { kidn: 'sqlite' },
      auth: { hedaer: 'x-key' },
      agents: [{ id: 'a', handler: 'demo', nmae: 'A' }],
      maxBodyBytes: 0,
    };
    expect(messageOf(() => resolveConfig(input as never))).toBe(
      [
        'Invalid configuration (6 problems):',
        '  - unknown key agents[0].nmae (did you mean agents[0].name?)',
        '  - unknown key auth.hedaer (did you mean auth.header?)',
        '  - unknown key store.kidn (did you mean store.kind?)',
        '  - unknown key prot (did you mean port?)',
        '  - maxBodyBytes must be an integer between 1 and 1073741824 (got 0)',
        '  - logLevel must be one of debug, info, warn, error (got "loud")',
      ].join('\n'),
    );
  });

  it('two unknown keys of one object are two problems; a key like none lists the known ones', () => {
    const message = messageOf(() => resolveConfig({ tls: { certFlie: 'a.pem', colour: 'red' } } as never));
    expect(message).toMatch(
      /^Invalid configuration \(2 problems\):\n {2}- unknown key tls\.certFlie \(did you mean tls\.certFile\?\)\n {2}- unknown key tls\.colour \(known: certFile, keyFile/,
    );
  });

  it('one problem keeps its one-line message', () => {
    expect(messageOf(() => resolveConfig({ logLevel: 'loud' } as never))).toBe(
      'Invalid configuration: logLevel must be one of debug, info, warn, error (got "loud")',
    );
  });

  it('the problems of the file, the environment and the flags together', () => {
    const dir = mkdtempSync(join(tmpdir(), 'executor-problems-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ sotre: { kind: 'memory' } }));
    const message = messageOf(() => loadConfig({ argv: ['--config', file, '--port', 'eighty'], env: { PORT: 'abc', LOG_LEVEL: 'loud' }, cwd: dir }));
    expect(message).toBe(
      [
        'Invalid configuration (4 problems):',
        `  - config file ${file}: unknown key sotre (did you mean store?)`,
        '  - PORT must be an integer (got "abc")',
        '  - LOG_LEVEL must be one of debug, info, warn, error (got "loud")',
        '  - --port must be an integer (got "eighty")',
      ].join('\n'),
    );
  });

  it('a misspelt flag: did you mean', () => {
    expect(messageOf(() => loadConfig({ argv: ['--prot', '1'], env: {}, cwd: '/' }))).toBe('Unknown argument "--prot" (did you mean --port?)');
    expect(messageOf(() => loadConfig({ argv: ['--frobnicate', '1'], env: {}, cwd: '/' }))).toMatch(
      /^Unknown argument "--frobnicate" \(known: --config, --host/,
    );
  });
});
