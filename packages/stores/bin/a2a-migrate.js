#!/usr/bin/env node
'use strict';
/**
 * The `a2a-migrate` command: runs the compiled migration CLI (dist/migrate-cli.js). A
 * committed file, not dist/migrate-cli.js itself, because npm links a bin at `npm ci` only
 * when its file exists, and a fresh checkout has no dist/ yet: then this builds the package
 * once, quietly, and goes on (scripts/quiet-build.js, buildOnFirstRun). Installed from a
 * tarball (`npm run pack`), dist is always there and the repository's scripts are not.
 */
const { existsSync } = require('node:fs');
const path = require('node:path');

const main = path.join(__dirname, '..', 'dist', 'migrate-cli.js');
if (!existsSync(main)) {
  const builder = path.join(__dirname, '..', '..', '..', 'scripts', 'quiet-build.js');
  if (!existsSync(builder)) {
    process.stderr.write(`a2a-migrate: ${main} is missing: this copy of @a2a-polyglot/stores was packed without being built\n`);
    process.exit(2);
  }
  require(builder).buildOnFirstRun('a2a-migrate', '@a2a-polyglot/stores', main);
}
require(main);
