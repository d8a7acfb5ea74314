import { existsSync, statSync } from 'node:fs';
import { extname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentCardFields, AgentExecutor, Logger } from '@a2a-polyglot/core';
import type { ExecutorConfig } from './config.js';
import { ExitGuard } from './exit-guard.js';
import { checkModuleCard } from './module-card.js';

/** What a factory export receives, so a user agent can read its settings and log like the service. */
export interface AgentFactoryContext {
  readonly config: ExecutorConfig;
  readonly logger: Logger;
}

/** A module could not be used as an agent. The message is one line, fit for the console. */
export class AgentModuleError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentModuleError';
  }
}

/** The export names searched, in order, after the module object itself. */
export const AGENT_EXPORTS = ['default', 'executor', 'agent'] as const;

/** Extensions loaded through tsx (TypeScript compiled on import) rather than Node's own loader. */
export const TYPESCRIPT_EXTENSIONS = ['.ts', '.mts', '.cts'] as const;

/** The card each loaded module brought, by the executor it built (see {@link agentModuleCard}). */
const moduleCards = new WeakMap<AgentExecutor, AgentCardFields>();

/**
 * The card the module that built `executor` exports (checked), if it exports one: its `card`
 * export, else the `card` of the agent object itself (what `defineAgent({ card, ... })` returns,
 * or a factory's result). Undefined for an executor no module of {@link loadAgentModule} built.
 * A lookup beside the executor rather than a second return value: the `module` handler hands its
 * executor through the bridge registry, which knows only executors.
 */
export function agentModuleCard(executor: AgentExecutor): AgentCardFields | undefined {
  return moduleCards.get(executor);
}

/**
 * Loads a user agent so operators plug in their own logic without forking the service.
 *
 * `spec` is an absolute path, a path relative to `baseDir`, or a package name. CommonJS and
 * ES modules both work. The module may export (as the module itself, `default`, `executor`
 * or `agent`, searched in that order) either an AgentExecutor (an object with an `execute`
 * function) or a factory returning one: a function or class called/constructed with
 * {@link AgentFactoryContext}, possibly async. A card beside it (export `card`, or `card` on the
 * agent object as `defineAgent` makes it) is checked and kept for {@link agentModuleCard}.
 * TypeScript files (`.ts`, `.mts`, `.cts`) are compiled on import by tsx.
 *
 * Only a regular file is imported (a named pipe would block the event loop in the read), and
 * `allowed`, when given, vets the resolved file before it is imported (the agent registry's
 * policy). While the module loads and its factory runs, `process.exit` is refused (see
 * {@link ExitGuard}): a command-line script named by mistake fails its load instead of ending
 * the service.
 */
export async function loadAgentModule(
  spec: string,
  context: AgentFactoryContext,
  baseDir: string = process.cwd(),
  allowed?: (spec: string, path: string) => void,
): Promise<AgentExecutor> {
  const path = resolveAgentModule(spec, baseDir);
  allowed?.(spec, path);
  const guard = new ExitGuard((code) =>
    context.logger.warn({ module: spec, exitCode: code }, 'Agent module called process.exit from a callback it scheduled while loading; ignored'),
  );
  try {
    const executor = await guard.run(() => importAndBuild(spec, path, context, guard));
    if (!guard.attempted) return executor;
  } catch (error) {
    // The exit explains the failure better than what it left behind (a half-run module).
    if (!guard.attempted) throw error;
  }
  const code = guard.attempted?.code;
  throw new AgentModuleError(
    `Agent module ${spec} called process.exit(${code === undefined ? '' : String(code)}) while loading (a command-line script, not an agent module?); the service keeps running`,
  );
}

/** The import and the factory call of {@link loadAgentModule}, inside its exit guard. */
async function importAndBuild(spec: string, path: string, context: AgentFactoryContext, guard: ExitGuard): Promise<AgentExecutor> {
  let mod: unknown;
  try {
    mod = await importModule(path, guard);
  } catch (error) {
    throw new AgentModuleError(`Agent module ${looksLikePath(spec) ? spec : `${spec} (${path})`} failed to load: ${loadFailure(error, path)}`, {
      cause: error,
    });
  }
  const executor = await buildExecutor(spec, mod, context);
  const card = exportedCard(mod) ?? (executor as { card?: unknown }).card;
  if (card !== undefined) {
    try {
      moduleCards.set(executor, checkModuleCard(card));
    } catch (error) {
      throw new AgentModuleError(`Agent module ${spec} exports an invalid card: ${(error as Error).message.split('\n').join('; ')}`, { cause: error });
    }
  }
  return executor;
}

/** The module's `card` export (also under `default`, where `import()` puts a CommonJS module's exports). */
function exportedCard(mod: unknown): unknown {
  if (typeof mod !== 'object' || mod === null) return undefined;
  const own = (mod as { card?: unknown }).card;
  if (own !== undefined) return own;
  const inner = (mod as { default?: unknown }).default;
  return typeof inner === 'object' && inner !== null && !isExecutor(inner) ? (inner as { card?: unknown }).card : undefined;
}

/**
 * One line saying why a module did not load: the error's message (esbuild's and V8's span
 * lines), with a hint where the cause is a known mix-up (ES module syntax in a file Node reads
 * as CommonJS).
 */
function loadFailure(error: unknown, path: string): string {
  const message = ((error as Error)?.message ?? String(error))
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
  if (error instanceof SyntaxError && extname(path) === '.js' && /\b(import|export)\b|Unexpected token/.test(message)) {
    return `${message} (if it is an ES module, name it .mjs or set "type": "module" in its package.json)`;
  }
  return message;
}

