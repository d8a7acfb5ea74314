/**
 * The two entry points that produce a complete, validated configuration: {@link loadConfig}
 * for the process (defaults < config file < environment < flags) and {@link resolveConfig}
 * for in-process use (`startExecutor`).
 */
import { resolve } from 'node:path';
import { hasCardKeys, markCardKeys, setCardKeys } from './card-keys.js';
import { defaultConfig } from './defaults.js';
import { ConfigError, configErrorOfAll } from './errors.js';
import { configFromEnv } from './env.js';
import { configFromFile } from './file.js';
import { parseArgs } from './flags.js';
import { mergeConfig } from './merge.js';
import { parseConfigInput } from './parse.js';
import { layerFromText } from './text.js';
import type { ConfigLayer, ExecutorConfig, ExecutorConfigInput } from './types.js';
import { validateConfig } from './validate.js';

/** Where {@link loadConfig} reads from; defaults to the real process. */
export interface LoadConfigOptions {
  readonly argv?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
}

/** The result of {@link loadConfig}: the configuration plus what the command line asked for. */
export interface LoadedConfig {
  readonly config: ExecutorConfig;
  readonly help: boolean;
  /** The config file used, if any (absolute path). */
  readonly configFile?: string;
}

/**
 * Resolves the configuration: built-in defaults < config file (`--config` or `A2A_CONFIG`) <
 * environment variables < CLI flags. Throws {@link ConfigError} on anything invalid: one line
 * per problem, the problems of every layer at once.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const args = parseArgs(options.argv ?? process.argv.slice(2));
  const fileArg = args.configPath ?? (env.A2A_CONFIG || undefined);
  const configFile = fileArg === undefined ? undefined : resolve(cwd, fileArg);

  // Every layer is read even when one is bad, so the error lists the problems of all of them.
  const errors: ConfigError[] = [];
  const layer = (read: () => ConfigLayer): ConfigLayer => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      errors.push(error);
      return {};
    }
  };
  const file = configFile ? layer(() => configFromFile(configFile)) : {};
  const fromEnv = layer(() => configFromEnv(env, cwd));
  const flags = layer(() => layerFromText(args.flags, cwd));
  if (errors.length > 0) throw configErrorOfAll(errors);
  const config = mergeConfig(mergeConfig(mergeConfig(defaultConfig(), file), fromEnv), flags);
  return { config: validateConfig(config), help: args.help, configFile };
}

/**
 * Resolves a configuration for in-process use (`startExecutor`): defaults overlaid with
 * `input`, validated like any other layer.
 */
export function resolveConfig(input: ExecutorConfigInput = {}): ExecutorConfig {
  const resolved = validateConfig(mergeConfig(defaultConfig(), parseConfigInput(stripUndefined(input), '')));
  return keepCardKeys(input, resolved);
}

/**
 * `resolved` with the set card keys of `input`'s cards where `input` is itself a resolved
 * configuration ({@link loadConfig}'s, handed to `startExecutor`): re-parsed, its cards would
 * read as set in full, and an agent module's card could never fill what only defaults held.
 */
function keepCardKeys(input: ExecutorConfigInput, resolved: ExecutorConfig): ExecutorConfig {
  if (input.agent && hasCardKeys(input.agent)) markCardKeys(resolved.agent, setCardKeys(input.agent as ExecutorConfig['agent']));
  input.agents?.forEach((entry, i) => {
    const out = resolved.agents[i];
    if (out && hasCardKeys(entry)) markCardKeys(out, setCardKeys(entry as ExecutorConfig['agents'][number]));
  });
  return resolved;
}

/** Drops `undefined` properties at any depth, so a caller's `{ key: undefined }` reads as unset. */
function stripUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripUndefined);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, stripUndefined(v)]),
  );
}
