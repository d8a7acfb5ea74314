import { join } from 'node:path';
import { bundleForBrowser, REPO_ROOT } from './websocket-helpers.js';

/**
 * The WebSocket transport must run in browsers: esbuild with `--platform=browser` fails on
 * any Node built-in it cannot bundle, and the bundle must not pull in `ws` or the server side.
 */
describe('browser bundle of the WebSocket transport', () => {
  it('bundles with --platform=browser and contains no Node-only code', async () => {
    const { code, metafile } = await bundleForBrowser(join(REPO_ROOT, 'packages/client/src/transports/websocket.ts'));
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((i) => /node_modules\/ws\/|packages\/(websocket|server|http|jsonrpc|grpc)\//.test(i))).toEqual([]);
    expect(code).not.toMatch(/require\(["'](node:|ws["'])/);
    expect(code).toContain('a2a.v1');
  });
});
