#!/usr/bin/env node
/**
 * `npm run pack`: writes one tarball per public workspace (every package.json without
 * `"private": true`) into one folder, dist-packages/ by default:
 *
 *   node scripts/pack.mjs [--out <folder>]
 *
 * Nothing is on the public npm registry yet, so these tarballs are how the packages are used
 * outside this repository: `npm install ./dist-packages/a2a-polyglot-*.tgz` in any project
 * installs them together (their exact internal versions, e.g. `@a2a-polyglot/core: 0.1.0`,
 * resolve to the tarballs installed alongside). It builds them first (turbo, quietly: a cache
 * hit after `npm run build`), so a tarball never holds a stale dist/. The packing itself is npm's
 * (`npm pack -w … --pack-destination`, prepack scripts included); this only picks the
 * workspaces and clears stale tarballs, so the folder holds exactly one set.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The public workspaces: folder (relative to the root) and package name. */
export function publicWorkspaces() {
  const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const found = [];
  for (const pattern of workspaces) {
    // The root lists `folder/*` patterns only; a hand-written expansion keeps this script free
    // of a glob dependency.
    const parent = pattern.replace(/\/\*$/, '');
    for (const entry of readdirSync(path.join(root, parent), { withFileTypes: true })) {
      const file = path.join(root, parent, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      if (!manifest.private) found.push({ dir: `${parent}/${entry.name}`, name: manifest.name });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** Builds every public workspace and what it depends on, quietly (scripts/quiet-build.js). */
function buildAll(workspaces) {
  const { runQuietly } = createRequire(import.meta.url)('./quiet-build.js');
  const turbo = createRequire(path.join(root, 'package.json')).resolve('turbo/bin/turbo');
  const filters = workspaces.map((w) => `--filter=${w.name}...`);
  if (runQuietly(process.execPath, [turbo, 'run', 'build', ...filters, '--output-logs=errors-only']) !== 0) throw new Error('the build failed');
}

/** Builds and packs every public workspace into `out`; returns the tarball file names. */
export function packAll(out) {
  const workspaces = publicWorkspaces();
  buildAll(workspaces);
  const unbuilt = workspaces.filter((w) => !existsSync(path.join(root, w.dir, 'dist')));
  if (unbuilt.length > 0) {
    throw new Error(`not built: ${unbuilt.map((w) => w.name).join(', ')}; run \`npm run build\` first`);
  }
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(out)) if (file.endsWith('.tgz')) rmSync(path.join(out, file));
  const args = ['pack', '--json', '--pack-destination', out, ...workspaces.flatMap((w) => ['-w', w.name])];
  // npm's lifecycle banners (`> prepack`) and notices go to stderr: kept, shown only on failure.
  let json;
  try {
    json = execFileSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    throw new Error(`npm pack failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
  // A prepack script's own output would come ahead of the JSON: the JSON is the last array.
  const start = json.startsWith('[') ? 0 : json.lastIndexOf('\n[') + 1;
  const packed = JSON.parse(json.slice(start));
  return packed.map((p) => p.filename);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flag = process.argv.indexOf('--out');
  const out = path.resolve(flag > 0 ? process.argv[flag + 1] : path.join(root, 'dist-packages'));
  try {
    const files = packAll(out);
    const where = path.relative(process.cwd(), out) || '.';
    process.stdout.write(`${files.length} tarballs in ${where}:\n${files.map((name) => `  ${name}\n`).join('')}`);
  } catch (error) {
    process.stderr.write(`pack: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
