#!/usr/bin/env node
'use strict';
/**
 * The `a2a` command. It runs the compiled CLI (dist/main.js). In a fresh checkout (after
 * `npm ci`, before any build) dist does not exist yet: then it builds the CLI and the packages
 * it uses once, through turbo, and goes on (scripts/quiet-build.js, buildOnFirstRun). `npm run
 * a2a -- ...` at the repo root always rebuilds first (turbo's cache makes that cheap). Both
 * builds print nothing unless they fail. Installed from a tarball (`npm run pack`), dist is
 * always there and the repository's scripts are not.
 */
const { existsSync } = require('node:fs');
const path = require('node:path');

const main = path.join(__dirname, '..', 'dist', 'main.js');
if (!existsSync(main)) {
  const builder = path.join(__dirname, '..', '..', '..', 'scripts', 'quiet-build.js');
  if (!existsSync(builder)) {
    process.stderr.write(`a2a: ${main} is missing: this copy of @a2a-polyglot/cli was packed without being built\n`);
    process.exit(2);
  }
  require(builder).buildOnFirstRun('a2a', '@a2a-polyglot/cli', main);
}
require(main);
