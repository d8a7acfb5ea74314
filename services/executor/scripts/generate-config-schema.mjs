#!/usr/bin/env node
/**
 * Regenerates `config.schema.json` (the JSON Schema of executor config files) from the zod
 * schema in `src/config/schema/`: `npm run generate -w @a2a-polyglot/executor`, also run by
 * the root `npm run check:generated`, which fails when the committed file differs.
 *
 * Why through jest: the schema is TypeScript importing workspace packages by source, which
 * the repo's jest setup (SWC, workspace mapping) already runs without a build. The test that
 * writes the file here compares it in every ordinary test run.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
execFileSync('npx', ['jest', 'services/executor/test/config-schema.test.ts', '-t', 'config.schema.json'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, A2A_WRITE_CONFIG_SCHEMA: '1' },
  shell: process.platform === 'win32',
});
