import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { InspectorAssets } from './inspector-assets.js';

export type { InspectorAssets } from './inspector-assets.js';

/** Where the package build writes the page (dist/web/), relative to this package's root. */
export const BUILT_ASSETS_DIR = join('dist', 'web');

/** Running from the TypeScript sources (jest, ts tools) rather than from the build. */
const FROM_SOURCES = __filename.endsWith('.ts');

let loading: Promise<InspectorAssets> | undefined;

/**
 * The page's files, loaded once per process. From the build they are read from dist/web/
 * (made by `npm run build`; esbuild is not needed at run time). From the sources they are
 * bundled on demand with esbuild, so a test always serves the page as the code is now.
 */
export function loadInspectorAssets(): Promise<InspectorAssets> {
  loading ??= (FROM_SOURCES ? bundleFromSources() : readBuilt()).catch((error: unknown) => {
    loading = undefined; // a later request may succeed (e.g. after a build)
    throw error;
  });
  return loading;
}

/**
 * `require`, not `import()`: esbuild is needed only here, and every way of running the sources
 * (jest, scripts/run-ts.js) resolves `./bundle.js` to the .ts file for `require` alone.
 */
function bundleFromSources(): Promise<InspectorAssets> {
  const { bundleInspector } = require('./bundle.js') as typeof import('./bundle.js');
  return bundleInspector();
}

async function readBuilt(): Promise<InspectorAssets> {
  const dir = resolve(__dirname, '..', BUILT_ASSETS_DIR);
  if (!existsSync(join(dir, 'inspector.js'))) throw new Error(`The inspector page is not built (${dir} is missing): run npm run build`);
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return { html: read('index.html'), css: read('inspector.css'), js: read('inspector.js') };
}
