/**
 * `npm run a2a` builds first, through scripts/quiet-build.js, which keeps the build tool's
 * banner and summary off the user's screen unless the build fails.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const { runQuietly } = require(path.join(root, 'scripts/quiet-build.js')) as {
  runQuietly(file: string, args: readonly string[], write: (text: string) => void): number;
};

/** Runs a node one-liner through runQuietly; returns its exit code and what it let through. */
function quietly(script: string): { code: number; shown: string } {
  let shown = '';
  const code = runQuietly(process.execPath, ['-e', script], (text) => (shown += text));
  return { code, shown };
}

it('a build that succeeds shows nothing of its banner', () => {
  expect(quietly("console.log('• Packages in scope: @a2a-polyglot/cli'); console.error('Tasks: 7 successful')")).toEqual({ code: 0, shown: '' });
});

it('a build that fails shows all it printed, and keeps its exit code', () => {
  const failed = quietly("console.log('src/x.ts(1,1): error TS2304'); console.error('Failed: @a2a-polyglot/cli#build'); process.exit(3)");
  expect(failed.code).toBe(3);
  expect(failed.shown).toBe('src/x.ts(1,1): error TS2304\nFailed: @a2a-polyglot/cli#build\n');
});

it('the root a2a script and the first-run build of every bin (a2a, a2a-executor, a2a-migrate) build through it', () => {
  const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
  expect(scripts.a2a).toBe('node scripts/quiet-build.js @a2a-polyglot/cli && node packages/cli/bin/a2a.js');
  expect(readFileSync(path.join(root, 'packages/cli/bin/a2a.js'), 'utf8')).toContain("buildOnFirstRun('a2a', '@a2a-polyglot/cli', main)");
  expect(readFileSync(path.join(root, 'services/executor/bin/a2a-executor.js'), 'utf8')).toContain(
    "buildOnFirstRun('a2a-executor', '@a2a-polyglot/executor', main)",
  );
  expect(readFileSync(path.join(root, 'packages/stores/bin/a2a-migrate.js'), 'utf8')).toContain("buildOnFirstRun('a2a-migrate', '@a2a-polyglot/stores', main)");
});
