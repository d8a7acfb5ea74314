import path from 'node:path';

/**
 * How the user started `a2a`, as a command prefix to print in hints (`follow it: <prefix>
 * subscribe …`, `Run '<prefix> send --help'`). A bare `a2a` is on nobody's PATH when the CLI
 * was run as `npx a2a` or `npm run a2a --`, so a hint that says `a2a …` cannot be pasted
 * back. The rule, in order:
 *
 * 1. Run by `npx` / `npm exec` (npm sets `npm_command=exec`): `npx a2a`.
 * 2. Run by an npm script whose command ends by running the CLI (`npm_command=run-script`,
 *    `npm_lifecycle_script` ending in `a2a` or `a2a.js`): `npm run <script> --`.
 * 3. Started as `node path/to/a2a.js` (or `dist/main.js`): `node <that path, relative to the
 *    working directory>`.
 * 4. Otherwise (`a2a` on the PATH, or unknown): `a2a`.
 */
export function invocationOf(env: NodeJS.ProcessEnv, script: string | undefined, cwd: string): string {
  if (env.npm_command === 'exec') return 'npx a2a';
  const event = env.npm_lifecycle_event;
  if (env.npm_command === 'run-script' && event && /\ba2a(\.js)?["']?\s*$/.test(env.npm_lifecycle_script ?? '')) return `npm run ${event} --`;
  if (script && /(^|[\\/])(a2a\.js|main\.js)$/.test(script)) {
    const relative = path.relative(cwd, script);
    return `node ${relative.startsWith('..') || path.isAbsolute(relative) ? script : relative}`;
  }
  return 'a2a';
}
