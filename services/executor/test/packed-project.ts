/**
 * An empty project outside the repository with the packed tarballs (`npm run pack`)
 * installed, as the root README's "Use it outside this repository" does, but without the
 * registry: `npm install ./a2a-polyglot-*.tgz` has to ask the registry which versions of the
 * third-party dependencies exist, and a test must not depend on a network. So the project
 * gets the package-lock that npm would write, made from the repository's own lockfile (same
 * versions, same integrity hashes), and `npm install --offline` takes every third-party
 * package from the npm cache that `npm ci` filled.
 *
 * The lockfile holds only what the public packages need at run time: their `dependencies`,
 * non-optional peers and optional dependencies, followed through the repository's lockfile
 * the way Node resolves them (nearest node_modules first). Dev dependencies and what only the
 * private workspaces use are left out, so a package that needs one of them at run time fails
 * here, as it would for a user. A public package that depends on a private workspace fails
 * here as well. Hand-written: npm has no command that writes a lockfile without the registry.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One `packages` entry of a lockfile (the fields this reads; the rest is copied as is). */
interface LockEntry {
  readonly version?: string;
  readonly resolved?: string;
  readonly link?: boolean;
  readonly dev?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  readonly [field: string]: unknown;
}

/** A workspace as `npm pack` wrote it: package name and tarball file name. */
export interface PackedPackage {
  readonly name: string;
  readonly tarball: string;
}

/** What a lock entry needs installed beside it at run time. */
function runtimeNeeds(entry: LockEntry): string[] {
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !entry.peerDependenciesMeta?.[name]?.optional);
  return [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers];
}

/** The lock path `name` resolves to from the package at `from` (Node's lookup: nearest node_modules, then up). */
function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (dir === '') return undefined;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up < 0 ? '' : dir.slice(0, up);
  }
}

/**
 * The package-lock.json of a project that depends on the `packed` tarballs (file: specs
 * relative to `project`), from the repository lockfile at `repoRoot`.
 */
export function offlineLock(repoRoot: string, packDir: string, project: string, packed: readonly PackedPackage[]): Record<string, unknown> {
  const repoLock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const repo = repoLock.packages;
  const tarballOf = new Map(packed.map((p) => [p.name, p.tarball]));
  const spec = (name: string) => `file:${path.relative(project, path.join(packDir, tarballOf.get(name)!))}`;
  const out: Record<string, LockEntry> = {};
  // Workspace folders (packages/x) become node_modules/@scope/x in the project.
  const workspaceTarget = new Map<string, string>();
  for (const [key, entry] of Object.entries(repo)) if (entry.link && entry.resolved) workspaceTarget.set(entry.resolved, key);
  const targetOf = (key: string): string => {
    for (const [dir, target] of workspaceTarget) if (key.startsWith(`${dir}/`)) return `${target}${key.slice(dir.length)}`;
    return key;
  };

  const queue: string[] = [];
  const visit = (from: string, needed: string, by: string) => {
    const found = resolveIn(repo, from, needed);
    if (found === undefined) throw new Error(`${by} needs ${needed}, which the repository lockfile does not resolve from ${from || 'the root'}`);
    const entry = repo[found]!;
    const key = entry.link ? entry.resolved! : found;
    if (entry.link && !tarballOf.has(needed)) throw new Error(`${by} depends on ${needed}, which is not packed (a private workspace?)`);
    if (!(targetOf(key) in out)) {
      out[targetOf(key)] = entry.link ? { ...withoutDev(repo[key]!), resolved: spec(needed) } : entry;
      queue.push(key);
    }
  };
  const root = { name: 'packed-project', version: '1.0.0', dependencies: Object.fromEntries(packed.map((p) => [p.name, spec(p.name)])) };
  for (const { name } of packed) visit('', name, 'the project');
  while (queue.length > 0) {
    const key = queue.shift()!;
    const entry = repo[key]!;
    for (const needed of runtimeNeeds(entry)) visit(key, needed, (entry.name as string | undefined) ?? key);
  }
  return { name: root.name, version: root.version, lockfileVersion: 3, requires: true, packages: { '': root, ...out } };
}

/** A workspace's lock entry as a dependency: its devDependencies are its own business. */
function withoutDev(entry: LockEntry): LockEntry {
  const { devDependencies: _dev, ...rest } = entry;
  return rest;
}

/**
 * Writes package.json and package-lock.json into the empty folder `project` and installs the
 * `packed` tarballs (in `packDir`) there with `npm install --offline`.
 */
export function installPacked(repoRoot: string, packDir: string, project: string, packed: readonly PackedPackage[]): void {
  const lock = offlineLock(repoRoot, packDir, project, packed) as { packages: { '': Record<string, unknown> } };
  writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ private: true, ...lock.packages[''] }, null, 2)}\n`);
  writeFileSync(path.join(project, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  try {
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    // ENOTCACHED: a tarball's manifest names a dependency this lockfile lacks, or the cache lacks a package (`npm ci` fills it).
    throw new Error(`npm install --offline of the packed tarballs failed:\n${stderr}`);
  }
}
