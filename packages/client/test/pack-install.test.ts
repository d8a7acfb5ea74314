/**
 * What a user gets from `npm install @a2a-polyglot/client`: the client and the workspace
 * packages it depends on are built, packed with `npm pack` and installed into an empty
 * folder, as from the registry. Checked there:
 * - gRPC is opt-in: @grpc/grpc-js (an optional peer) is not installed, nor is the server
 *   binding @a2a-polyglot/grpc;
 * - `require()` and `import` both load the client (CommonJS and ES module consumers);
 * - a browser bundle of the installed client uses the ESM build and contains no gRPC code;
 * - every package ships the LICENSE.
 *
 * Needs the built packages: it runs turbo's build, a cache hit after `turbo run build` (which
 * CI runs first), a few minutes when it has to build. Needs the npm registry for the external
 * dependencies unless they are in the npm cache (`--prefer-offline`). Installing in a temp
 * folder outside the repo never touches the repo's node_modules.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BROWSER_BUNDLE, GRPC_ONLY_TEXT, isGrpcInput } from './browser-bundle-checks.js';

const root = path.resolve(__dirname, '../../..');
/** The client and its workspace dependencies, i.e. what its `dependencies` name in this repo. */
const PACKAGES = ['model', 'core', 'sse', 'v03', 'card-signing', 'client'];

let project: string;

/** Runs a command, failing the test with its output when it fails. */
function run(file: string, args: string[], cwd: string): string {
  return execFileSync(file, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

/** Runs `node -e`/`--input-type=module -e` code in the install folder; returns its stdout. */
function node(code: string, esm = false): string {
  return run(process.execPath, [...(esm ? ['--input-type=module'] : []), '-e', code], project).trim();
}

beforeAll(() => {
  run('npx', ['turbo', 'run', 'build', '--filter=@a2a-polyglot/client', '--output-logs=errors-only'], root);
  project = mkdtempSync(path.join(tmpdir(), 'a2a-client-pack-'));
  run('npm', ['pack', '--silent', ...PACKAGES.flatMap((name) => ['-w', `@a2a-polyglot/${name}`]), '--pack-destination', project], root);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'client-consumer', private: true }));
  const tarballs = PACKAGES.map((name) => `./a2a-polyglot-${name}-0.1.0.tgz`);
  run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline', '--loglevel=error', ...tarballs], project);
}, 600_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the packed client installed in an empty folder', () => {
  it('installs without gRPC: no @grpc/grpc-js, no @a2a-polyglot/grpc', () => {
    expect(existsSync(path.join(project, 'node_modules/@a2a-polyglot/client/package.json'))).toBe(true);
    expect(existsSync(path.join(project, 'node_modules/@grpc/grpc-js'))).toBe(false);
    expect(existsSync(path.join(project, 'node_modules/@a2a-polyglot/grpc'))).toBe(false);
  });

  it('loads with require() (CommonJS)', () => {
    expect(node(`const c = require('@a2a-polyglot/client'); console.log(typeof c.Client.connect, c.JSONRPC_BINDING)`)).toBe('function JSONRPC');
  });

  it('loads with import (ES modules)', () => {
    expect(node(`import { Client, JSONRPC_BINDING } from '@a2a-polyglot/client'; console.log(typeof Client.connect, JSONRPC_BINDING)`, true)).toBe(
      'function JSONRPC',
    );
  });

  it('gives one copy of each class to a process that both imports and requires it', () => {
    const code = `import { createRequire } from 'node:module';
      import { A2AError } from '@a2a-polyglot/core';
      const required = createRequire(process.cwd() + '/').call(null, '@a2a-polyglot/core');
      console.log(required.A2AError === A2AError)`;
    expect(node(code, true)).toBe('true');
  });

  it('says what is missing when the gRPC entry is used without @grpc/grpc-js', () => {
    const out = node(`try { require('@a2a-polyglot/client/grpc') } catch (e) { console.log(e.code, e.message.split('\\n')[0]) }`);
    expect(out).toBe("MODULE_NOT_FOUND Cannot find module '@grpc/grpc-js'");
  });

  it('bundles for the browser from its ESM build, with no gRPC code', async () => {
    const result = await build({ ...BROWSER_BUNDLE, stdin: { contents: "export { Client } from '@a2a-polyglot/client';", resolveDir: project } });
    const inputs = Object.keys(result.metafile.inputs);
    const ours = inputs.filter((i) => i.includes('node_modules/@a2a-polyglot/'));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.filter((i) => !i.includes('/dist/esm/'))).toEqual([]);
    expect(inputs.filter(isGrpcInput)).toEqual([]);
    expect(inputs.some((i) => i.startsWith('node:'))).toBe(false);
    expect(result.outputFiles[0]!.text).not.toMatch(GRPC_ONLY_TEXT);
  });

  it('ships the LICENSE in every package', () => {
    for (const name of PACKAGES) {
      expect(readFileSync(path.join(project, `node_modules/@a2a-polyglot/${name}/LICENSE`), 'utf8')).toContain('Apache License');
    }
  });
});
