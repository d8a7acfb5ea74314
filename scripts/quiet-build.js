#!/usr/bin/env node
'use strict';
/**
 * Builds a workspace package and the packages it depends on through turbo, quietly:
 *   node scripts/quiet-build.js @a2a-polyglot/cli
 * A command such as `npm run a2a -- card URL` is about its own output; turbo's banner and
 * summary ("• Packages in scope", "Tasks: 7 successful") would only be noise around it, on a
 * terminal and in a pipe alike. So turbo's output is kept and shown (on stderr) only when the
 * build fails, and the exit code is turbo's.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/**
 * Runs `file args` with its stdout and stderr captured; writes them through `write` only when
 * it fails. Returns the exit code (1 when it could not start or was killed).
 */
function runQuietly(file, args, write = (text) => process.stderr.write(text)) {
  const result = spawnSync(file, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) {
    write(`${file}: ${result.error.message}\n`);
    return 1;
  }
  if (result.status === 0) return 0;
  write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  return result.status ?? 1;
}

/** Builds `pkg` and its dependencies (turbo's `--filter=pkg...`), quietly. Returns the exit code. */
function quietBuild(pkg, write) {
  const turbo = require.resolve('turbo/bin/turbo', { paths: [root] });
  return runQuietly(process.execPath, [turbo, 'run', 'build', `--filter=${pkg}...`, '--output-logs=errors-only'], write);
}

/**
 * The first-run step of a committed bin shim (packages/cli/bin/a2a.js,
 * services/executor/bin/a2a-executor.js, packages/stores/bin/a2a-migrate.js). npm links a bin
 * at `npm ci` only when its file exists, and dist/ does not exist before the first build, so
 * each bin is a small committed file that runs `main` (the package's compiled entry). When
 * `main` is missing (a fresh clone), this builds `pkg` and what it uses once, quietly, so
 * `npx <command>` works right after `npm ci`. Exits 2 with one line when the build fails.
 */
function buildOnFirstRun(command, pkg, main) {
  const { existsSync } = require('node:fs');
  if (existsSync(main)) return;
  process.stderr.write(`${command}: first run, building ${pkg} and the packages it uses (turbo, once; a minute or more)\n`);
  const status = quietBuild(pkg);
  if (status !== 0 || !existsSync(main)) {
    process.stderr.write(`${command}: the build failed; run \`npm run build\` at the repository root and try again\n`);
    process.exit(2);
  }
}

module.exports = { runQuietly, quietBuild, buildOnFirstRun };

if (require.main === module) {
  const pkg = process.argv[2];
  if (!pkg) {
    process.stderr.write('usage: node scripts/quiet-build.js <package name>\n');
    process.exit(2);
  }
  process.exit(quietBuild(pkg));
}
