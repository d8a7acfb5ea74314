/**
 * Turns one raw layer (a config file's JSON, a `startExecutor` argument, or a single
 * environment variable or flag) into a checked, typed partial configuration: checked against
 * THE schema ({@link configFileSchema}), then relative paths resolved against the layer's
 * directory.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { configFileSchema, type ConfigFileLayer } from './schema/config-file.js';
import { configErrorOf } from './schema-errors.js';
import type { ExecutorConfigInput } from './types.js';

/**
 * Validates one layer (a config file's JSON, or a `startExecutor` argument) and returns it as
 * a typed partial. `source` prefixes every key in error messages (e.g. `config file x.json:`).
 */
export function parseConfigInput(raw: unknown, source: string, baseDir?: string): ExecutorConfigInput {
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) throw configErrorOf(parsed.error, source, raw);
  const { $schema: _schema, ...layer } = parsed.data;
  return resolvePaths(layer, baseDir);
}

/**
 * Resolves the layer's relative paths against `baseDir` (the config file's directory, else
 * the working directory): `agentModule`, `store.path`, and the `module` handler's
 * `settings.path` of each agent (it resolves like `agentModule`).
 */
function resolvePaths(layer: Omit<ConfigFileLayer, '$schema'>, baseDir: string | undefined): ExecutorConfigInput {
  return {
    ...layer,
    ...(layer.agentModule !== undefined && { agentModule: resolveModulePath(layer.agentModule, baseDir) }),
    ...(layer.store?.path !== undefined && { store: { ...layer.store, path: resolve(baseDir ?? process.cwd(), layer.store.path) } }),
    ...(layer.agents !== undefined && {
      agents: layer.agents.map((entry) => {
        const settings = { ...entry.settings };
        if (entry.handler === 'module' && typeof settings.path === 'string' && settings.path.trim() !== '') settings.path = resolveModulePath(settings.path, baseDir);
        return { ...entry, settings };
      }),
    }),
  };
}

/**
 * Relative module paths resolve against `baseDir`. A bare name is a path too when such a file
 * exists there (`examples/agent.js` without `./`, the way people type it); otherwise it stays
 * a package name for `require.resolve`.
 */
function resolveModulePath(spec: string, baseDir: string | undefined): string {
  if (isAbsolute(spec)) return spec;
  const path = resolve(baseDir ?? process.cwd(), spec);
  return spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..' || existsSync(path) ? path : spec;
}
