#!/usr/bin/env node
/**
 * Staleness check for generated code (root script `npm run check:generated`).
 *
 * Regenerates everything (`npm run generate` in every workspace that has that script, without
 * turbo's cache so a cached result can never hide a difference), then fails if git sees any
 * change or untracked file under the generated directories. Generated code is committed and
 * never edited by hand, so any difference means: someone changed proto/ or the generator and
 * forgot to regenerate, edited generated code, or the toolchain version changed.
 *
 * When a package adds generated output, add its directory to GENERATED_DIRS.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Directories and files (relative to the repo root) whose content is produced by `generate`
 * scripts: the model's generated code, and the executor's config JSON Schema (generated from
 * its zod schema).
 */
const GENERATED_DIRS = ['packages/model/src/gen', 'services/executor/config.schema.json'];

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: repoRoot, encoding: 'utf8', shell: process.platform === 'win32', ...opts });

console.log('check:generated: regenerating (npm run generate --workspaces --if-present) ...');
try {
  run('npm', ['run', 'generate', '--workspaces', '--if-present'], { stdio: 'inherit' });
} catch {
  console.error('check:generated: FAILED: code generation itself failed (see the output above).');
  process.exit(1);
}

const missing = GENERATED_DIRS.filter((dir) => !existsSync(path.join(repoRoot, dir)));
if (missing.length > 0) {
  console.error(`check:generated: FAILED: generation did not produce ${missing.join(', ')}.`);
  process.exit(1);
}

const status = run('git', ['status', '--porcelain', '--untracked-files=all', '--', ...GENERATED_DIRS]).trimEnd();
if (status !== '') {
  console.error(
    [
      'check:generated: FAILED: generated code is out of date with proto/ and the generators.',
      'These generated files differ from what is committed:',
      ...status.split('\n').map((line) => `  ${line}`),
      '',
      'Run `npm run generate` and commit the result (never edit generated files by hand).',
    ].join('\n'),
  );
  try {
    console.error(run('git', ['--no-pager', 'diff', '--stat', '--', ...GENERATED_DIRS]));
  } catch {
    // the listing above is enough
  }
  process.exit(1);
}

console.log(`check:generated: OK (${GENERATED_DIRS.join(', ')} up to date).`);
