/**
 * Runs the worker locally in workerd (the Workers runtime) through Miniflare, without wrangler:
 *
 *   node examples/cloudflare-worker/run-local.mjs      # PORT=8787 by default; PORT=0 picks a free port
 *
 * Bundles worker.mjs with build.mjs first. The first stdout line is the worker's base URL.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';

const here = dirname(fileURLToPath(import.meta.url));
const outfile = join(here, 'dist', 'worker.mjs');
execFileSync(process.execPath, [join(here, 'build.mjs'), outfile], { stdio: ['ignore', 'ignore', 'inherit'] });

const mf = new Miniflare({
  modules: true,
  script: readFileSync(outfile, 'utf8'),
  scriptPath: outfile,
  // As wrangler.toml: no compatibility flags, the bundle needs no nodejs_compat.
  compatibilityDate: '2026-04-01',
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 8787),
});
const url = await mf.ready;
const base = url.href.replace(/\/$/, '');
console.log(base);
console.log(`agent card: ${base}/.well-known/agent-card.json`);

async function stop() {
  await mf.dispose();
  process.exit(0);
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
