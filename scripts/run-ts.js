'use strict';
/**
 * Runs a TypeScript entry point of this repo straight from sources, for tests that need a
 * real child process (the CLI, signals, exit codes) without depending on a prior build:
 *   node scripts/run-ts.js services/executor/src/main.ts [args...]
 * `.ts` files are compiled on load with @swc/core (already used by jest), and imports are
 * resolved the way the jest config does: `@a2a-polyglot/<name>` → packages/<name>/src/index.ts
 * (or services/<name>/src/index.ts),
 * relative `./x.js` → `./x.ts`.
 */
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '..');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const pkg = /^@a2a-polyglot\/([a-z0-9-]+)(?:\/(.+))?$/.exec(request);
  if (pkg) {
    for (const dir of ['packages', 'services']) {
      const file = path.join(root, dir, pkg[1], 'src', `${pkg[2] ?? 'index'}.ts`);
      if (fs.existsSync(file)) return file;
    }
  }
  if (request.startsWith('.') && request.endsWith('.js') && parent?.filename?.endsWith('.ts')) {
    const file = path.resolve(path.dirname(parent.filename), request.replace(/\.js$/, '.ts'));
    if (fs.existsSync(file)) return file;
  }
  return resolveFilename.call(this, request, parent, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs', ignoreDynamic: true },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};

const entry = path.resolve(process.argv[2]);
process.argv.splice(1, 2, entry); // the entry sees its own flags at argv[2...], as under `node entry.js`
require(entry);
