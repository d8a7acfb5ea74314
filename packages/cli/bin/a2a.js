#!/usr/bin/env node
'use strict';
/**
 * The `a2a` command. It runs the compiled CLI (dist/main.js). In a fresh checkout (after
 * `npm ci`, before any build) dist does not exist yet: then it builds the CLI and the packages
 * it uses once, through turbo, and goes on. `npm run a2a -- ...` at the repo root always
 * rebuilds first (turbo's cache makes that cheap). Both builds print nothing unless they fail.
 */
const { existsSync } = require('node:fs');
const path = require('node:path');

const main = path.join(__dirname, '..', 'dist', 'main.js');
if (!existsSync(main)) {
  const root = path.join(__dirname, '..', '..', '..');
  process.stderr.write('a2a: first run, building the CLI and the packages it uses (turbo; about a minute)\n');
  // Quiet unless it fails: turbo's output is shown only then (scripts/quiet-build.js).
  const status = require(path.join(root, 'scripts', 'quiet-build.js')).quietBuild('@a2a-polyglot/cli');
  if (status !== 0 || !existsSync(main)) {
    process.stderr.write('a2a: the build failed; run `npm run build` at the repository root and try again\n');
    process.exit(2);
  }
}
require(main);
