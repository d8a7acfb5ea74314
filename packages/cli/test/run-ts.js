'use strict';
/**
 * Runs the CLI straight from its TypeScript sources, as a child process, so the CLI tests
 * need no prior build: `node test/run-ts.js src/main.ts [args...]`. `.ts` files are compiled
 * on load with @swc/core (already used by jest); `@a2a-polyglot/<name>[/<sub>]` resolves to
 * packages/<name>/src/<sub|index>.ts and relative `./x.js` to `./x.ts`, like the jest config.
 */
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../../..');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const pkg = /^@a2a-polyglot\/([a-z0-9-]+)(?:\/(.+))?$/.exec(request);
  if (pkg) {
    const file = path.join(root, 'packages', pkg[1], 'src', `${pkg[2] ?? 'index'}.ts`);
    if (fs.existsSync(file)) return file;
  }
  if (request.startsWith('.') && request.endsWith('.js') && parent && parent.filename && parent.filename.endsWith('.ts')) {
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
process.argv.splice(1, 2, entry);
require(entry);
