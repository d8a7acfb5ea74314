/**
 * The config-file layer: reading a JSON file and checking it, with relative paths resolved
 * against the file's directory.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './errors.js';
import { parseConfigInput } from './parse.js';
import type { ConfigLayer } from './types.js';

/** Reads and validates a JSON config file. Relative paths inside it resolve against its directory. */
export function configFromFile(path: string): ConfigLayer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseConfigInput(json, `config file ${path}: `, dirname(path));
}
