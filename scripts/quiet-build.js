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

module.exports = { runQuietly, quietBuild };

if (require.main === module) {
  const pkg = process.argv[2];
  if (!pkg) {
    process.stderr.write('usage: node scripts/quiet-build.js <package name>\n');
    process.exit(2);
  }
  process.exit(quietBuild(pkg));
}