/** The executor of a loaded module: its agent object, or what its factory returns. */
async function buildExecutor(spec: string, mod: unknown, context: AgentFactoryContext): Promise<AgentExecutor> {
  const found = findExport(mod);
  if (!found) {
    throw new AgentModuleError(
      `Agent module ${spec} exports no agent: expected an object with an execute() function, or a factory returning one, as the module itself or as export ${AGENT_EXPORTS.map((n) => `"${n}"`).join(', ')}`,
    );
  }
  if (found.kind === 'executor') return found.value;
  let made: unknown;
  try {
    made = isClass(found.value)
      ? new (found.value as new (c: AgentFactoryContext) => unknown)(context)
      : await (found.value as (c: AgentFactoryContext) => unknown)(context);
  } catch (error) {
    throw new AgentModuleError(`Agent factory ${found.name} of ${spec} threw: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
  if (!isExecutor(made)) throw new AgentModuleError(`Agent factory ${found.name} of ${spec} returned no agent (an object with an execute() function)`);
  return made;
}

/** Resolves a module spec to a regular file, or throws a clear "not found" / "not a regular file". */
export function resolveAgentModule(spec: string, baseDir: string): string {
  return regularFile(spec, resolveSpec(spec, baseDir));
}

/** True when `spec` names a file (absolute, or relative with a leading dot) rather than a package. */
export function looksLikePath(spec: string): boolean {
  return isAbsolute(spec) || spec.startsWith('.');
}

function resolveSpec(spec: string, baseDir: string): string {
  if (looksLikePath(spec)) {
    const path = resolve(baseDir, spec);
    // The path as written first: some resolvers (jest's) call a pipe "not found", Node's takes it.
    if (existsSync(path) && !statSync(path).isDirectory()) regularFile(spec, path);
    try {
      return require.resolve(path);
    } catch {
      throw new AgentModuleError(`Agent module not found: ${path}${existsSync(path) ? ' (is a directory without an index or package.json main?)' : ''}`);
    }
  }
  try {
    return require.resolve(spec, { paths: [baseDir] });
  } catch {
    throw new AgentModuleError(`Agent module not found: package ${JSON.stringify(spec)} cannot be resolved from ${baseDir}`);
  }
}

/**
 * `path` when it is a regular file (symlinks followed). Node's resolver takes any path that is
 * not a directory, and `require` then reads it synchronously: a named pipe blocks the whole
 * event loop until someone writes to it, a device never ends.
 */
function regularFile(spec: string, path: string): string {
  let kind: string;
  try {
    const stat = statSync(path);
    if (stat.isFile()) return path;
    kind = stat.isFIFO() ? 'a named pipe' : stat.isSocket() ? 'a socket' : stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : 'not a file';
  } catch (error) {
    kind = `unreadable (${(error as NodeJS.ErrnoException)?.code ?? String(error)})`;
  }
  throw new AgentModuleError(`Agent module ${spec} is not a regular file: ${path} is ${kind}`);
}

/** `require` for CommonJS, a real dynamic `import()` for ES modules; the synchronous `require` inside `guard.sync`. */
async function importModule(path: string, guard: ExitGuard): Promise<unknown> {
  if ((TYPESCRIPT_EXTENSIONS as readonly string[]).includes(extname(path))) {
    // tsx (esbuild underneath) rather than a home-made transpiler: it follows tsconfig paths,
    // handles ESM and CommonJS TypeScript alike, and is what agent authors run their code with.
    // Loaded on first use only, so services without a TypeScript module never pay for it; its
    // ES-module entry, since the CommonJS one looks for its loader at a path that does not exist.
    const { tsImport } = await import('tsx/esm/api');
    return tsImport(pathToFileURL(path).href, { parentURL: pathToFileURL(__filename).href });
  }
  if (extname(path) !== '.mjs') {
    try {
      return guard.sync(() => require(path));
    } catch (error) {
      // Older Node cannot require() ES modules at all; newer ones cannot if they use top-level await.
      const code = (error as NodeJS.ErrnoException)?.code;
      if (code !== 'ERR_REQUIRE_ESM' && code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
    }
  }
  return import(pathToFileURL(path).href);
}

/** A factory function or a class: what a module may export instead of an executor object. */
type AnyCallable = ((...args: never[]) => unknown) | (abstract new (...args: never[]) => unknown);

type Found = { kind: 'executor'; name: string; value: AgentExecutor } | { kind: 'factory'; name: string; value: AnyCallable };

function findExport(mod: unknown): Found | undefined {
  if (isExecutor(mod)) return { kind: 'executor', name: 'module.exports', value: mod };
  if (typeof mod === 'object' && mod !== null) {
    for (const name of AGENT_EXPORTS) {
      const value = (mod as Record<string, unknown>)[name];
      if (isExecutor(value)) return { kind: 'executor', name, value };
      if (typeof value === 'function') return { kind: 'factory', name, value: value as AnyCallable };
      // `import()` of a CommonJS module puts module.exports under `default`.
      if (name === 'default' && typeof value === 'object' && value !== null) {
        const inner = findExport(value);
        if (inner) return inner;
      }
    }
  }
  if (typeof mod === 'function') return { kind: 'factory', name: 'module.exports', value: mod as AnyCallable };
  return undefined;
}

function isExecutor(value: unknown): value is AgentExecutor {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { execute?: unknown }).execute === 'function';
}

function isClass(fn: AnyCallable): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(fn));
}
