/**
 * The environment-variable layer: reading the variables the schema names.
 */
import { configFileSchema } from './schema/config-file.js';
import { settingNames } from './schema/setting.js';
import { layerFromText } from './text.js';
import type { ConfigLayer } from './types.js';

/**
 * Environment variables and the config key each sets (each key's `env` in the schema). Only
 * these are read; each one that is set (and not empty) overrides the config file.
 */
export const ENV_VARS: Readonly<Record<string, string>> = settingNames(configFileSchema, 'env');

/** Reads the environment layer. Empty values count as unset. */
export function configFromEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): ConfigLayer {
  const entries: Array<[string, string, string]> = [];
  for (const [name, path] of Object.entries(ENV_VARS)) {
    const text = env[name];
    if (text !== undefined && text !== '') entries.push([path, text, name]);
  }
  return layerFromText(entries, cwd);
}
