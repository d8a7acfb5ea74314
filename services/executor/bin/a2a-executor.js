#!/usr/bin/env node
'use strict';
/**
 * The `a2a-executor` command: runs the compiled service (dist/main.js). A committed file, not
 * dist/main.js itself, because npm links a bin at `npm ci` only when its file exists, and a
 * fresh checkout has no dist/ yet: then this builds the service and the packages it uses
 * once, quietly, and goes on (scripts/quiet-build.js, buildOnFirstRun). Installed from a
 * tarball (`npm run pack`), dist is always there and the repository's scripts are not.
 */
const { existsSync } = require('node:fs');
const path = require('node:path');

const main = path.join(__dirname, '..', 'dist', 'main.js');
if (!existsSync(main)) {
  const builder = path.join(__dirname, '..', '..', '..', 'scripts', 'quiet-build.js');
  if (!existsSync(builder)) {
    process.stderr.write(`a2a-executor: ${main} is missing: this copy of @a2a-polyglot/executor was packed without being built\n`);
    process.exit(2);
  }
  require(builder).buildOnFirstRun('a2a-executor', '@a2a-polyglot/executor', main);
}
require(main);
