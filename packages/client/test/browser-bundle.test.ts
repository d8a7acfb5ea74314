/**
 * The main entry point must bundle for browsers: no Node built-ins, no grpc-js. esbuild
 * fails the build on any `node:*` import under `platform: 'browser'`. Sibling packages are
 * bundled from their sources, as a browser app bundling the published packages would.
 */
import { build, type Plugin } from 'esbuild';
import path from 'node:path';
import { BROWSER_BUNDLE, GRPC_ONLY_TEXT, isGrpcInput } from './browser-bundle-checks.js';

const root = path.resolve(__dirname, '../../..');

/** `@a2a-polyglot/<name>[/<sub>]` → packages/<name>/src/<sub|index>.ts */
const workspaceSources: Plugin = {
  name: 'workspace-sources',
  setup(b) {
    b.onResolve({ filter: /^@a2a-polyglot\// }, (args) => {
      const [, name, sub] = /^@a2a-polyglot\/([a-z0-9-]+)(?:\/(.+))?$/.exec(args.path)!;
      return { path: path.join(root, 'packages', name!, 'src', `${sub ?? 'index'}.ts`) };
    });
  },
};

async function bundle(entry: string) {
  return build({ ...BROWSER_BUNDLE, entryPoints: [path.join(root, entry)], plugins: [workspaceSources] });
}

describe('browser bundle', () => {
  jest.setTimeout(60_000);

  it('@a2a-polyglot/client bundles for the browser without Node modules or grpc-js', async () => {
    const result = await bundle('packages/client/src/index.ts');
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter(isGrpcInput)).toEqual([]);
    expect(inputs.some((i) => i.startsWith('node:'))).toBe(false);
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('A2A-Version');
    expect(code).not.toMatch(GRPC_ONLY_TEXT);
  });

  it('the gRPC entry is Node-only: it does not bundle for the browser', async () => {
    await expect(bundle('packages/client/src/grpc.ts')).rejects.toThrow();
  });

  it('the gRPC markers do recognise gRPC code (so the checks above cannot pass vacuously)', async () => {
    const result = await build({
      ...BROWSER_BUNDLE,
      platform: 'node',
      entryPoints: [path.join(root, 'packages/model/src/grpc.ts')],
      plugins: [workspaceSources],
    });
    expect(Object.keys(result.metafile.inputs).filter(isGrpcInput)).not.toEqual([]);
    expect(result.outputFiles[0]!.text).toMatch(GRPC_ONLY_TEXT);
  });
});
