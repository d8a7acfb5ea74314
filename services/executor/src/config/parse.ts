/**
 * Turns one raw layer (a config file's JSON, a `startExecutor` argument, or a single
 * environment variable or flag) into a checked, typed partial configuration: checked against
 * THE schema (its layer form, {@link configLayerSchema}), then relative paths resolved against the layer's
 * directory.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { agentEntrySchema } from './schema/agent.js';
import { configLayerSchema } from './schema/config-file.js';
import { configErrorOf } from './schema-errors.js';
import type { A2ALiteConfig, ConfigLayer } from './types.js';

/** One entry of `agents` as a layer gives it. */
type AgentEntryInput = NonNullable<ConfigLayer['agents']>[number];

/**
 * Validates one layer (a config file's JSON, or a `startExecutor` argument) and returns it as
 * a typed partial. `source` prefixes every key in error messages (e.g. `config file x.json:`).
 */
export function parseConfigInput(raw: unknown, source: string, baseDir?: string): ConfigLayer {
  const parsed = configLayerSchema.safeParse(raw);
  if (!parsed.success) throw configErrorOf(parsed.error, source, raw);
  const { $schema: _schema, ...layer } = parsed.data as ConfigLayer & { $schema?: string };
  return resolvePaths(layer, baseDir);
}

/**
 * One entry of `agents` from elsewhere than a config file (a row of the agent registry),
 * checked by the same schema; `where` names it in errors. Relative paths resolve against
 * `baseDir` (else the working directory).
 */
export function parseAgentEntry(raw: unknown, where: string, baseDir: string | undefined): AgentEntryInput {
  const parsed = agentEntrySchema.safeParse(raw);
  if (!parsed.success) throw configErrorOf(parsed.error, `${where}: `, raw);
  return resolveEntryPaths(parsed.data, baseDir);
}

/**
 * Resolves the layer's relative paths against `baseDir` (the config file's directory, else
 * the working directory): `agentModule`, `store.path`, the `tls` files, `agentRegistry.moduleDirs`,
 * `cardSigning.keyFile`, and the `module` handler's `settings.path` of each agent (it resolves like
 * `agentModule`).
 */
function resolvePaths(layer: ConfigLayer, baseDir: string | undefined): ConfigLayer {
  return {
    ...layer,
    ...(layer.agentModule !== undefined && { agentModule: resolveModulePath(layer.agentModule, baseDir) }),
    ...(layer.store?.path !== undefined && { store: { ...layer.store, path: resolve(baseDir ?? process.cwd(), layer.store.path) } }),
    ...(layer.tls !== undefined && { tls: resolveTlsPaths(layer.tls, baseDir) }),
    ...(layer.agentRegistry?.moduleDirs !== undefined && {
      agentRegistry: { ...layer.agentRegistry, moduleDirs: layer.agentRegistry.moduleDirs.map((dir) => resolve(baseDir ?? process.cwd(), dir)) },
    }),
    ...(layer.cardSigning?.keyFile !== undefined && {
      cardSigning: { ...layer.cardSigning, keyFile: resolve(baseDir ?? process.cwd(), layer.cardSigning.keyFile) },
    }),
    ...(layer.agents !== undefined && { agents: layer.agents.map((entry) => resolveEntryPaths(entry, baseDir)) }),
  };
}

/** The TLS files resolve against `baseDir`, like every path of a layer. */
function resolveTlsPaths(tls: NonNullable<ConfigLayer['tls']>, baseDir: string | undefined): NonNullable<ConfigLayer['tls']> {
  const file = (path: string | undefined) => path && resolve(baseDir ?? process.cwd(), path);
  return {
    ...tls,
    ...(tls.certFile && { certFile: file(tls.certFile) }),
    ...(tls.keyFile && { keyFile: file(tls.keyFile) }),
    ...(tls.clientCaFile && { clientCaFile: file(tls.clientCaFile) }),
  };
}

/** An agent entry's paths: the `module` handler's `settings.path` (like `agentModule`), the A2A-Lite cache directory. */
function resolveEntryPaths(entry: AgentEntryInput, baseDir: string | undefined): AgentEntryInput {
  const settings = { ...entry.settings };
  if (entry.handler === 'module' && typeof settings.path === 'string' && settings.path.trim() !== '') settings.path = resolveModulePath(settings.path, baseDir);
  const { a2aLite, ...rest } = entry;
  const lite = liteOptions(a2aLite, baseDir);
  return { ...rest, settings, ...(lite && { a2aLite: lite }) };
}

/** `"a2aLite": true` is `{}`, `false` is off; the cache directory resolves against `baseDir`. */
function liteOptions(raw: boolean | A2ALiteConfig | undefined, baseDir: string | undefined): A2ALiteConfig | undefined {
  if (raw === undefined || raw === false) return undefined;
  if (raw === true) return {};
  return raw.knownAgentsDir === undefined ? raw : { ...raw, knownAgentsDir: resolve(baseDir ?? process.cwd(), raw.knownAgentsDir) };
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
