#!/usr/bin/env node
/**
 * Builds a published library package in both module systems, from the package's folder:
 *   node ../../scripts/build-library.mjs
 *
 * - `dist/`      CommonJS (tsconfig.build.json as it is): what `require()` and Node load.
 * - `dist/esm/`  ES modules with their own declarations, for bundlers and browsers
 *   (tree-shaking; the `import` condition outside Node). A `{"type":"module"}` marker makes
 *   Node and TypeScript read that folder as ESM (it repeats the package's `sideEffects`).
 * - `dist/<entry>.mjs` + `.d.mts` one line each, `export * from './<entry>.js'`: what Node's
 *   `import` loads. It re-exports the CommonJS build instead of loading the ESM one so that a
 *   process that both imports and requires a package (an ESM app on a CommonJS library of
 *   ours, or the reverse) gets ONE copy of every class: `instanceof A2AError` keeps working
 *   (the "dual package hazard", Node's documented wrapper approach).
 *
 * Entries are the subpaths of the package's `exports` map ("." is `index`). Hand-written
 * because tsc emits one module system per run and no bundler is needed for two tsc runs.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = (...args) => execFileSync(process.execPath, [tsc, ...args], { stdio: 'inherit' });

run('-p', 'tsconfig.build.json');
run('-p', 'tsconfig.build.json', '--module', 'es2022', '--moduleResolution', 'bundler', '--outDir', 'dist/esm');
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
// Bundlers read `sideEffects` from the nearest package.json, which for dist/esm is this one.
writeFileSync(path.join('dist', 'esm', 'package.json'), `${JSON.stringify({ type: 'module', sideEffects: manifest.sideEffects })}\n`);

for (const subpath of Object.keys(manifest.exports ?? { '.': null })) {
  if (subpath === './package.json') continue;
  const entry = subpath === '.' ? 'index' : subpath.slice(2);
  const reexport = `export * from './${entry}.js';\n`;
  writeFileSync(path.join('dist', `${entry}.mjs`), reexport);
  writeFileSync(path.join('dist', `${entry}.d.mts`), reexport);
}
