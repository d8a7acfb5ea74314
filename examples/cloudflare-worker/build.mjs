/**
 * Bundles worker.mjs into one ES module for the Workers runtime, without the nodejs_compat flag:
 *
 *   node examples/cloudflare-worker/build.mjs [outfile]     # default examples/cloudflare-worker/dist/worker.mjs
 *
 * `@a2a-polyglot/server`'s entry also exports the node:http listener and the WebSocket binding;
 * their `node:*` imports (and `util` of a dependency of the forwarded-header parser) are marked
 * external so esbuild does not try to resolve them for the browser platform, and tree-shaking
 * drops them (the packages are side-effect free). The script fails if any `node:` or `util`
 * import is left in the bundle, since workerd would refuse to load it without nodejs_compat.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outfile = process.argv[2] ?? join(here, 'dist', 'worker.mjs');

await build({
  entryPoints: [join(here, 'worker.mjs')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  conditions: ['workerd', 'worker', 'browser'],
  target: 'es2022',
  external: ['node:*', 'util'],
  logLevel: 'warning',
});

const left = [...readFileSync(outfile, 'utf8').matchAll(/(?:from\s*|import\s*\(?\s*|require\(\s*)["']((?:node:[^"']+)|util)["']/g)].map((m) => m[1]);
if (left.length > 0) {
  console.error(`the bundle still imports ${[...new Set(left)].join(', ')}: it would need nodejs_compat`);
  process.exit(1);
}
console.log(outfile);
